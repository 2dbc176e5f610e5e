from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.credential_persistence import CredentialPersistence
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.identity_input import IdentityInput


T = TypeVar("T", bound="ChallengeDecisionCredential")


@_attrs_define
class ChallengeDecisionCredential:
    """`{user, password}`, `{identity}` or `{serverTrust: true}`, with an optional `persistence`. A user or password
    holding NUL (U+0000) cannot be sent (libcurl takes C strings): the default handling follows.

        Attributes:
            user (str | Unset):
            password (str | Unset):
            identity (IdentityInput | Unset): A client identity (`URLCredential(identity:certificates:persistence:)`): a PEM
                certificate chain
                (the leaf first) and its PEM private key, or a PKCS#12 bundle (`.p12`, `.pfx`) in base64 — never
                both — each with an optional `passphrase` (of the encrypted key, or of the bundle). Checked with
                OpenSSL: a bundle that does not open is a 422 naming `….pkcs12`; a key that does not open or is
                not the first certificate's, a 422 naming `….privateKey`. Sealed at rest (a bundle is kept as PEM,
                without its passphrase); never returned nor logged. One of the two forms (`x-rules`).
            server_trust (bool | Unset): True: accept the chain shown (`URLCredential(trust:)`).
            persistence (CredentialPersistence | Unset): `URLCredential.Persistence`: `none`, used for one challenge answer
                only and never stored;
                `forSession`, kept in memory for the storage's life (the service's run for the tenant's shared
                storage, the session's for a private one); `permanent`, written to the store with the password
                sealed (AES-GCM with the service's key), outliving restarts (in memory only in an ephemeral
                session's storage); `synchronizable`, stored as `permanent` (there is no keychain to synchronise
                with).
    """

    user: str | Unset = UNSET
    password: str | Unset = UNSET
    identity: IdentityInput | Unset = UNSET
    server_trust: bool | Unset = UNSET
    persistence: CredentialPersistence | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        user = self.user

        password = self.password

        identity: dict[str, Any] | Unset = UNSET
        if not isinstance(self.identity, Unset):
            identity = self.identity.to_dict()

        server_trust = self.server_trust

        persistence: str | Unset = UNSET
        if not isinstance(self.persistence, Unset):
            persistence = self.persistence.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if user is not UNSET:
            field_dict["user"] = user
        if password is not UNSET:
            field_dict["password"] = password
        if identity is not UNSET:
            field_dict["identity"] = identity
        if server_trust is not UNSET:
            field_dict["serverTrust"] = server_trust
        if persistence is not UNSET:
            field_dict["persistence"] = persistence

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.identity_input import IdentityInput

        d = dict(src_dict)
        user = d.pop("user", UNSET)

        password = d.pop("password", UNSET)

        _identity = d.pop("identity", UNSET)
        identity: IdentityInput | Unset
        if isinstance(_identity, Unset):
            identity = UNSET
        else:
            identity = IdentityInput.from_dict(_identity)

        server_trust = d.pop("serverTrust", UNSET)

        _persistence = d.pop("persistence", UNSET)
        persistence: CredentialPersistence | Unset
        if isinstance(_persistence, Unset):
            persistence = UNSET
        else:
            persistence = CredentialPersistence(_persistence)

        challenge_decision_credential = cls(
            user=user,
            password=password,
            identity=identity,
            server_trust=server_trust,
            persistence=persistence,
        )

        return challenge_decision_credential
