from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.credential_create_request_credential import CredentialCreateRequestCredential
    from ..models.protection_space import ProtectionSpace


T = TypeVar("T", bound="CredentialCreateRequest")


@_attrs_define
class CredentialCreateRequest:
    """The body of `POST /v1/credentials`.

    Attributes:
        protection_space (ProtectionSpace): A `URLProtectionSpace` as `POST /v1/credentials` takes it: a server (or,
            with `isProxy`, a proxy)
            and how it authenticates. A credential stored for a space answers a challenge of the same host
            (without case), port, protocol and proxy-ness whose method is the space's
            (`NSURLAuthenticationMethodDefault` covers `…HTTPBasic` and `…HTTPDigest`) and whose realm is the
            space's (a space without `realm` covers any realm; one that names the challenge's realm is
            preferred). HTTP Basic, Digest and NTLM challenges (of servers and proxies) are met; client
            identities (`NSURLAuthenticationMethodClientCertificate`, https only) are presented to the server
            of their host and port when it asks for a client certificate; trust exceptions
            (`NSURLAuthenticationMethodServerTrust`, https only) accept the server of their host and port
            whose leaf certificate they name.
        credential (CredentialCreateRequestCredential): `URLCredential(user:password:persistence:)` — `user` and
            `password` —; for a space of
            `NSURLAuthenticationMethodClientCertificate` (https only), `URLCredential(identity:…)` —
            `identity` —; for `NSURLAuthenticationMethodServerTrust` (https only), a trust exception —
            `serverTrust` —; each with nothing of the other kinds (422 naming `credential`,
            `credential.identity`, `credential.serverTrust` or the field).
        session_id (None | str | Unset): Store in this session's private storage (its `urlCredentialStorage` must be
            `private`, else
            422); null or absent is the tenant's shared storage. Another tenant's or an unknown session: 404.
        is_default (bool | None | Unset): Make it the default credential of its protection space
            (`setDefaultCredential(_:for:)`). A
            credential is also the default when its space has none yet. Null or absent is false.
             Default: False.
    """

    protection_space: ProtectionSpace
    credential: CredentialCreateRequestCredential
    session_id: None | str | Unset = UNSET
    is_default: bool | None | Unset = False

    def to_dict(self) -> dict[str, Any]:
        protection_space = self.protection_space.to_dict()

        credential = self.credential.to_dict()

        session_id: None | str | Unset
        if isinstance(self.session_id, Unset):
            session_id = UNSET
        else:
            session_id = self.session_id

        is_default: bool | None | Unset
        if isinstance(self.is_default, Unset):
            is_default = UNSET
        else:
            is_default = self.is_default

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "protectionSpace": protection_space,
                "credential": credential,
            }
        )
        if session_id is not UNSET:
            field_dict["sessionId"] = session_id
        if is_default is not UNSET:
            field_dict["isDefault"] = is_default

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.credential_create_request_credential import CredentialCreateRequestCredential
        from ..models.protection_space import ProtectionSpace

        d = dict(src_dict)
        protection_space = ProtectionSpace.from_dict(d.pop("protectionSpace"))

        credential = CredentialCreateRequestCredential.from_dict(d.pop("credential"))

        def _parse_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_id = _parse_session_id(d.pop("sessionId", UNSET))

        def _parse_is_default(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_default = _parse_is_default(d.pop("isDefault", UNSET))

        credential_create_request = cls(
            protection_space=protection_space,
            credential=credential,
            session_id=session_id,
            is_default=is_default,
        )

        return credential_create_request
