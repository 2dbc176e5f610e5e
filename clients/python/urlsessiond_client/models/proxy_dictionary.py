from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ProxyDictionary")


@_attrs_define
class ProxyDictionary:
    """`connectionProxyDictionary` with the `kCFNetworkProxies*` keys URLSession understands. An
    enabled proxy needs its host (422 otherwise). A null key is the same as an absent one; absent
    keys are absent in responses too.

    The SOCKS proxy is SOCKS5 with names resolved by the proxy (libcurl's `socks5h://`); the
    service still resolves a target's name itself first and holds every address to the egress
    policy, as through an HTTP proxy (a refused target fails with -1004, `userInfo.reason`
    `egressPolicy`, and never reaches the proxy). `SOCKSUser` and `SOCKSPassword` (given together,
    `x-rules`) are its RFC 1929 username/password login (libcurl's `CURLOPT_PROXYUSERNAME` and
    `CURLOPT_PROXYPASSWORD`, for the SOCKS proxy only). They are write-only: sealed at rest with the
    store's key (`URLSESSIOND_SECRET_KEY`) as request credentials are, never in an answer, an event
    or a log. A proxy that refuses the login fails the task with -1004, `underlying` libcurl 97
    (`CURLE_PROXY`) and the proxy's answer ("User was rejected by the SOCKS5 server").

        Attributes:
            http_enable (bool | None | Unset):
            http_proxy (None | str | Unset):
            http_port (int | None | Unset):
            https_enable (bool | None | Unset):
            https_proxy (None | str | Unset):
            https_port (int | None | Unset):
            socks_enable (bool | None | Unset):
            socks_proxy (None | str | Unset):
            socks_port (int | None | Unset):
            socks_user (None | str | Unset): The SOCKS5 login's username (RFC 1929), with `SOCKSPassword`; never shown.
            socks_password (None | str | Unset): The SOCKS5 login's password (RFC 1929), with `SOCKSUser`; never shown.
            exceptions_list (list[str] | None | Unset): Host patterns that bypass the proxy (`*.internal`, `10.0.0.0/8`).
    """

    http_enable: bool | None | Unset = UNSET
    http_proxy: None | str | Unset = UNSET
    http_port: int | None | Unset = UNSET
    https_enable: bool | None | Unset = UNSET
    https_proxy: None | str | Unset = UNSET
    https_port: int | None | Unset = UNSET
    socks_enable: bool | None | Unset = UNSET
    socks_proxy: None | str | Unset = UNSET
    socks_port: int | None | Unset = UNSET
    socks_user: None | str | Unset = UNSET
    socks_password: None | str | Unset = UNSET
    exceptions_list: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        http_enable: bool | None | Unset
        if isinstance(self.http_enable, Unset):
            http_enable = UNSET
        else:
            http_enable = self.http_enable

        http_proxy: None | str | Unset
        if isinstance(self.http_proxy, Unset):
            http_proxy = UNSET
        else:
            http_proxy = self.http_proxy

        http_port: int | None | Unset
        if isinstance(self.http_port, Unset):
            http_port = UNSET
        else:
            http_port = self.http_port

        https_enable: bool | None | Unset
        if isinstance(self.https_enable, Unset):
            https_enable = UNSET
        else:
            https_enable = self.https_enable

        https_proxy: None | str | Unset
        if isinstance(self.https_proxy, Unset):
            https_proxy = UNSET
        else:
            https_proxy = self.https_proxy

        https_port: int | None | Unset
        if isinstance(self.https_port, Unset):
            https_port = UNSET
        else:
            https_port = self.https_port

        socks_enable: bool | None | Unset
        if isinstance(self.socks_enable, Unset):
            socks_enable = UNSET
        else:
            socks_enable = self.socks_enable

        socks_proxy: None | str | Unset
        if isinstance(self.socks_proxy, Unset):
            socks_proxy = UNSET
        else:
            socks_proxy = self.socks_proxy

        socks_port: int | None | Unset
        if isinstance(self.socks_port, Unset):
            socks_port = UNSET
        else:
            socks_port = self.socks_port

        socks_user: None | str | Unset
        if isinstance(self.socks_user, Unset):
            socks_user = UNSET
        else:
            socks_user = self.socks_user

        socks_password: None | str | Unset
        if isinstance(self.socks_password, Unset):
            socks_password = UNSET
        else:
            socks_password = self.socks_password

        exceptions_list: list[str] | None | Unset
        if isinstance(self.exceptions_list, Unset):
            exceptions_list = UNSET
        elif isinstance(self.exceptions_list, list):
            exceptions_list = self.exceptions_list

        else:
            exceptions_list = self.exceptions_list

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if http_enable is not UNSET:
            field_dict["HTTPEnable"] = http_enable
        if http_proxy is not UNSET:
            field_dict["HTTPProxy"] = http_proxy
        if http_port is not UNSET:
            field_dict["HTTPPort"] = http_port
        if https_enable is not UNSET:
            field_dict["HTTPSEnable"] = https_enable
        if https_proxy is not UNSET:
            field_dict["HTTPSProxy"] = https_proxy
        if https_port is not UNSET:
            field_dict["HTTPSPort"] = https_port
        if socks_enable is not UNSET:
            field_dict["SOCKSEnable"] = socks_enable
        if socks_proxy is not UNSET:
            field_dict["SOCKSProxy"] = socks_proxy
        if socks_port is not UNSET:
            field_dict["SOCKSPort"] = socks_port
        if socks_user is not UNSET:
            field_dict["SOCKSUser"] = socks_user
        if socks_password is not UNSET:
            field_dict["SOCKSPassword"] = socks_password
        if exceptions_list is not UNSET:
            field_dict["ExceptionsList"] = exceptions_list

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_http_enable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        http_enable = _parse_http_enable(d.pop("HTTPEnable", UNSET))

        def _parse_http_proxy(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        http_proxy = _parse_http_proxy(d.pop("HTTPProxy", UNSET))

        def _parse_http_port(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        http_port = _parse_http_port(d.pop("HTTPPort", UNSET))

        def _parse_https_enable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        https_enable = _parse_https_enable(d.pop("HTTPSEnable", UNSET))

        def _parse_https_proxy(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        https_proxy = _parse_https_proxy(d.pop("HTTPSProxy", UNSET))

        def _parse_https_port(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        https_port = _parse_https_port(d.pop("HTTPSPort", UNSET))

        def _parse_socks_enable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        socks_enable = _parse_socks_enable(d.pop("SOCKSEnable", UNSET))

        def _parse_socks_proxy(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        socks_proxy = _parse_socks_proxy(d.pop("SOCKSProxy", UNSET))

        def _parse_socks_port(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        socks_port = _parse_socks_port(d.pop("SOCKSPort", UNSET))

        def _parse_socks_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        socks_user = _parse_socks_user(d.pop("SOCKSUser", UNSET))

        def _parse_socks_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        socks_password = _parse_socks_password(d.pop("SOCKSPassword", UNSET))

        def _parse_exceptions_list(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                exceptions_list_type_0 = cast(list[str], data)

                return exceptions_list_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        exceptions_list = _parse_exceptions_list(d.pop("ExceptionsList", UNSET))

        proxy_dictionary = cls(
            http_enable=http_enable,
            http_proxy=http_proxy,
            http_port=http_port,
            https_enable=https_enable,
            https_proxy=https_proxy,
            https_port=https_port,
            socks_enable=socks_enable,
            socks_proxy=socks_proxy,
            socks_port=socks_port,
            socks_user=socks_user,
            socks_password=socks_password,
            exceptions_list=exceptions_list,
        )

        return proxy_dictionary
