from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.credential_kind import CredentialKind
from ..models.credential_persistence import CredentialPersistence
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.identity_summary import IdentitySummary
    from ..models.stored_protection_space import StoredProtectionSpace
    from ..models.trust_exception import TrustException


T = TypeVar("T", bound="Credential")


@_attrs_define
class Credential:
    """A stored credential (`URLCredential` with its protection space), never its password.

    Example:
        {'id': 'crd_0123456789ABCDEFGHIJKL', 'protectionSpace': {'host': 'origin.example', 'port': 443, 'protocol':
            'https', 'realm': 'exports', 'authenticationMethod': 'NSURLAuthenticationMethodHTTPBasic', 'isProxy': False},
            'kind': 'password', 'user': 'nightly', 'hasPassword': True, 'persistence': 'permanent', 'sessionId': None,
            'isDefault': True, 'createdAt': '2026-11-22T03:16:52.123Z'}

    Attributes:
        id (str):
        protection_space (StoredProtectionSpace): A `ProtectionSpace` as stored and shown, every field present (host and
            protocol lowercased).
        kind (CredentialKind): `password`: a user and password; `identity`: a client certificate and its key;
            `serverTrust`: a trust exception.
        user (None | str): The user of a `password` credential; null for the other kinds.
        has_password (bool): Whether the password is not empty (`hasPassword`); for an identity, whether its key is kept
            encrypted with a passphrase; false for a trust exception.
        persistence (CredentialPersistence): `URLCredential.Persistence`: `none`, used for one challenge answer only and
            never stored;
            `forSession`, kept in memory for the storage's life (the service's run for the tenant's shared
            storage, the session's for a private one); `permanent`, written to the store with the password
            sealed (AES-GCM with the service's key), outliving restarts (in memory only in an ephemeral
            session's storage); `synchronizable`, stored as `permanent` (there is no keychain to synchronise
            with).
        session_id (None | str): The session whose private storage holds it; null for the tenant's shared storage.
        is_default (bool): The default credential of its protection space (`defaultCredential(for:)`).
        created_at (datetime.datetime):
        identity (IdentitySummary | Unset): What a stored identity shows of itself, its leaf certificate; never the key.
        server_trust (TrustException | Unset): A server-trust exception, "trust this certificate (or this key) for this
            host": the SHA-256 of
            the leaf certificate (`certificateSha256`, 64 hex digits, colons allowed; shown lowercase without
            colons) and/or of its public key (`spkiSha256`, the base64 of 32 bytes as libcurl's pins write it;
            a `sha256//` prefix is accepted and dropped). At least one is required; a leaf matching either is
            accepted. Not secret: shown as given (normalised). At least one of the two (`x-rules`).
    """

    id: str
    protection_space: StoredProtectionSpace
    kind: CredentialKind
    user: None | str
    has_password: bool
    persistence: CredentialPersistence
    session_id: None | str
    is_default: bool
    created_at: datetime.datetime
    identity: IdentitySummary | Unset = UNSET
    server_trust: TrustException | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        protection_space = self.protection_space.to_dict()

        kind = self.kind.value

        user: None | str
        user = self.user

        has_password = self.has_password

        persistence = self.persistence.value

        session_id: None | str
        session_id = self.session_id

        is_default = self.is_default

        created_at = self.created_at.isoformat()

        identity: dict[str, Any] | Unset = UNSET
        if not isinstance(self.identity, Unset):
            identity = self.identity.to_dict()

        server_trust: dict[str, Any] | Unset = UNSET
        if not isinstance(self.server_trust, Unset):
            server_trust = self.server_trust.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "protectionSpace": protection_space,
                "kind": kind,
                "user": user,
                "hasPassword": has_password,
                "persistence": persistence,
                "sessionId": session_id,
                "isDefault": is_default,
                "createdAt": created_at,
            }
        )
        if identity is not UNSET:
            field_dict["identity"] = identity
        if server_trust is not UNSET:
            field_dict["serverTrust"] = server_trust

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.identity_summary import IdentitySummary
        from ..models.stored_protection_space import StoredProtectionSpace
        from ..models.trust_exception import TrustException

        d = dict(src_dict)
        id = d.pop("id")

        protection_space = StoredProtectionSpace.from_dict(d.pop("protectionSpace"))

        kind = CredentialKind(d.pop("kind"))

        def _parse_user(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user = _parse_user(d.pop("user"))

        has_password = d.pop("hasPassword")

        persistence = CredentialPersistence(d.pop("persistence"))

        def _parse_session_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        session_id = _parse_session_id(d.pop("sessionId"))

        is_default = d.pop("isDefault")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        _identity = d.pop("identity", UNSET)
        identity: IdentitySummary | Unset
        if isinstance(_identity, Unset):
            identity = UNSET
        else:
            identity = IdentitySummary.from_dict(_identity)

        _server_trust = d.pop("serverTrust", UNSET)
        server_trust: TrustException | Unset
        if isinstance(_server_trust, Unset):
            server_trust = UNSET
        else:
            server_trust = TrustException.from_dict(_server_trust)

        credential = cls(
            id=id,
            protection_space=protection_space,
            kind=kind,
            user=user,
            has_password=has_password,
            persistence=persistence,
            session_id=session_id,
            is_default=is_default,
            created_at=created_at,
            identity=identity,
            server_trust=server_trust,
        )

        credential.additional_properties = d
        return credential

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
