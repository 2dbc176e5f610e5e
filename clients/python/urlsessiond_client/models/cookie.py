from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cookie_same_site_policy_type_1 import CookieSameSitePolicyType1
from ..models.cookie_same_site_policy_type_2_type_1 import CookieSameSitePolicyType2Type1
from ..models.cookie_same_site_policy_type_3_type_1 import CookieSameSitePolicyType3Type1

T = TypeVar("T", bound="Cookie")


@_attrs_define
class Cookie:
    """An `HTTPCookie`. `domain` starts with a dot when subdomains get the cookie too. `portList` is
    always null (RFC 2965 port lists are not supported).

        Attributes:
            name (str):
            value (str):
            domain (str):
            path (str):
            expires_date (datetime.datetime | None):
            is_secure (bool):
            is_http_only (bool):
            is_session_only (bool): No expiry date: kept in memory only, for the storage's life.
            same_site_policy (CookieSameSitePolicyType1 | CookieSameSitePolicyType2Type1 | CookieSameSitePolicyType3Type1 |
                None):
            port_list (None):
    """

    name: str
    value: str
    domain: str
    path: str
    expires_date: datetime.datetime | None
    is_secure: bool
    is_http_only: bool
    is_session_only: bool
    same_site_policy: CookieSameSitePolicyType1 | CookieSameSitePolicyType2Type1 | CookieSameSitePolicyType3Type1 | None
    port_list: None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        value = self.value

        domain = self.domain

        path = self.path

        expires_date: None | str
        if isinstance(self.expires_date, datetime.datetime):
            expires_date = self.expires_date.isoformat()
        else:
            expires_date = self.expires_date

        is_secure = self.is_secure

        is_http_only = self.is_http_only

        is_session_only = self.is_session_only

        same_site_policy: None | str
        if (
            isinstance(self.same_site_policy, CookieSameSitePolicyType1)
            or isinstance(self.same_site_policy, CookieSameSitePolicyType2Type1)
            or isinstance(self.same_site_policy, CookieSameSitePolicyType3Type1)
        ):
            same_site_policy = self.same_site_policy.value
        else:
            same_site_policy = self.same_site_policy

        port_list = self.port_list

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "value": value,
                "domain": domain,
                "path": path,
                "expiresDate": expires_date,
                "isSecure": is_secure,
                "isHTTPOnly": is_http_only,
                "isSessionOnly": is_session_only,
                "sameSitePolicy": same_site_policy,
                "portList": port_list,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        value = d.pop("value")

        domain = d.pop("domain")

        path = d.pop("path")

        def _parse_expires_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_date_type_0 = datetime.datetime.fromisoformat(data)

                return expires_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_date = _parse_expires_date(d.pop("expiresDate"))

        is_secure = d.pop("isSecure")

        is_http_only = d.pop("isHTTPOnly")

        is_session_only = d.pop("isSessionOnly")

        def _parse_same_site_policy(
            data: object,
        ) -> CookieSameSitePolicyType1 | CookieSameSitePolicyType2Type1 | CookieSameSitePolicyType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                same_site_policy_type_1 = CookieSameSitePolicyType1(data)

                return same_site_policy_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                same_site_policy_type_2_type_1 = CookieSameSitePolicyType2Type1(data)

                return same_site_policy_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                same_site_policy_type_3_type_1 = CookieSameSitePolicyType3Type1(data)

                return same_site_policy_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CookieSameSitePolicyType1 | CookieSameSitePolicyType2Type1 | CookieSameSitePolicyType3Type1 | None, data
            )

        same_site_policy = _parse_same_site_policy(d.pop("sameSitePolicy"))

        port_list = d.pop("portList")

        cookie = cls(
            name=name,
            value=value,
            domain=domain,
            path=path,
            expires_date=expires_date,
            is_secure=is_secure,
            is_http_only=is_http_only,
            is_session_only=is_session_only,
            same_site_policy=same_site_policy,
            port_list=port_list,
        )

        cookie.additional_properties = d
        return cookie

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
