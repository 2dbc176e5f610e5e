from enum import StrEnum


class ProposedCredentialKind(StrEnum):
    IDENTITY = "identity"
    PASSWORD = "password"

    def __str__(self) -> str:
        return str(self.value)
