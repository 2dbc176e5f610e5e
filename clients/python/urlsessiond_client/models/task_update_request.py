from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.rate_limit import RateLimit


T = TypeVar("T", bound="TaskUpdateRequest")


@_attrs_define
class TaskUpdateRequest:
    """The body of `PATCH /v1/tasks/{id}`, a JSON merge patch of the task: only `rateLimit` changes, and it
    is required (absent: 422 `missing-field`); null removes the task's own limit.

        Attributes:
            rate_limit (None | RateLimit):
    """

    rate_limit: None | RateLimit

    def to_dict(self) -> dict[str, Any]:
        from ..models.rate_limit import RateLimit

        rate_limit: dict[str, Any] | None
        if isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "rateLimit": rate_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rate_limit import RateLimit

        d = dict(src_dict)

        def _parse_rate_limit(data: object) -> None | RateLimit:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_0 = RateLimit.from_dict(data)

                return rate_limit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit"))

        task_update_request = cls(
            rate_limit=rate_limit,
        )

        return task_update_request
