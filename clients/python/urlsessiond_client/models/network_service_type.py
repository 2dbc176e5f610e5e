from enum import StrEnum


class NetworkServiceType(StrEnum):
    AVSTREAMING = "avStreaming"
    BACKGROUND = "background"
    CALLSIGNALING = "callSignaling"
    DEFAULT = "default"
    RESPONSIVEAV = "responsiveAV"
    RESPONSIVEDATA = "responsiveData"
    VIDEO = "video"
    VOICE = "voice"

    def __str__(self) -> str:
        return str(self.value)
