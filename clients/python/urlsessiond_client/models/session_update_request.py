from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delegate_patch import DelegatePatch


T = TypeVar("T", bound="SessionUpdateRequest")


@_attrs_define
class SessionUpdateRequest:
    """The body of `PATCH /v1/sessions/{id}`, a merge patch: absent = unchanged, null = removed. Other
    members of the session object are refused by name (422).

        Attributes:
            delegate (DelegatePatch | None | Unset): Merged into the current delegate (or the new one's defaults); null
                removes it.
            session_description (None | str | Unset): `URLSession.sessionDescription`; null removes it.
    """

    delegate: DelegatePatch | None | Unset = UNSET
    session_description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.delegate_patch import DelegatePatch

        delegate: dict[str, Any] | None | Unset
        if isinstance(self.delegate, Unset):
            delegate = UNSET
        elif isinstance(self.delegate, DelegatePatch):
            delegate = self.delegate.to_dict()
        else:
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
        from ..models.delegate_patch import DelegatePatch

        d = dict(src_dict)

        def _parse_delegate(data: object) -> DelegatePatch | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                delegate_type_0 = DelegatePatch.from_dict(data)

                return delegate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DelegatePatch | None | Unset, data)

        delegate = _parse_delegate(d.pop("delegate", UNSET))

        def _parse_session_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_description = _parse_session_description(d.pop("sessionDescription", UNSET))

        session_update_request = cls(
            delegate=delegate,
            session_description=session_description,
        )

        return session_update_request
