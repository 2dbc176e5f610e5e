from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.usage_quotas import UsageQuotas


T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """
    Example:
        {'tenant': 'alpha', 'quotas': {'sessions': {'usage': 3, 'limit': 1000}, 'tasks': {'usage': 12, 'limit': 10000},
            'blobBytes': {'usage': 1048576, 'limit': 10737418240}, 'blobCount': {'usage': 1, 'limit': 10000}, 'storedBytes':
            {'usage': 52428800, 'limit': 107374182400}, 'streams': {'usage': 1, 'limit': 100}}}

    Attributes:
        tenant (str):
        quotas (UsageQuotas): One entry per quota: `sessions` (not invalidated, the shared one aside), `tasks` (not
            completed), `blobBytes`, `blobCount`, `storedBytes` (kept downloads and bodies, and the URL
            caches on disk) and `streams` (event streams and long-polls open now).
    """

    tenant: str
    quotas: UsageQuotas
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant = self.tenant

        quotas = self.quotas.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant": tenant,
                "quotas": quotas,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.usage_quotas import UsageQuotas

        d = dict(src_dict)
        tenant = d.pop("tenant")

        quotas = UsageQuotas.from_dict(d.pop("quotas"))

        usage = cls(
            tenant=tenant,
            quotas=quotas,
        )

        usage.additional_properties = d
        return usage

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
