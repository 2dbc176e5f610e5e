from enum import StrEnum


class TaskKind(StrEnum):
    DATA = "data"
    DOWNLOAD = "download"
    STREAM = "stream"
    UPLOAD = "upload"
    WEBSOCKET = "webSocket"

    def __str__(self) -> str:
        return str(self.value)
