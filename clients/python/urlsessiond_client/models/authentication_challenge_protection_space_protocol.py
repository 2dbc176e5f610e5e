from enum import StrEnum


class AuthenticationChallengeProtectionSpaceProtocol(StrEnum):
    HTTP = "http"
    HTTPS = "https"

    def __str__(self) -> str:
        return str(self.value)
