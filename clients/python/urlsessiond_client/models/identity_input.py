from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="IdentityInput")


@_attrs_define
class IdentityInput:
    """A client identity (`URLCredential(identity:certificates:persistence:)`): a PEM certificate chain
    (the leaf first) and its PEM private key, or a PKCS#12 bundle (`.p12`, `.pfx`) in base64 — never
    both — each with an optional `passphrase` (of the encrypted key, or of the bundle). Checked with
    OpenSSL: a bundle that does not open is a 422 naming `….pkcs12`; a key that does not open or is
    not the first certificate's, a 422 naming `….privateKey`. Sealed at rest (a bundle is kept as PEM,
    without its passphrase); never returned nor logged. One of the two forms (`x-rules`).

        Attributes:
            certificate_chain (str | Unset): PEM certificates, the leaf first.
            private_key (str | Unset): A PEM private key (encrypted when `passphrase` is given).
            pkcs12 (str | Unset): A PKCS#12 bundle, base64 (at most 96 KiB decoded).
            passphrase (None | str | Unset):
    """

    certificate_chain: str | Unset = UNSET
    private_key: str | Unset = UNSET
    pkcs12: str | Unset = UNSET
    passphrase: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        certificate_chain = self.certificate_chain

        private_key = self.private_key

        pkcs12 = self.pkcs12

        passphrase: None | str | Unset
        if isinstance(self.passphrase, Unset):
            passphrase = UNSET
        else:
            passphrase = self.passphrase

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if certificate_chain is not UNSET:
            field_dict["certificateChain"] = certificate_chain
        if private_key is not UNSET:
            field_dict["privateKey"] = private_key
        if pkcs12 is not UNSET:
            field_dict["pkcs12"] = pkcs12
        if passphrase is not UNSET:
            field_dict["passphrase"] = passphrase

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        certificate_chain = d.pop("certificateChain", UNSET)

        private_key = d.pop("privateKey", UNSET)

        pkcs12 = d.pop("pkcs12", UNSET)

        def _parse_passphrase(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        passphrase = _parse_passphrase(d.pop("passphrase", UNSET))

        identity_input = cls(
            certificate_chain=certificate_chain,
            private_key=private_key,
            pkcs12=pkcs12,
            passphrase=passphrase,
        )

        return identity_input
