from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PrivateURLCacheConfiguration")


@_attrs_define
class PrivateURLCacheConfiguration:
    """`urlCache` of a session with a cache of its own, its capacities in bytes.

    Attributes:
        storage (Literal['private']):
        memory_capacity (int):
        disk_capacity (int):
    """

    storage: Literal["private"]
    memory_capacity: int
    disk_capacity: int

    def to_dict(self) -> dict[str, Any]:
        storage = self.storage

        memory_capacity = self.memory_capacity

        disk_capacity = self.disk_capacity

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "storage": storage,
                "memoryCapacity": memory_capacity,
                "diskCapacity": disk_capacity,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        storage = cast(Literal["private"], d.pop("storage"))
        if storage != "private":
            raise ValueError(f"storage must match const 'private', got '{storage}'")

        memory_capacity = d.pop("memoryCapacity")

        disk_capacity = d.pop("diskCapacity")

        private_url_cache_configuration = cls(
            storage=storage,
            memory_capacity=memory_capacity,
            disk_capacity=disk_capacity,
        )

        return private_url_cache_configuration
