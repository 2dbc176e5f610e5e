from enum import StrEnum


class SessionKind(StrEnum):
    BACKGROUND = "background"
    DEFAULT = "default"
    EPHEMERAL = "ephemeral"

    def __str__(self) -> str:
        return str(self.value)
