from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.request_cache_policy import RequestCachePolicy
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.base_64http_body import Base64HTTPBody
    from ..models.http_header_fields import HTTPHeaderFields
    from ..models.jsonhttp_body import JSONHTTPBody
    from ..models.text_http_body import TextHTTPBody


T = TypeVar("T", bound="Request")


@_attrs_define
class Request:
    """A `URLRequest`. In requests only `url` is required; the other properties default to the
    session's configuration (`timeoutInterval` to `timeoutIntervalForRequest`, `cachePolicy` to
    `requestCachePolicy`, `httpShouldHandleCookies` to `httpShouldSetCookies`) or to URLRequest's
    defaults. The `allows*` flags combine with the session's: a path is usable only if both allow it.
    In responses every property but `httpBody` is present with its effective value (the `allows*`
    flags as the request's AND the session's); `httpBody` is present when the request had one, always
    in the `{"base64": ...}` form. A `json` body sent without a `Content-Type` gets
    `Content-Type: application/json` in `allHTTPHeaderFields`. The session's `httpAdditionalHeaders`
    are not shown: they are added at send time under the request's own fields (the request wins).
    Header names are case-insensitive, so a name may appear once. Upload tasks take their body from
    `uploadSource`: an `httpBody` on an upload task is refused (422 `field: request.httpBody`).

        Attributes:
            url (str): The URL to load: `http` or `https`, and the protocols the server enables besides with
                `URLSESSIOND_EXTRA_PROTOCOLS`: `ftp`, `ftps` (implicit TLS, libcurl's meaning of `ftps://`)
                and `file`, each only when the linked libcurl transfers with it (any other value stops the
                server at start-up). A webSocket task's URL is `ws` or `wss`, and only a webSocket task's.
                Another scheme is refused (422 `field: request.url`).
                `file:` URLs (`file:///path`, `file://localhost/path`) read only inside the server's
                `URLSESSIOND_FILE_ROOT`, the path resolved as it would be opened (`..` and symlinks
                followed): one outside is refused when the task is created (422 `field: request.url`) and
                again when its transfer is prepared (a symlink may have changed): the task fails with -1102
                `noPermissionsToReadFile`, `userInfo.reason` `outsideFileRoot`. They only read: a request
                with a body or an upload task is refused. Redirects, a delegate's included, stay on http and
                https.
            http_method (None | str | Unset): An RFC 9110 method token. Default: 'GET'.
            all_http_header_fields (HTTPHeaderFields | None | Unset):
            http_body (Base64HTTPBody | JSONHTTPBody | None | TextHTTPBody | Unset):
            timeout_interval (float | None | Unset): Idle timeout in seconds (default the session's
                `timeoutIntervalForRequest`).
            cache_policy (None | RequestCachePolicy | Unset): How this request uses the session's URL cache (default the
                session's `requestCachePolicy`).
            http_should_handle_cookies (bool | None | Unset):
            allows_cellular_access (bool | None | Unset):  Default: True.
            allows_expensive_network_access (bool | None | Unset):  Default: True.
            allows_constrained_network_access (bool | None | Unset):  Default: True.
            main_document_url (None | str | Unset): `URLRequest.mainDocumentURL`: the page this request belongs to. With the
                session's
                `httpCookieAcceptPolicy` `onlyFromMainDocumentDomain`, only cookies from that page's site
                (the same registrable domain) are kept. In responses present only when set.
            assumes_http3_capable (bool | None | Unset): `URLRequest.assumesHTTP3Capable` (a request property;
                URLSessionConfiguration has none):
                accepted and kept, with no effect. The server speaks HTTP/1.1 and HTTP/2 only: Debian 12's
                libcurl (7.88.1) is built without HTTP/3, and Debian 12's ngtcp2 and nghttp3 are older than
                any libcurl with HTTP/3 support needs, so no HTTP/3 libcurl can be built from its
                packages. With a libcurl that has HTTP/3, `true` would send the first attempt over QUIC
                (`CURLOPT_HTTP_VERSION` = `CURL_HTTP_VERSION_3`, which falls back to HTTP/2 or HTTP/1.1
                over TCP when QUIC fails), as URLSession races QUIC without discovery; `false` would
                reach HTTP/3 only as URLSession discovers it, from an origin's `Alt-Svc` (libcurl's
                `CURLOPT_ALTSVC` cache). In responses present (as `true`) only when set.
                 Default: False.
            requires_dnssec_validation (bool | None | Unset): `URLRequest.requiresDNSSECValidation`: only false, as the
                session's (`SessionConfiguration`); true is 422 naming the field. Never present in responses: it is always false
                here. Default: False.
    """

    url: str
    http_method: None | str | Unset = "GET"
    all_http_header_fields: HTTPHeaderFields | None | Unset = UNSET
    http_body: Base64HTTPBody | JSONHTTPBody | None | TextHTTPBody | Unset = UNSET
    timeout_interval: float | None | Unset = UNSET
    cache_policy: None | RequestCachePolicy | Unset = UNSET
    http_should_handle_cookies: bool | None | Unset = UNSET
    allows_cellular_access: bool | None | Unset = True
    allows_expensive_network_access: bool | None | Unset = True
    allows_constrained_network_access: bool | None | Unset = True
    main_document_url: None | str | Unset = UNSET
    assumes_http3_capable: bool | None | Unset = False
    requires_dnssec_validation: bool | None | Unset = False

    def to_dict(self) -> dict[str, Any]:
        from ..models.base_64http_body import Base64HTTPBody
        from ..models.http_header_fields import HTTPHeaderFields
        from ..models.jsonhttp_body import JSONHTTPBody
        from ..models.text_http_body import TextHTTPBody

        url: str
        url = self.url

        http_method: None | str | Unset
        if isinstance(self.http_method, Unset):
            http_method = UNSET
        else:
            http_method = self.http_method

        all_http_header_fields: dict[str, Any] | None | Unset
        if isinstance(self.all_http_header_fields, Unset):
            all_http_header_fields = UNSET
        elif isinstance(self.all_http_header_fields, HTTPHeaderFields):
            all_http_header_fields = self.all_http_header_fields.to_dict()
        else:
            all_http_header_fields = self.all_http_header_fields

        http_body: dict[str, Any] | None | Unset
        if isinstance(self.http_body, Unset):
            http_body = UNSET
        elif (
            isinstance(self.http_body, TextHTTPBody)
            or isinstance(self.http_body, Base64HTTPBody)
            or isinstance(self.http_body, JSONHTTPBody)
        ):
            http_body = self.http_body.to_dict()
        else:
            http_body = self.http_body

        timeout_interval: float | None | Unset
        if isinstance(self.timeout_interval, Unset):
            timeout_interval = UNSET
        else:
            timeout_interval = self.timeout_interval

        cache_policy: None | str | Unset
        if isinstance(self.cache_policy, Unset):
            cache_policy = UNSET
        elif isinstance(self.cache_policy, RequestCachePolicy):
            cache_policy = self.cache_policy.value
        else:
            cache_policy = self.cache_policy

        http_should_handle_cookies: bool | None | Unset
        if isinstance(self.http_should_handle_cookies, Unset):
            http_should_handle_cookies = UNSET
        else:
            http_should_handle_cookies = self.http_should_handle_cookies

        allows_cellular_access: bool | None | Unset
        if isinstance(self.allows_cellular_access, Unset):
            allows_cellular_access = UNSET
        else:
            allows_cellular_access = self.allows_cellular_access

        allows_expensive_network_access: bool | None | Unset
        if isinstance(self.allows_expensive_network_access, Unset):
            allows_expensive_network_access = UNSET
        else:
            allows_expensive_network_access = self.allows_expensive_network_access

        allows_constrained_network_access: bool | None | Unset
        if isinstance(self.allows_constrained_network_access, Unset):
            allows_constrained_network_access = UNSET
        else:
            allows_constrained_network_access = self.allows_constrained_network_access

        main_document_url: None | str | Unset
        if isinstance(self.main_document_url, Unset):
            main_document_url = UNSET
        else:
            main_document_url = self.main_document_url

        assumes_http3_capable: bool | None | Unset
        if isinstance(self.assumes_http3_capable, Unset):
            assumes_http3_capable = UNSET
        else:
            assumes_http3_capable = self.assumes_http3_capable

        requires_dnssec_validation: bool | None | Unset
        if isinstance(self.requires_dnssec_validation, Unset):
            requires_dnssec_validation = UNSET
        else:
            requires_dnssec_validation = self.requires_dnssec_validation

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if http_method is not UNSET:
            field_dict["httpMethod"] = http_method
        if all_http_header_fields is not UNSET:
            field_dict["allHTTPHeaderFields"] = all_http_header_fields
        if http_body is not UNSET:
            field_dict["httpBody"] = http_body
        if timeout_interval is not UNSET:
            field_dict["timeoutInterval"] = timeout_interval
        if cache_policy is not UNSET:
            field_dict["cachePolicy"] = cache_policy
        if http_should_handle_cookies is not UNSET:
            field_dict["httpShouldHandleCookies"] = http_should_handle_cookies
        if allows_cellular_access is not UNSET:
            field_dict["allowsCellularAccess"] = allows_cellular_access
        if allows_expensive_network_access is not UNSET:
            field_dict["allowsExpensiveNetworkAccess"] = allows_expensive_network_access
        if allows_constrained_network_access is not UNSET:
            field_dict["allowsConstrainedNetworkAccess"] = allows_constrained_network_access
        if main_document_url is not UNSET:
            field_dict["mainDocumentURL"] = main_document_url
        if assumes_http3_capable is not UNSET:
            field_dict["assumesHTTP3Capable"] = assumes_http3_capable
        if requires_dnssec_validation is not UNSET:
            field_dict["requiresDNSSECValidation"] = requires_dnssec_validation

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.base_64http_body import Base64HTTPBody
        from ..models.http_header_fields import HTTPHeaderFields
        from ..models.jsonhttp_body import JSONHTTPBody
        from ..models.text_http_body import TextHTTPBody

        d = dict(src_dict)

        def _parse_url(data: object) -> str:
            return cast(str, data)

        url = _parse_url(d.pop("url"))

        def _parse_http_method(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        http_method = _parse_http_method(d.pop("httpMethod", UNSET))

        def _parse_all_http_header_fields(data: object) -> HTTPHeaderFields | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                all_http_header_fields_type_0 = HTTPHeaderFields.from_dict(data)

                return all_http_header_fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HTTPHeaderFields | None | Unset, data)

        all_http_header_fields = _parse_all_http_header_fields(d.pop("allHTTPHeaderFields", UNSET))

        def _parse_http_body(data: object) -> Base64HTTPBody | JSONHTTPBody | None | TextHTTPBody | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_http_body_type_0 = TextHTTPBody.from_dict(data)

                return componentsschemas_http_body_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_http_body_type_1 = Base64HTTPBody.from_dict(data)

                return componentsschemas_http_body_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_http_body_type_2 = JSONHTTPBody.from_dict(data)

                return componentsschemas_http_body_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Base64HTTPBody | JSONHTTPBody | None | TextHTTPBody | Unset, data)

        http_body = _parse_http_body(d.pop("httpBody", UNSET))

        def _parse_timeout_interval(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timeout_interval = _parse_timeout_interval(d.pop("timeoutInterval", UNSET))

        def _parse_cache_policy(data: object) -> None | RequestCachePolicy | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cache_policy_type_0 = RequestCachePolicy(data)

                return cache_policy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RequestCachePolicy | Unset, data)

        cache_policy = _parse_cache_policy(d.pop("cachePolicy", UNSET))

        def _parse_http_should_handle_cookies(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        http_should_handle_cookies = _parse_http_should_handle_cookies(d.pop("httpShouldHandleCookies", UNSET))

        def _parse_allows_cellular_access(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        allows_cellular_access = _parse_allows_cellular_access(d.pop("allowsCellularAccess", UNSET))

        def _parse_allows_expensive_network_access(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        allows_expensive_network_access = _parse_allows_expensive_network_access(
            d.pop("allowsExpensiveNetworkAccess", UNSET)
        )

        def _parse_allows_constrained_network_access(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        allows_constrained_network_access = _parse_allows_constrained_network_access(
            d.pop("allowsConstrainedNetworkAccess", UNSET)
        )

        def _parse_main_document_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        main_document_url = _parse_main_document_url(d.pop("mainDocumentURL", UNSET))

        def _parse_assumes_http3_capable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        assumes_http3_capable = _parse_assumes_http3_capable(d.pop("assumesHTTP3Capable", UNSET))

        def _parse_requires_dnssec_validation(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        requires_dnssec_validation = _parse_requires_dnssec_validation(d.pop("requiresDNSSECValidation", UNSET))

        request = cls(
            url=url,
            http_method=http_method,
            all_http_header_fields=all_http_header_fields,
            http_body=http_body,
            timeout_interval=timeout_interval,
            cache_policy=cache_policy,
            http_should_handle_cookies=http_should_handle_cookies,
            allows_cellular_access=allows_cellular_access,
            allows_expensive_network_access=allows_expensive_network_access,
            allows_constrained_network_access=allows_constrained_network_access,
            main_document_url=main_document_url,
            assumes_http3_capable=assumes_http3_capable,
            requires_dnssec_validation=requires_dnssec_validation,
        )

        return request
