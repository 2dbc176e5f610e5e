from enum import StrEnum


class StorageScope(StrEnum):
    NONE = "none"
    PRIVATE = "private"
    SHARED = "shared"

    def __str__(self) -> str:
        return str(self.value)
