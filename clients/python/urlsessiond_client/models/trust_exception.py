from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TrustException")


@_attrs_define
class TrustException:
    """A server-trust exception, "trust this certificate (or this key) for this host": the SHA-256 of
    the leaf certificate (`certificateSha256`, 64 hex digits, colons allowed; shown lowercase without
    colons) and/or of its public key (`spkiSha256`, the base64 of 32 bytes as libcurl's pins write it;
    a `sha256//` prefix is accepted and dropped). At least one is required; a leaf matching either is
    accepted. Not secret: shown as given (normalised). At least one of the two (`x-rules`).

        Attributes:
            certificate_sha_256 (None | str | Unset):
            spki_sha_256 (None | str | Unset):
    """

    certificate_sha_256: None | str | Unset = UNSET
    spki_sha_256: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        certificate_sha_256: None | str | Unset
        if isinstance(self.certificate_sha_256, Unset):
            certificate_sha_256 = UNSET
        else:
            certificate_sha_256 = self.certificate_sha_256

        spki_sha_256: None | str | Unset
        if isinstance(self.spki_sha_256, Unset):
            spki_sha_256 = UNSET
        else:
            spki_sha_256 = self.spki_sha_256

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if certificate_sha_256 is not UNSET:
            field_dict["certificateSha256"] = certificate_sha_256
        if spki_sha_256 is not UNSET:
            field_dict["spkiSha256"] = spki_sha_256

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_certificate_sha_256(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        certificate_sha_256 = _parse_certificate_sha_256(d.pop("certificateSha256", UNSET))

        def _parse_spki_sha_256(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        spki_sha_256 = _parse_spki_sha_256(d.pop("spkiSha256", UNSET))

        trust_exception = cls(
            certificate_sha_256=certificate_sha_256,
            spki_sha_256=spki_sha_256,
        )

        return trust_exception
