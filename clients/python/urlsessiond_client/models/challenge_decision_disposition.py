from enum import StrEnum


class ChallengeDecisionDisposition(StrEnum):
    CANCELAUTHENTICATIONCHALLENGE = "cancelAuthenticationChallenge"
    PERFORMDEFAULTHANDLING = "performDefaultHandling"
    REJECTPROTECTIONSPACE = "rejectProtectionSpace"
    USECREDENTIAL = "useCredential"

    def __str__(self) -> str:
        return str(self.value)
