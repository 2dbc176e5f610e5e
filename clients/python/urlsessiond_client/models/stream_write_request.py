from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StreamWriteRequest")


@_attrs_define
class StreamWriteRequest:
    """`write(_:timeout:)`: the bytes as base64 (standard, padded: else 422 `field: data`) and the timeout.

    Attributes:
        data (str): Standard base64 (RFC 4648 section 4) with padding.
        timeout (float | None | Unset):  Default: 60.0.
    """

    data: str
    timeout: float | None | Unset = 60.0

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        timeout: float | None | Unset
        if isinstance(self.timeout, Unset):
            timeout = UNSET
        else:
            timeout = self.timeout

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
            }
        )
        if timeout is not UNSET:
            field_dict["timeout"] = timeout

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        data = d.pop("data")

        def _parse_timeout(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timeout = _parse_timeout(d.pop("timeout", UNSET))

        stream_write_request = cls(
            data=data,
            timeout=timeout,
        )

        return stream_write_request
