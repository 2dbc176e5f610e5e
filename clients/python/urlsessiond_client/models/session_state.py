from enum import StrEnum


class SessionState(StrEnum):
    INVALIDATED = "invalidated"
    INVALIDATING = "invalidating"
    VALID = "valid"

    def __str__(self) -> str:
        return str(self.value)
