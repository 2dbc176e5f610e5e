from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.problem_quota import ProblemQuota
from ..types import UNSET, Unset

T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """An RFC 9457 problem, the only error body of the API. `type` is `urn:urlsessiond:problem:<slug>`
    (the slugs are listed in the API description).

        Attributes:
            type_ (str):
            title (str): The short, fixed title of the slug.
            status (int): The HTTP status, repeated.
            detail (str): What is wrong in this request, for a human.
            field (str | Unset): The field at fault, when there is one: a dotted path from the body's root with `[n]` for
                array indexes, a query parameter's name, or a header's name.
            quota (ProblemQuota | Unset): `quota-exceeded` only: the quota the request would pass.
            limit (int | Unset): `quota-exceeded` only: the tenant's limit of `quota`.
            usage (int | Unset): `quota-exceeded` only: what the tenant holds of `quota` now (the refused request not
                counted).
    """

    type_: str
    title: str
    status: int
    detail: str
    field: str | Unset = UNSET
    quota: ProblemQuota | Unset = UNSET
    limit: int | Unset = UNSET
    usage: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        field = self.field

        quota: str | Unset = UNSET
        if not isinstance(self.quota, Unset):
            quota = self.quota.value

        limit = self.limit

        usage = self.usage

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "detail": detail,
            }
        )
        if field is not UNSET:
            field_dict["field"] = field
        if quota is not UNSET:
            field_dict["quota"] = quota
        if limit is not UNSET:
            field_dict["limit"] = limit
        if usage is not UNSET:
            field_dict["usage"] = usage

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        field = d.pop("field", UNSET)

        _quota = d.pop("quota", UNSET)
        quota: ProblemQuota | Unset
        if isinstance(_quota, Unset):
            quota = UNSET
        else:
            quota = ProblemQuota(_quota)

        limit = d.pop("limit", UNSET)

        usage = d.pop("usage", UNSET)

        problem = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            field=field,
            quota=quota,
            limit=limit,
            usage=usage,
        )

        problem.additional_properties = d
        return problem

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
