from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeliveryFailure")


@_attrs_define
class DeliveryFailure:
    """A failed attempt to deliver to the delegate.

    Attributes:
        at (datetime.datetime):
        reason (str): `HTTP <status>` when the delegate answered, otherwise a short transport reason: `timed
            out`, `connection refused`, `host unreachable`, `could not connect`, `could not resolve
            host`, `TLS failure`, `empty reply`, `connection lost`, `invalid response`, `egress
            policy` (`URLSESSIOND_EGRESS_ALLOW` refuses the address) or `transport error (curl N)`.
            Never the URL, its query, headers or the secret.
    """

    at: datetime.datetime
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        reason = d.pop("reason")

        delivery_failure = cls(
            at=at,
            reason=reason,
        )

        delivery_failure.additional_properties = d
        return delivery_failure

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
