from enum import StrEnum


class CookieSameSitePolicyType1(StrEnum):
    LAX = "lax"
    NONE = "none"
    STRICT = "strict"

    def __str__(self) -> str:
        return str(self.value)
