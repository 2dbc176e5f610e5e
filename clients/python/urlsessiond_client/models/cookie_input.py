from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CookieInput")


@_attrs_define
class CookieInput:
    """A cookie to store. `name` and `value` hold no `;` or control characters (`name` no `=` or white
    space either); `domain` is required when the request has no `url`; `path` starts with `/`.
    `name` and `value` may not both be empty (`x-rules`).

        Attributes:
            name (str):
            value (str):
            domain (None | str | Unset): A host name in ASCII (punycode for others); a leading `.` makes a domain cookie.
                Empty: as absent.
            path (None | str | Unset):
            expires_date (datetime.datetime | None | Unset):
            is_secure (bool | None | Unset):
            is_http_only (bool | None | Unset):
            same_site_policy (None | str | Unset): `lax`, `strict` or `none`, in any case.
    """

    name: str
    value: str
    domain: None | str | Unset = UNSET
    path: None | str | Unset = UNSET
    expires_date: datetime.datetime | None | Unset = UNSET
    is_secure: bool | None | Unset = UNSET
    is_http_only: bool | None | Unset = UNSET
    same_site_policy: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        value = self.value

        domain: None | str | Unset
        if isinstance(self.domain, Unset):
            domain = UNSET
        else:
            domain = self.domain

        path: None | str | Unset
        if isinstance(self.path, Unset):
            path = UNSET
        else:
            path = self.path

        expires_date: None | str | Unset
        if isinstance(self.expires_date, Unset):
            expires_date = UNSET
        elif isinstance(self.expires_date, datetime.datetime):
            expires_date = self.expires_date.isoformat()
        else:
            expires_date = self.expires_date

        is_secure: bool | None | Unset
        if isinstance(self.is_secure, Unset):
            is_secure = UNSET
        else:
            is_secure = self.is_secure

        is_http_only: bool | None | Unset
        if isinstance(self.is_http_only, Unset):
            is_http_only = UNSET
        else:
            is_http_only = self.is_http_only

        same_site_policy: None | str | Unset
        if isinstance(self.same_site_policy, Unset):
            same_site_policy = UNSET
        else:
            same_site_policy = self.same_site_policy

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "value": value,
            }
        )
        if domain is not UNSET:
            field_dict["domain"] = domain
        if path is not UNSET:
            field_dict["path"] = path
        if expires_date is not UNSET:
            field_dict["expiresDate"] = expires_date
        if is_secure is not UNSET:
            field_dict["isSecure"] = is_secure
        if is_http_only is not UNSET:
            field_dict["isHTTPOnly"] = is_http_only
        if same_site_policy is not UNSET:
            field_dict["sameSitePolicy"] = same_site_policy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        value = d.pop("value")

        def _parse_domain(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        domain = _parse_domain(d.pop("domain", UNSET))

        def _parse_path(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        path = _parse_path(d.pop("path", UNSET))

        def _parse_expires_date(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_date_type_0 = datetime.datetime.fromisoformat(data)

                return expires_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_date = _parse_expires_date(d.pop("expiresDate", UNSET))

        def _parse_is_secure(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_secure = _parse_is_secure(d.pop("isSecure", UNSET))

        def _parse_is_http_only(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_http_only = _parse_is_http_only(d.pop("isHTTPOnly", UNSET))

        def _parse_same_site_policy(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        same_site_policy = _parse_same_site_policy(d.pop("sameSitePolicy", UNSET))

        cookie_input = cls(
            name=name,
            value=value,
            domain=domain,
            path=path,
            expires_date=expires_date,
            is_secure=is_secure,
            is_http_only=is_http_only,
            same_site_policy=same_site_policy,
        )

        return cookie_input
