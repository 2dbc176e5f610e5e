from enum import StrEnum


class CredentialPersistence(StrEnum):
    FORSESSION = "forSession"
    NONE = "none"
    PERMANENT = "permanent"
    SYNCHRONIZABLE = "synchronizable"

    def __str__(self) -> str:
        return str(self.value)
