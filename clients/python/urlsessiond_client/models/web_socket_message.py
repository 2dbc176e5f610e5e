from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebSocketMessage")


@_attrs_define
class WebSocketMessage:
    """A received message with its place in the task's order; `string` (text) or `data` (binary, base64).

    Attributes:
        sequence (int):
        string (str | Unset):
        data (str | Unset):
    """

    sequence: int
    string: str | Unset = UNSET
    data: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        sequence = self.sequence

        string = self.string

        data = self.data

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "sequence": sequence,
            }
        )
        if string is not UNSET:
            field_dict["string"] = string
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        sequence = d.pop("sequence")

        string = d.pop("string", UNSET)

        data = d.pop("data", UNSET)

        web_socket_message = cls(
            sequence=sequence,
            string=string,
            data=data,
        )

        return web_socket_message
