from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DefaultCredentialRequest")


@_attrs_define
class DefaultCredentialRequest:
    """The body of `PUT /v1/credentials/default`.

    Attributes:
        id (str): The stored credential to make the default of its protection space.
    """

    id: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        default_credential_request = cls(
            id=id,
        )

        return default_credential_request
