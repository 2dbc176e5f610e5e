from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.authentication_challenge_protection_space_authentication_method import (
    AuthenticationChallengeProtectionSpaceAuthenticationMethod,
)
from ..models.authentication_challenge_protection_space_protocol import AuthenticationChallengeProtectionSpaceProtocol

T = TypeVar("T", bound="AuthenticationChallengeProtectionSpace")


@_attrs_define
class AuthenticationChallengeProtectionSpace:
    """
    Attributes:
        host (str):
        port (int):
        protocol (AuthenticationChallengeProtectionSpaceProtocol):
        realm (None | str):
        authentication_method (AuthenticationChallengeProtectionSpaceAuthenticationMethod):
        is_proxy (bool):
    """

    host: str
    port: int
    protocol: AuthenticationChallengeProtectionSpaceProtocol
    realm: None | str
    authentication_method: AuthenticationChallengeProtectionSpaceAuthenticationMethod
    is_proxy: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        host = self.host

        port = self.port

        protocol = self.protocol.value

        realm: None | str
        realm = self.realm

        authentication_method = self.authentication_method.value

        is_proxy = self.is_proxy

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "host": host,
                "port": port,
                "protocol": protocol,
                "realm": realm,
                "authenticationMethod": authentication_method,
                "isProxy": is_proxy,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        host = d.pop("host")

        port = d.pop("port")

        protocol = AuthenticationChallengeProtectionSpaceProtocol(d.pop("protocol"))

        def _parse_realm(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        realm = _parse_realm(d.pop("realm"))

        authentication_method = AuthenticationChallengeProtectionSpaceAuthenticationMethod(
            d.pop("authenticationMethod")
        )

        is_proxy = d.pop("isProxy")

        authentication_challenge_protection_space = cls(
            host=host,
            port=port,
            protocol=protocol,
            realm=realm,
            authentication_method=authentication_method,
            is_proxy=is_proxy,
        )

        authentication_challenge_protection_space.additional_properties = d
        return authentication_challenge_protection_space

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
