from enum import StrEnum


class NetworkType(StrEnum):
    CELLULAR = "cellular"
    OTHER = "other"
    WIFI = "wifi"
    WIREDETHERNET = "wiredEthernet"

    def __str__(self) -> str:
        return str(self.value)
