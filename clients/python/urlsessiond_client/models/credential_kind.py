from enum import StrEnum


class CredentialKind(StrEnum):
    IDENTITY = "identity"
    PASSWORD = "password"
    SERVERTRUST = "serverTrust"

    def __str__(self) -> str:
        return str(self.value)
