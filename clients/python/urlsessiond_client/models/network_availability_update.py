from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="NetworkAvailabilityUpdate")


@_attrs_define
class NetworkAvailabilityUpdate:
    """The body of `PUT /v1/admin/networks/{name}`.

    Attributes:
        available (bool | None): Up (true), down (false), or back to the link's own state (null).
    """

    available: bool | None

    def to_dict(self) -> dict[str, Any]:
        available: bool | None
        available = self.available

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "available": available,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_available(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        available = _parse_available(d.pop("available"))

        network_availability_update = cls(
            available=available,
        )

        return network_availability_update
