from enum import StrEnum


class ResponseDecisionDisposition(StrEnum):
    ALLOW = "allow"
    BECOMEDOWNLOAD = "becomeDownload"
    CANCEL = "cancel"

    def __str__(self) -> str:
        return str(self.value)
