from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rate_limit_period import RateLimitPeriod


T = TypeVar("T", bound="RateLimit")


@_attrs_define
class RateLimit:
    """A bandwidth limit in bytes per second (whole, 1…10^12), either flat — `receiveBytesPerSecond`
    (downloads and response bodies) and `sendBytesPerSecond` (request bodies and uploads), either one
    absent or null for no limit that way, `{}` for none at all — or a timetable: `schedule`, periods of
    the day with their limits, read in `timeZone` (an IANA zone; absent or null: the service's own zone,
    `TZ`). Outside every period there is no limit. A period runs from `from` (included) to `to`
    (excluded), wrapping past midnight when `to` comes first (`{"from": "22:00", "to": "06:00"}`); times
    are `HH:MM` or `HH:MM:SS` (seconds let a schedule put a boundary a few seconds ahead), `to` may be
    `24:00`. 422 naming the field (under `rateLimit`, `configuration.rateLimit`, or the operator's
    variable): a rate out of range; flat rates beside a `schedule` (they go in its periods); `timeZone`
    without a `schedule`, or not a zone; a `schedule` of no period or more than 48; a time that does
    not parse; a period whose `from` equals its `to` (a whole day is a flat limit); periods that
    overlap (`rateLimit.schedule[n]` naming the later one).

        Attributes:
            receive_bytes_per_second (int | None | Unset):
            send_bytes_per_second (int | None | Unset):
            schedule (list[RateLimitPeriod] | None | Unset):
            time_zone (None | str | Unset):
    """

    receive_bytes_per_second: int | None | Unset = UNSET
    send_bytes_per_second: int | None | Unset = UNSET
    schedule: list[RateLimitPeriod] | None | Unset = UNSET
    time_zone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
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

        schedule: list[dict[str, Any]] | None | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        elif isinstance(self.schedule, list):
            schedule = []
            for schedule_type_0_item_data in self.schedule:
                schedule_type_0_item = schedule_type_0_item_data.to_dict()
                schedule.append(schedule_type_0_item)

        else:
            schedule = self.schedule

        time_zone: None | str | Unset
        if isinstance(self.time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = self.time_zone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if receive_bytes_per_second is not UNSET:
            field_dict["receiveBytesPerSecond"] = receive_bytes_per_second
        if send_bytes_per_second is not UNSET:
            field_dict["sendBytesPerSecond"] = send_bytes_per_second
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rate_limit_period import RateLimitPeriod

        d = dict(src_dict)

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

        def _parse_schedule(data: object) -> list[RateLimitPeriod] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                schedule_type_0 = []
                _schedule_type_0 = data
                for schedule_type_0_item_data in _schedule_type_0:
                    schedule_type_0_item = RateLimitPeriod.from_dict(schedule_type_0_item_data)

                    schedule_type_0.append(schedule_type_0_item)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RateLimitPeriod] | None | Unset, data)

        schedule = _parse_schedule(d.pop("schedule", UNSET))

        def _parse_time_zone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        time_zone = _parse_time_zone(d.pop("timeZone", UNSET))

        rate_limit = cls(
            receive_bytes_per_second=receive_bytes_per_second,
            send_bytes_per_second=send_bytes_per_second,
            schedule=schedule,
            time_zone=time_zone,
        )

        return rate_limit
