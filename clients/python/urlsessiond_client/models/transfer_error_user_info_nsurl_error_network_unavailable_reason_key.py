from enum import StrEnum


class TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey(StrEnum):
    CELLULAR = "cellular"
    CONSTRAINED = "constrained"
    EXPENSIVE = "expensive"

    def __str__(self) -> str:
        return str(self.value)
