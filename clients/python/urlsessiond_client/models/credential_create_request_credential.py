from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.credential_persistence import CredentialPersistence
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.identity_input import IdentityInput
    from ..models.trust_exception import TrustException


T = TypeVar("T", bound="CredentialCreateRequestCredential")


@_attrs_define
class CredentialCreateRequestCredential:
    """`URLCredential(user:password:persistence:)` — `user` and `password` —; for a space of
    `NSURLAuthenticationMethodClientCertificate` (https only), `URLCredential(identity:…)` —
    `identity` —; for `NSURLAuthenticationMethodServerTrust` (https only), a trust exception —
    `serverTrust` —; each with nothing of the other kinds (422 naming `credential`,
    `credential.identity`, `credential.serverTrust` or the field).

        Attributes:
            user (str | Unset):
            password (str | Unset): Sealed at rest; never returned nor logged.
            identity (IdentityInput | Unset): A client identity (`URLCredential(identity:certificates:persistence:)`): a PEM
                certificate chain
                (the leaf first) and its PEM private key, or a PKCS#12 bundle (`.p12`, `.pfx`) in base64 — never
                both — each with an optional `passphrase` (of the encrypted key, or of the bundle). Checked with
                OpenSSL: a bundle that does not open is a 422 naming `….pkcs12`; a key that does not open or is
                not the first certificate's, a 422 naming `….privateKey`. Sealed at rest (a bundle is kept as PEM,
                without its passphrase); never returned nor logged. One of the two forms (`x-rules`).
            server_trust (TrustException | Unset): A server-trust exception, "trust this certificate (or this key) for this
                host": the SHA-256 of
                the leaf certificate (`certificateSha256`, 64 hex digits, colons allowed; shown lowercase without
                colons) and/or of its public key (`spkiSha256`, the base64 of 32 bytes as libcurl's pins write it;
                a `sha256//` prefix is accepted and dropped). At least one is required; a leaf matching either is
                accepted. Not secret: shown as given (normalised). At least one of the two (`x-rules`).
            persistence (CredentialPersistence | None | Unset): A `CredentialPersistence` other than `none` (422: a `none`
                credential is only for a
                challenge answer); `synchronizable` is stored as `permanent`. Null or absent: `permanent`.
                 Default: CredentialPersistence.PERMANENT.
    """

    user: str | Unset = UNSET
    password: str | Unset = UNSET
    identity: IdentityInput | Unset = UNSET
    server_trust: TrustException | Unset = UNSET
    persistence: CredentialPersistence | None | Unset = CredentialPersistence.PERMANENT

    def to_dict(self) -> dict[str, Any]:
        user = self.user

        password = self.password

        identity: dict[str, Any] | Unset = UNSET
        if not isinstance(self.identity, Unset):
            identity = self.identity.to_dict()

        server_trust: dict[str, Any] | Unset = UNSET
        if not isinstance(self.server_trust, Unset):
            server_trust = self.server_trust.to_dict()

        persistence: None | str | Unset
        if isinstance(self.persistence, Unset):
            persistence = UNSET
        elif isinstance(self.persistence, CredentialPersistence):
            persistence = self.persistence.value
        else:
            persistence = self.persistence

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
        from ..models.trust_exception import TrustException

        d = dict(src_dict)
        user = d.pop("user", UNSET)

        password = d.pop("password", UNSET)

        _identity = d.pop("identity", UNSET)
        identity: IdentityInput | Unset
        if isinstance(_identity, Unset):
            identity = UNSET
        else:
            identity = IdentityInput.from_dict(_identity)

        _server_trust = d.pop("serverTrust", UNSET)
        server_trust: TrustException | Unset
        if isinstance(_server_trust, Unset):
            server_trust = UNSET
        else:
            server_trust = TrustException.from_dict(_server_trust)

        def _parse_persistence(data: object) -> CredentialPersistence | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                persistence_type_0 = CredentialPersistence(data)

                return persistence_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CredentialPersistence | None | Unset, data)

        persistence = _parse_persistence(d.pop("persistence", UNSET))

        credential_create_request_credential = cls(
            user=user,
            password=password,
            identity=identity,
            server_trust=server_trust,
            persistence=persistence,
        )

        return credential_create_request_credential
