from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delegate_input import DelegateInput
    from ..models.session_configuration_input import SessionConfigurationInput


T = TypeVar("T", bound="SessionCreateRequest")


@_attrs_define
class SessionCreateRequest:
    """The body of `POST /v1/sessions`; every field is optional.

    Attributes:
        configuration (None | SessionConfigurationInput | Unset):
        delegate (DelegateInput | None | Unset): The webhook delegate; null or absent is the system-provided delegate
            (no webhooks).
        session_description (None | str | Unset): `URLSession.sessionDescription`.
    """

    configuration: None | SessionConfigurationInput | Unset = UNSET
    delegate: DelegateInput | None | Unset = UNSET
    session_description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.delegate_input import DelegateInput
        from ..models.session_configuration_input import SessionConfigurationInput

        configuration: dict[str, Any] | None | Unset
        if isinstance(self.configuration, Unset):
            configuration = UNSET
        elif isinstance(self.configuration, SessionConfigurationInput):
            configuration = self.configuration.to_dict()
        else:
            configuration = self.configuration

        delegate: dict[str, Any] | None | Unset
        if isinstance(self.delegate, Unset):
            delegate = UNSET
        elif isinstance(self.delegate, DelegateInput):
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
        if configuration is not UNSET:
            field_dict["configuration"] = configuration
        if delegate is not UNSET:
            field_dict["delegate"] = delegate
        if session_description is not UNSET:
            field_dict["sessionDescription"] = session_description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delegate_input import DelegateInput
        from ..models.session_configuration_input import SessionConfigurationInput

        d = dict(src_dict)

        def _parse_configuration(data: object) -> None | SessionConfigurationInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                configuration_type_0 = SessionConfigurationInput.from_dict(data)

                return configuration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionConfigurationInput | Unset, data)

        configuration = _parse_configuration(d.pop("configuration", UNSET))

        def _parse_delegate(data: object) -> DelegateInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                delegate_type_0 = DelegateInput.from_dict(data)

                return delegate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DelegateInput | None | Unset, data)

        delegate = _parse_delegate(d.pop("delegate", UNSET))

        def _parse_session_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_description = _parse_session_description(d.pop("sessionDescription", UNSET))

        session_create_request = cls(
            configuration=configuration,
            delegate=delegate,
            session_description=session_description,
        )

        return session_create_request
