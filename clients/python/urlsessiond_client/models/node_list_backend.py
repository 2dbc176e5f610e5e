from enum import StrEnum


class NodeListBackend(StrEnum):
    POSTGRESQL = "postgresql"
    SQLITE = "sqlite"

    def __str__(self) -> str:
        return str(self.value)
