from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.protection_space_authentication_method import ProtectionSpaceAuthenticationMethod
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProtectionSpace")


@_attrs_define
class ProtectionSpace:
    """A `URLProtectionSpace` as `POST /v1/credentials` takes it: a server (or, with `isProxy`, a proxy)
    and how it authenticates. A credential stored for a space answers a challenge of the same host
    (without case), port, protocol and proxy-ness whose method is the space's
    (`NSURLAuthenticationMethodDefault` covers `…HTTPBasic` and `…HTTPDigest`) and whose realm is the
    space's (a space without `realm` covers any realm; one that names the challenge's realm is
    preferred). HTTP Basic, Digest and NTLM challenges (of servers and proxies) are met; client
    identities (`NSURLAuthenticationMethodClientCertificate`, https only) are presented to the server
    of their host and port when it asks for a client certificate; trust exceptions
    (`NSURLAuthenticationMethodServerTrust`, https only) accept the server of their host and port
    whose leaf certificate they name.

        Attributes:
            host (str): A host name or address, without `/`, space or `@`; kept lowercased.
            port (int):
            protocol (str): `http` or `https` in any case (kept lowercased): the scheme of the server, or of the proxy when
                `isProxy`.
            authentication_method (ProtectionSpaceAuthenticationMethod): The `NSURLAuthenticationMethod*` constant: one a
                user and password answer,
                `NSURLAuthenticationMethodClientCertificate` for a client identity, or
                `NSURLAuthenticationMethodServerTrust` for a trust exception.
            realm (None | str | Unset): The challenge's realm; null or absent matches any realm.
            is_proxy (bool | None | Unset): A proxy's space rather than a server's; null or absent is false. Default: False.
    """

    host: str
    port: int
    protocol: str
    authentication_method: ProtectionSpaceAuthenticationMethod
    realm: None | str | Unset = UNSET
    is_proxy: bool | None | Unset = False

    def to_dict(self) -> dict[str, Any]:
        host = self.host

        port = self.port

        protocol = self.protocol

        authentication_method = self.authentication_method.value

        realm: None | str | Unset
        if isinstance(self.realm, Unset):
            realm = UNSET
        else:
            realm = self.realm

        is_proxy: bool | None | Unset
        if isinstance(self.is_proxy, Unset):
            is_proxy = UNSET
        else:
            is_proxy = self.is_proxy

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "host": host,
                "port": port,
                "protocol": protocol,
                "authenticationMethod": authentication_method,
            }
        )
        if realm is not UNSET:
            field_dict["realm"] = realm
        if is_proxy is not UNSET:
            field_dict["isProxy"] = is_proxy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        host = d.pop("host")

        port = d.pop("port")

        protocol = d.pop("protocol")

        authentication_method = ProtectionSpaceAuthenticationMethod(d.pop("authenticationMethod"))

        def _parse_realm(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        realm = _parse_realm(d.pop("realm", UNSET))

        def _parse_is_proxy(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_proxy = _parse_is_proxy(d.pop("isProxy", UNSET))

        protection_space = cls(
            host=host,
            port=port,
            protocol=protocol,
            authentication_method=authentication_method,
            realm=realm,
            is_proxy=is_proxy,
        )

        return protection_space
