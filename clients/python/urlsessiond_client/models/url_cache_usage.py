from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.storage_scope import StorageScope

T = TypeVar("T", bound="URLCacheUsage")


@_attrs_define
class URLCacheUsage:
    """The `URLCache` a session uses: `storage` (`shared`: the tenant's, with the service's capacities
    `URLSESSIOND_SHARED_CACHE_MEMORY` / `URLSESSIOND_SHARED_CACHE_DISK`; `private`: the session's own;
    `none`: no cache, every number 0), `memoryCapacity` / `diskCapacity` and `currentMemoryUsage` /
    `currentDiskUsage` in bytes (as `URLCache`'s properties), and `entryCount`, the responses it holds.

        Attributes:
            storage (StorageScope): Which storage holds the session's cookies or credentials (or, in `URLCacheUsage`, which
                URL cache
                it uses): `shared`, the tenant's persistent one (`HTTPCookieStorage.shared`,
                `URLCredentialStorage.shared`, `URLCache.shared`); `private`, one of this session only (what an
                ephemeral configuration gets), gone when the session is invalidated, and kept in memory only for
                an ephemeral session (otherwise a private URL cache has a disk tier and a private credential
                storage keeps its `permanent` credentials in the store); `none`, no storage (the configuration's
                property set to nil).
            memory_capacity (int):
            disk_capacity (int):
            current_memory_usage (int):
            current_disk_usage (int):
            entry_count (int):
    """

    storage: StorageScope
    memory_capacity: int
    disk_capacity: int
    current_memory_usage: int
    current_disk_usage: int
    entry_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        storage = self.storage.value

        memory_capacity = self.memory_capacity

        disk_capacity = self.disk_capacity

        current_memory_usage = self.current_memory_usage

        current_disk_usage = self.current_disk_usage

        entry_count = self.entry_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "storage": storage,
                "memoryCapacity": memory_capacity,
                "diskCapacity": disk_capacity,
                "currentMemoryUsage": current_memory_usage,
                "currentDiskUsage": current_disk_usage,
                "entryCount": entry_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        storage = StorageScope(d.pop("storage"))

        memory_capacity = d.pop("memoryCapacity")

        disk_capacity = d.pop("diskCapacity")

        current_memory_usage = d.pop("currentMemoryUsage")

        current_disk_usage = d.pop("currentDiskUsage")

        entry_count = d.pop("entryCount")

        url_cache_usage = cls(
            storage=storage,
            memory_capacity=memory_capacity,
            disk_capacity=disk_capacity,
            current_memory_usage=current_memory_usage,
            current_disk_usage=current_disk_usage,
            entry_count=entry_count,
        )

        url_cache_usage.additional_properties = d
        return url_cache_usage

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
