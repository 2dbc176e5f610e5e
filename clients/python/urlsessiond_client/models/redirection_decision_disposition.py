from enum import StrEnum


class RedirectionDecisionDisposition(StrEnum):
    FOLLOW = "follow"
    REJECT = "reject"

    def __str__(self) -> str:
        return str(self.value)
