from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SharedURLCacheConfiguration")


@_attrs_define
class SharedURLCacheConfiguration:
    """`urlCache` of a session on the tenant's shared cache (`URLCache.shared`).

    Attributes:
        storage (Literal['shared']):
    """

    storage: Literal["shared"]

    def to_dict(self) -> dict[str, Any]:
        storage = self.storage

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "storage": storage,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        storage = cast(Literal["shared"], d.pop("storage"))
        if storage != "shared":
            raise ValueError(f"storage must match const 'shared', got '{storage}'")

        shared_url_cache_configuration = cls(
            storage=storage,
        )

        return shared_url_cache_configuration
