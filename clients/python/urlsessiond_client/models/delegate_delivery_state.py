from enum import StrEnum


class DelegateDeliveryState(StrEnum):
    DELIVERING = "delivering"
    DISABLED = "disabled"
    HELD = "held"
    IDLE = "idle"
    RETRYING = "retrying"

    def __str__(self) -> str:
        return str(self.value)
