from enum import StrEnum


class MultipathServiceType(StrEnum):
    AGGREGATE = "aggregate"
    HANDOVER = "handover"
    INTERACTIVE = "interactive"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
