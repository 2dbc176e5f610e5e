from enum import StrEnum


class TaskState(StrEnum):
    CANCELING = "canceling"
    COMPLETED = "completed"
    RUNNING = "running"
    SUSPENDED = "suspended"

    def __str__(self) -> str:
        return str(self.value)
