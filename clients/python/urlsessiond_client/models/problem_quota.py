from enum import StrEnum


class ProblemQuota(StrEnum):
    BLOBBYTES = "blobBytes"
    BLOBCOUNT = "blobCount"
    SESSIONS = "sessions"
    STOREDBYTES = "storedBytes"
    STREAMS = "streams"
    TASKS = "tasks"

    def __str__(self) -> str:
        return str(self.value)
