from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.url_cache_configuration_input_storage_type_1 import URLCacheConfigurationInputStorageType1
from ..models.url_cache_configuration_input_storage_type_2_type_1 import URLCacheConfigurationInputStorageType2Type1
from ..models.url_cache_configuration_input_storage_type_3_type_1 import URLCacheConfigurationInputStorageType3Type1
from ..types import UNSET, Unset

T = TypeVar("T", bound="URLCacheConfigurationInput")


@_attrs_define
class URLCacheConfigurationInput:
    """`urlCache` as a client sends it: `{"storage": "shared"}`, the tenant's shared cache
    (`URLCache.shared`), whose capacities are the service's (`URLSESSIOND_SHARED_CACHE_MEMORY`, default
    512000, and `URLSESSIOND_SHARED_CACHE_DISK`, default 10000000): giving `memoryCapacity` or
    `diskCapacity` with it is 422 naming that field, and ephemeral sessions may not use it (422
    `field: configuration.urlCache.storage`). Or `{"storage": "private", "memoryCapacity": n,
    "diskCapacity": n}`, a cache of the session's own (`URLCache(memoryCapacity:diskCapacity:)`);
    `storage` absent or null means `private`, and the capacities default to 512000 and 10000000
    (ephemeral sessions: 512000 and 0; a non-zero `diskCapacity` is 422). `storage: none` is 422:
    `urlCache: null` is the session without a cache.

        Attributes:
            storage (None | Unset | URLCacheConfigurationInputStorageType1 | URLCacheConfigurationInputStorageType2Type1 |
                URLCacheConfigurationInputStorageType3Type1):  Default: URLCacheConfigurationInputStorageType1.PRIVATE.
            memory_capacity (int | None | Unset):
            disk_capacity (int | None | Unset):
    """

    storage: (
        None
        | Unset
        | URLCacheConfigurationInputStorageType1
        | URLCacheConfigurationInputStorageType2Type1
        | URLCacheConfigurationInputStorageType3Type1
    ) = URLCacheConfigurationInputStorageType1.PRIVATE
    memory_capacity: int | None | Unset = UNSET
    disk_capacity: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        storage: None | str | Unset
        if isinstance(self.storage, Unset):
            storage = UNSET
        elif (
            isinstance(self.storage, URLCacheConfigurationInputStorageType1)
            or isinstance(self.storage, URLCacheConfigurationInputStorageType2Type1)
            or isinstance(self.storage, URLCacheConfigurationInputStorageType3Type1)
        ):
            storage = self.storage.value
        else:
            storage = self.storage

        memory_capacity: int | None | Unset
        if isinstance(self.memory_capacity, Unset):
            memory_capacity = UNSET
        else:
            memory_capacity = self.memory_capacity

        disk_capacity: int | None | Unset
        if isinstance(self.disk_capacity, Unset):
            disk_capacity = UNSET
        else:
            disk_capacity = self.disk_capacity

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if storage is not UNSET:
            field_dict["storage"] = storage
        if memory_capacity is not UNSET:
            field_dict["memoryCapacity"] = memory_capacity
        if disk_capacity is not UNSET:
            field_dict["diskCapacity"] = disk_capacity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_storage(
            data: object,
        ) -> (
            None
            | Unset
            | URLCacheConfigurationInputStorageType1
            | URLCacheConfigurationInputStorageType2Type1
            | URLCacheConfigurationInputStorageType3Type1
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                storage_type_1 = URLCacheConfigurationInputStorageType1(data)

                return storage_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                storage_type_2_type_1 = URLCacheConfigurationInputStorageType2Type1(data)

                return storage_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                storage_type_3_type_1 = URLCacheConfigurationInputStorageType3Type1(data)

                return storage_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | Unset
                | URLCacheConfigurationInputStorageType1
                | URLCacheConfigurationInputStorageType2Type1
                | URLCacheConfigurationInputStorageType3Type1,
                data,
            )

        storage = _parse_storage(d.pop("storage", UNSET))

        def _parse_memory_capacity(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        memory_capacity = _parse_memory_capacity(d.pop("memoryCapacity", UNSET))

        def _parse_disk_capacity(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        disk_capacity = _parse_disk_capacity(d.pop("diskCapacity", UNSET))

        url_cache_configuration_input = cls(
            storage=storage,
            memory_capacity=memory_capacity,
            disk_capacity=disk_capacity,
        )

        return url_cache_configuration_input
