from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="IdentitySummary")


@_attrs_define
class IdentitySummary:
    """What a stored identity shows of itself, its leaf certificate; never the key.

    Attributes:
        subject (str):
        issuer (str):
        sha256 (str): The SHA-256 of the leaf certificate
        not_valid_after (datetime.datetime):
    """

    subject: str
    issuer: str
    sha256: str
    not_valid_after: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        issuer = self.issuer

        sha256 = self.sha256

        not_valid_after = self.not_valid_after.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subject": subject,
                "issuer": issuer,
                "sha256": sha256,
                "notValidAfter": not_valid_after,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subject = d.pop("subject")

        issuer = d.pop("issuer")

        sha256 = d.pop("sha256")

        not_valid_after = datetime.datetime.fromisoformat(d.pop("notValidAfter"))

        identity_summary = cls(
            subject=subject,
            issuer=issuer,
            sha256=sha256,
            not_valid_after=not_valid_after,
        )

        identity_summary.additional_properties = d
        return identity_summary

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
