from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="JSONHTTPBody")


@_attrs_define
class JSONHTTPBody:
    """A body given as any JSON value, sent serialized.

    Attributes:
        json (Any): Any JSON value.
    """

    json: Any

    def to_dict(self) -> dict[str, Any]:
        json = self.json

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "json": json,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        json = d.pop("json")

        jsonhttp_body = cls(
            json=json,
        )

        return jsonhttp_body
