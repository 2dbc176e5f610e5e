from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RateLimitPeriod")


@_attrs_define
class RateLimitPeriod:
    """One period of a `RateLimit` timetable, with its limits (either absent or null for no limit that way).

    Attributes:
        from_ (str):
        to (str):
        receive_bytes_per_second (int | None | Unset):
        send_bytes_per_second (int | None | Unset):
    """

    from_: str
    to: str
    receive_bytes_per_second: int | None | Unset = UNSET
    send_bytes_per_second: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        receive_bytes_per_second: int | None | Unset
        if isinstance(self.receive_bytes_per_second, Unset):
            receive_bytes_per_second = UNSET
        else:
            receive_bytes_per_second = self.receive_bytes_per_second

        send_bytes_per_second: int | None | Unset
        if isinstance(self.send_bytes_per_second, Unset):
            send_bytes_per_second = UNSET
        else:
            send_bytes_per_second = self.send_bytes_per_second

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
            }
        )
        if receive_bytes_per_second is not UNSET:
            field_dict["receiveBytesPerSecond"] = receive_bytes_per_second
        if send_bytes_per_second is not UNSET:
            field_dict["sendBytesPerSecond"] = send_bytes_per_second

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        def _parse_receive_bytes_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        receive_bytes_per_second = _parse_receive_bytes_per_second(d.pop("receiveBytesPerSecond", UNSET))

        def _parse_send_bytes_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        send_bytes_per_second = _parse_send_bytes_per_second(d.pop("sendBytesPerSecond", UNSET))

        rate_limit_period = cls(
            from_=from_,
            to=to,
            receive_bytes_per_second=receive_bytes_per_second,
            send_bytes_per_second=send_bytes_per_second,
        )

        return rate_limit_period
