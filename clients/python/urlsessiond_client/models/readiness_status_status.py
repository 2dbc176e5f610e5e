from enum import StrEnum


class ReadinessStatusStatus(StrEnum):
    READY = "ready"
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)
