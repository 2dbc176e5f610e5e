from enum import StrEnum


class TransferErrorDomain(StrEnum):
    NSPOSIXERRORDOMAIN = "NSPOSIXErrorDomain"
    NSURLERRORDOMAIN = "NSURLErrorDomain"

    def __str__(self) -> str:
        return str(self.value)
