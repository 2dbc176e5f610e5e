from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SegmentsInput")


@_attrs_define
class SegmentsInput:
    """A segmented download as a client asks for it: `max` connections at most (required, 1…16) and
    parts of at least `minSize` bytes (65536…2^40, default 1048576). An invalid value is a 422 naming
    `segments.max` or `segments.minSize` (under `configuration.` for a session).

        Attributes:
            max_ (int):
            min_size (int | None | Unset):  Default: 1048576.
    """

    max_: int
    min_size: int | None | Unset = 1048576

    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_

        min_size: int | None | Unset
        if isinstance(self.min_size, Unset):
            min_size = UNSET
        else:
            min_size = self.min_size

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "max": max_,
            }
        )
        if min_size is not UNSET:
            field_dict["minSize"] = min_size

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        max_ = d.pop("max")

        def _parse_min_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_size = _parse_min_size(d.pop("minSize", UNSET))

        segments_input = cls(
            max_=max_,
            min_size=min_size,
        )

        return segments_input
