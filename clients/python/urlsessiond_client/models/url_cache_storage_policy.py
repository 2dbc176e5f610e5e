from enum import StrEnum


class URLCacheStoragePolicy(StrEnum):
    ALLOWED = "allowed"
    ALLOWEDINMEMORYONLY = "allowedInMemoryOnly"
    NOTALLOWED = "notAllowed"

    def __str__(self) -> str:
        return str(self.value)
