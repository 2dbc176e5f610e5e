from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebSocketStringMessage")


@_attrs_define
class WebSocketStringMessage:
    """`URLSessionWebSocketTask.Message.string`.

    Attributes:
        string (str): A text message.
    """

    string: str

    def to_dict(self) -> dict[str, Any]:
        string = self.string

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "string": string,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        string = d.pop("string")

        web_socket_string_message = cls(
            string=string,
        )

        return web_socket_string_message
