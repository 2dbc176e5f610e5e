from enum import StrEnum


class NodeState(StrEnum):
    EXPIRED = "expired"
    LIVE = "live"
    STOPPED = "stopped"

    def __str__(self) -> str:
        return str(self.value)
