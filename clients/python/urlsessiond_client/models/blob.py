from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Blob")


@_attrs_define
class Blob:
    """A stored upload body.

    Attributes:
        id (str):
        size (int):
        digest (str): RFC 9530 sha-256 of the bytes.
        created_at (datetime.datetime):
    """

    id: str
    size: int
    digest: str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        size = self.size

        digest = self.digest

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "size": size,
                "digest": digest,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        size = d.pop("size")

        digest = d.pop("digest")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        blob = cls(
            id=id,
            size=size,
            digest=digest,
            created_at=created_at,
        )

        blob.additional_properties = d
        return blob

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
