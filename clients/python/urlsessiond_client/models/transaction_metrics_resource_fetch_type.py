from enum import StrEnum


class TransactionMetricsResourceFetchType(StrEnum):
    LOCALCACHE = "localCache"
    NETWORKLOAD = "networkLoad"
    SERVERPUSH = "serverPush"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
