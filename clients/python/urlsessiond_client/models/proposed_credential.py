from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.credential_persistence import CredentialPersistence
from ..models.proposed_credential_kind import ProposedCredentialKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.identity_summary import IdentitySummary


T = TypeVar("T", bound="ProposedCredential")


@_attrs_define
class ProposedCredential:
    """A challenge's `proposedCredential`, the stored credential the default handling would use, without its secret.

    Attributes:
        kind (ProposedCredentialKind):
        user (None | str): Null for an identity.
        has_password (bool):
        persistence (CredentialPersistence): `URLCredential.Persistence`: `none`, used for one challenge answer only and
            never stored;
            `forSession`, kept in memory for the storage's life (the service's run for the tenant's shared
            storage, the session's for a private one); `permanent`, written to the store with the password
            sealed (AES-GCM with the service's key), outliving restarts (in memory only in an ephemeral
            session's storage); `synchronizable`, stored as `permanent` (there is no keychain to synchronise
            with).
        identity (IdentitySummary | Unset): What a stored identity shows of itself, its leaf certificate; never the key.
    """

    kind: ProposedCredentialKind
    user: None | str
    has_password: bool
    persistence: CredentialPersistence
    identity: IdentitySummary | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        user: None | str
        user = self.user

        has_password = self.has_password

        persistence = self.persistence.value

        identity: dict[str, Any] | Unset = UNSET
        if not isinstance(self.identity, Unset):
            identity = self.identity.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "user": user,
                "hasPassword": has_password,
                "persistence": persistence,
            }
        )
        if identity is not UNSET:
            field_dict["identity"] = identity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.identity_summary import IdentitySummary

        d = dict(src_dict)
        kind = ProposedCredentialKind(d.pop("kind"))

        def _parse_user(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user = _parse_user(d.pop("user"))

        has_password = d.pop("hasPassword")

        persistence = CredentialPersistence(d.pop("persistence"))

        _identity = d.pop("identity", UNSET)
        identity: IdentitySummary | Unset
        if isinstance(_identity, Unset):
            identity = UNSET
        else:
            identity = IdentitySummary.from_dict(_identity)

        proposed_credential = cls(
            kind=kind,
            user=user,
            has_password=has_password,
            persistence=persistence,
            identity=identity,
        )

        proposed_credential.additional_properties = d
        return proposed_credential

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
