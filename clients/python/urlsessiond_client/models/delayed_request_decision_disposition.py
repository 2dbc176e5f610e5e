from enum import StrEnum


class DelayedRequestDecisionDisposition(StrEnum):
    CANCEL = "cancel"
    CONTINUELOADING = "continueLoading"
    USENEWREQUEST = "useNewRequest"

    def __str__(self) -> str:
        return str(self.value)
