from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Base64HTTPBody")


@_attrs_define
class Base64HTTPBody:
    """A body given as base64, sent decoded.

    Attributes:
        base64 (str): Standard base64 (RFC 4648 section 4) with padding.
    """

    base64: str

    def to_dict(self) -> dict[str, Any]:
        base64 = self.base64

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "base64": base64,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        base64 = d.pop("base64")

        base_64http_body = cls(
            base64=base64,
        )

        return base_64http_body
