from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RedeliverRequest")


@_attrs_define
class RedeliverRequest:
    """The optional body of `redeliver`, which takes no member."""

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        redeliver_request = cls()

        return redeliver_request
