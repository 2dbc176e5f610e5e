from enum import StrEnum


class HTTPCookieAcceptPolicy(StrEnum):
    ALWAYS = "always"
    NEVER = "never"
    ONLYFROMMAINDOCUMENTDOMAIN = "onlyFromMainDocumentDomain"

    def __str__(self) -> str:
        return str(self.value)
