from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.url_cache_storage_policy import URLCacheStoragePolicy
from ..types import UNSET, Unset

T = TypeVar("T", bound="CacheDecision")


@_attrs_define
class CacheDecision:
    """`dataTask.willCacheResponse`: the `URLCache.StoragePolicy` to store the response with
    (`notAllowed`: not stored; `allowed` for a response that fits no disk tier keeps it in memory),
    and optionally `userInfo` (any JSON), stored with the entry and shown by
    `GET /v1/sessions/{id}/cache/entry` (the modified `CachedURLResponse`). A malformed answer, no
    answer or a non-2xx one stores the proposed response as it is.

        Attributes:
            disposition (URLCacheStoragePolicy): `URLCache.StoragePolicy`: `allowed` (memory and disk),
                `allowedInMemoryOnly`, `notAllowed`.
            user_info (Any | Unset): Any JSON value, stored with the cached response; null or absent is none.
    """

    disposition: URLCacheStoragePolicy
    user_info: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        disposition = self.disposition.value

        user_info = self.user_info

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "disposition": disposition,
            }
        )
        if user_info is not UNSET:
            field_dict["userInfo"] = user_info

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        disposition = URLCacheStoragePolicy(d.pop("disposition"))

        user_info = d.pop("userInfo", UNSET)

        cache_decision = cls(
            disposition=disposition,
            user_info=user_info,
        )

        return cache_decision
