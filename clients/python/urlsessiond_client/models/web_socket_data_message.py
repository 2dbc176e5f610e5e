from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebSocketDataMessage")


@_attrs_define
class WebSocketDataMessage:
    """`URLSessionWebSocketTask.Message.data`.

    Attributes:
        data (str): A binary message
    """

    data: str

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        data = d.pop("data")

        web_socket_data_message = cls(
            data=data,
        )

        return web_socket_data_message
