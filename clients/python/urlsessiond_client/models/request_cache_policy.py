from enum import StrEnum


class RequestCachePolicy(StrEnum):
    RELOADIGNORINGLOCALANDREMOTECACHEDATA = "reloadIgnoringLocalAndRemoteCacheData"
    RELOADIGNORINGLOCALCACHEDATA = "reloadIgnoringLocalCacheData"
    RELOADREVALIDATINGCACHEDATA = "reloadRevalidatingCacheData"
    RETURNCACHEDATADONTLOAD = "returnCacheDataDontLoad"
    RETURNCACHEDATAELSELOAD = "returnCacheDataElseLoad"
    USEPROTOCOLCACHEPOLICY = "useProtocolCachePolicy"

    def __str__(self) -> str:
        return str(self.value)
