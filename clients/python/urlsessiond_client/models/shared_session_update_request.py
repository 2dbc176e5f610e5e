from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SharedSessionUpdateRequest")


@_attrs_define
class SharedSessionUpdateRequest:
    """The body of `PATCH /v1/sessions/shared`, a merge patch of `sessionDescription`.

    Attributes:
        delegate (None | Unset): The shared session has none; null leaves it so.
        session_description (None | str | Unset): `URLSession.sessionDescription`; null removes it.
    """

    delegate: None | Unset = UNSET
    session_description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        delegate = self.delegate

        session_description: None | str | Unset
        if isinstance(self.session_description, Unset):
            session_description = UNSET
        else:
            session_description = self.session_description

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if delegate is not UNSET:
            field_dict["delegate"] = delegate
        if session_description is not UNSET:
            field_dict["sessionDescription"] = session_description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        delegate = d.pop("delegate", UNSET)

        def _parse_session_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_description = _parse_session_description(d.pop("sessionDescription", UNSET))

        shared_session_update_request = cls(
            delegate=delegate,
            session_description=session_description,
        )

        return shared_session_update_request
