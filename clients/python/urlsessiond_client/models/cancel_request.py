from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CancelRequest")


@_attrs_define
class CancelRequest:
    """The optional body of `POST /v1/tasks/{id}/cancel`.

    Attributes:
        by_producing_resume_data (bool | None | Unset): `cancel(byProducingResumeData:)`: a download keeps its bytes as
            resume data; for other tasks it is a plain cancel. Default: False.
        close_code (int | None | Unset): webSocket tasks, `cancel(with:reason:)`: a code a close frame may carry
            (1000–1003, 1007–1014,
            3000–4999; else 422 `field: closeCode`). Default 1000 when only `reason` is given. For other
            tasks it is a plain cancel.
        reason (None | str | Unset): webSocket tasks, the close frame's reason. A close frame holds 123 bytes of it: a
            longer reason
            is cut at the last whole character that fits (the task's `closeReason` shows what was sent).
    """

    by_producing_resume_data: bool | None | Unset = False
    close_code: int | None | Unset = UNSET
    reason: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        by_producing_resume_data: bool | None | Unset
        if isinstance(self.by_producing_resume_data, Unset):
            by_producing_resume_data = UNSET
        else:
            by_producing_resume_data = self.by_producing_resume_data

        close_code: int | None | Unset
        if isinstance(self.close_code, Unset):
            close_code = UNSET
        else:
            close_code = self.close_code

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if by_producing_resume_data is not UNSET:
            field_dict["byProducingResumeData"] = by_producing_resume_data
        if close_code is not UNSET:
            field_dict["closeCode"] = close_code
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_by_producing_resume_data(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        by_producing_resume_data = _parse_by_producing_resume_data(d.pop("byProducingResumeData", UNSET))

        def _parse_close_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        close_code = _parse_close_code(d.pop("closeCode", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        cancel_request = cls(
            by_producing_resume_data=by_producing_resume_data,
            close_code=close_code,
            reason=reason,
        )

        return cancel_request
