from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BlobUploadSource")


@_attrs_define
class BlobUploadSource:
    """`uploadTask(with:fromFile:)`: the body is a stored blob.

    Attributes:
        blob (str): A blob id of the tenant (unknown ids answer 404 with `field: uploadSource.blob`).
    """

    blob: str

    def to_dict(self) -> dict[str, Any]:
        blob = self.blob

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "blob": blob,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        blob = d.pop("blob")

        blob_upload_source = cls(
            blob=blob,
        )

        return blob_upload_source
