from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Progress")


@_attrs_define
class Progress:
    """The task's `progress` (a `Progress` object) with the transfer rate.

    Attributes:
        fraction_completed (float):
        throughput (float): Bytes per second, over the last four seconds of the transfer: of the body sent for an
            upload task, of the body received for the others (as `fractionCompleted`). 0 when the task
            is not running or its transfer is not under way (waiting for its begin date, a retry or a
            network path), in the transfer's first half second, and once four seconds passed with no
            byte. Only the node running the task knows its rate: on several nodes sharing PostgreSQL,
            the others answer 0. An answer shows a rate at most about a second old.
        estimated_time_remaining (float | None): Seconds until the bytes still expected (the body `throughput` counts)
            have moved at
            `throughput`; null when unknown: no expected size, or a `throughput` of 0.
    """

    fraction_completed: float
    throughput: float
    estimated_time_remaining: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fraction_completed = self.fraction_completed

        throughput = self.throughput

        estimated_time_remaining: float | None
        estimated_time_remaining = self.estimated_time_remaining

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fractionCompleted": fraction_completed,
                "throughput": throughput,
                "estimatedTimeRemaining": estimated_time_remaining,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fraction_completed = d.pop("fractionCompleted")

        throughput = d.pop("throughput")

        def _parse_estimated_time_remaining(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        estimated_time_remaining = _parse_estimated_time_remaining(d.pop("estimatedTimeRemaining"))

        progress = cls(
            fraction_completed=fraction_completed,
            throughput=throughput,
            estimated_time_remaining=estimated_time_remaining,
        )

        progress.additional_properties = d
        return progress

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
