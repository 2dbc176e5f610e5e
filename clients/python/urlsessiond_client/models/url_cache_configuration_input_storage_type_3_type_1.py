from enum import StrEnum


class URLCacheConfigurationInputStorageType3Type1(StrEnum):
    PRIVATE = "private"
    SHARED = "shared"

    def __str__(self) -> str:
        return str(self.value)
