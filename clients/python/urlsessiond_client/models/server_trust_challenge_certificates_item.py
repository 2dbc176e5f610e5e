from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ServerTrustChallengeCertificatesItem")


@_attrs_define
class ServerTrustChallengeCertificatesItem:
    """
    Attributes:
        subject (str):
        issuer (str):
        serial_number (str): Hex.
        not_valid_before (datetime.datetime):
        not_valid_after (datetime.datetime):
        sha256 (str): SHA-256 of the certificate, hex (a `TrustException.certificateSha256`).
        spki_sha_256 (str): SHA-256 of its public key, base64 (a pin, a `TrustException.spkiSha256`).
        subject_alternative_names (list[str]):
        pem (str):
    """

    subject: str
    issuer: str
    serial_number: str
    not_valid_before: datetime.datetime
    not_valid_after: datetime.datetime
    sha256: str
    spki_sha_256: str
    subject_alternative_names: list[str]
    pem: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        issuer = self.issuer

        serial_number = self.serial_number

        not_valid_before = self.not_valid_before.isoformat()

        not_valid_after = self.not_valid_after.isoformat()

        sha256 = self.sha256

        spki_sha_256 = self.spki_sha_256

        subject_alternative_names = self.subject_alternative_names

        pem = self.pem

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subject": subject,
                "issuer": issuer,
                "serialNumber": serial_number,
                "notValidBefore": not_valid_before,
                "notValidAfter": not_valid_after,
                "sha256": sha256,
                "spkiSha256": spki_sha_256,
                "subjectAlternativeNames": subject_alternative_names,
                "pem": pem,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subject = d.pop("subject")

        issuer = d.pop("issuer")

        serial_number = d.pop("serialNumber")

        not_valid_before = datetime.datetime.fromisoformat(d.pop("notValidBefore"))

        not_valid_after = datetime.datetime.fromisoformat(d.pop("notValidAfter"))

        sha256 = d.pop("sha256")

        spki_sha_256 = d.pop("spkiSha256")

        subject_alternative_names = cast(list[str], d.pop("subjectAlternativeNames"))

        pem = d.pop("pem")

        server_trust_challenge_certificates_item = cls(
            subject=subject,
            issuer=issuer,
            serial_number=serial_number,
            not_valid_before=not_valid_before,
            not_valid_after=not_valid_after,
            sha256=sha256,
            spki_sha_256=spki_sha_256,
            subject_alternative_names=subject_alternative_names,
            pem=pem,
        )

        server_trust_challenge_certificates_item.additional_properties = d
        return server_trust_challenge_certificates_item

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
