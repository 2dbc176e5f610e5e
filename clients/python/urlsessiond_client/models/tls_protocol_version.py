from enum import StrEnum


class TLSProtocolVersion(StrEnum):
    TLSV10 = "TLSv10"
    TLSV11 = "TLSv11"
    TLSV12 = "TLSv12"
    TLSV13 = "TLSv13"

    def __str__(self) -> str:
        return str(self.value)
