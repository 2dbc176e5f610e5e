from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.url_cache_storage_policy import URLCacheStoragePolicy

if TYPE_CHECKING:
    from ..models.response import Response


T = TypeVar("T", bound="CachedResponse")


@_attrs_define
class CachedResponse:
    """A `CachedURLResponse`: `GET /v1/sessions/{id}/cache/entry`, and the `proposedResponse` of
    `dataTask.willCacheResponse`. A stored entry's `storagePolicy` is `allowed` when it is on disk,
    else `allowedInMemoryOnly`; a proposal's is `allowed` when the response fits the disk tier (its
    size, and a URL of at most 2048 bytes), else
    `allowedInMemoryOnly`. `data` is the body as base64 when it is at most 65536 bytes, else null;
    `dataLength` is always its length.

        Attributes:
            response (Response): An `HTTPURLResponse`. `mimeType` and `textEncodingName` are absent when they would be null.
            storage_policy (URLCacheStoragePolicy): `URLCache.StoragePolicy`: `allowed` (memory and disk),
                `allowedInMemoryOnly`, `notAllowed`.
            user_info (Any): The `userInfo` the delegate's `dataTask.willCacheResponse` answer stored with it (any JSON);
                null when none.
            stored_at (datetime.datetime | None): When it was stored; null in a proposal (not stored yet).
            data_length (int):
            data (None | str): The body (standard base64) when it is at most 65536 bytes; null otherwise.
    """

    response: Response
    storage_policy: URLCacheStoragePolicy
    user_info: Any
    stored_at: datetime.datetime | None
    data_length: int
    data: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        response = self.response.to_dict()

        storage_policy = self.storage_policy.value

        user_info = self.user_info

        stored_at: None | str
        if isinstance(self.stored_at, datetime.datetime):
            stored_at = self.stored_at.isoformat()
        else:
            stored_at = self.stored_at

        data_length = self.data_length

        data: None | str
        data = self.data

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "response": response,
                "storagePolicy": storage_policy,
                "userInfo": user_info,
                "storedAt": stored_at,
                "dataLength": data_length,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.response import Response

        d = dict(src_dict)
        response = Response.from_dict(d.pop("response"))

        storage_policy = URLCacheStoragePolicy(d.pop("storagePolicy"))

        user_info = d.pop("userInfo")

        def _parse_stored_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stored_at_type_0 = datetime.datetime.fromisoformat(data)

                return stored_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        stored_at = _parse_stored_at(d.pop("storedAt"))

        data_length = d.pop("dataLength")

        def _parse_data(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        data = _parse_data(d.pop("data"))

        cached_response = cls(
            response=response,
            storage_policy=storage_policy,
            user_info=user_info,
            stored_at=stored_at,
            data_length=data_length,
            data=data,
        )

        cached_response.additional_properties = d
        return cached_response

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
