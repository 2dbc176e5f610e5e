from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.http_cookie_accept_policy import HTTPCookieAcceptPolicy
from ..models.multipath_service_type import MultipathServiceType
from ..models.network_service_type import NetworkServiceType
from ..models.request_cache_policy import RequestCachePolicy
from ..models.session_kind import SessionKind
from ..models.storage_scope import StorageScope
from ..models.tls_protocol_version import TLSProtocolVersion
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.http_header_fields import HTTPHeaderFields
    from ..models.proxy_dictionary import ProxyDictionary
    from ..models.rate_limit import RateLimit
    from ..models.segments_input import SegmentsInput
    from ..models.server_trust_configuration import ServerTrustConfiguration
    from ..models.url_cache_configuration_input import URLCacheConfigurationInput


T = TypeVar("T", bound="SessionConfigurationInput")


@_attrs_define
class SessionConfigurationInput:
    """`URLSessionConfiguration` as a client sends it. Every field is optional and defaults to
    URLSession's value for the `kind` (see `SessionConfiguration` for the table).

    Across fields (`x-rules`): a `background` session needs its `identifier` and always waits for
    connectivity (`waitsForConnectivity: false` is 422); the other kinds have no `identifier`.

        Attributes:
            kind (None | SessionKind | Unset):  Default: SessionKind.DEFAULT.
            identifier (None | str | Unset): Required for `background` (unique among the tenant's live sessions; see re-
                attach), forbidden for the other kinds.
            http_additional_headers (HTTPHeaderFields | None | Unset): Added to every request that does not set the same
                name itself.
            timeout_interval_for_request (float | None | Unset): Idle timeout in seconds, reset by every byte sent or
                received. Default: 60.0.
            timeout_interval_for_resource (float | None | Unset): Limit on a whole task in seconds, across redirects and
                retries. Default: 604800.0.
            http_maximum_connections_per_host (int | None | Unset):  Default: 6.
            http_should_use_pipelining (bool | None | Unset):  Default: False.
            request_cache_policy (None | RequestCachePolicy | Unset):  Default: RequestCachePolicy.USEPROTOCOLCACHEPOLICY.
            url_cache (None | Unset | URLCacheConfigurationInput): The session's `URLCache`: `{"storage": "shared"}` or
                `{"storage": "private", "memoryCapacity": n,
                "diskCapacity": n}` (see `URLCacheConfigurationInput`); null means the session caches nothing.
                Absent: the kind's default (default and background: shared; ephemeral: private 512000 / 0).
            http_should_set_cookies (bool | None | Unset):  Default: True.
            http_cookie_accept_policy (HTTPCookieAcceptPolicy | None | Unset):  Default:
                HTTPCookieAcceptPolicy.ONLYFROMMAINDOCUMENTDOMAIN.
            http_cookie_storage (None | StorageScope | Unset): Ephemeral sessions may not use `shared`.
            url_credential_storage (None | StorageScope | Unset): Ephemeral sessions may not use `shared`.
            allows_cellular_access (bool | None | Unset):  Default: True.
            allows_expensive_network_access (bool | None | Unset):  Default: True.
            allows_constrained_network_access (bool | None | Unset):  Default: True.
            waits_for_connectivity (bool | None | Unset): Background sessions always wait (false is 422).
            is_discretionary (bool | None | Unset):  Default: False.
            session_sends_launch_events (bool | None | Unset): Background sessions: whether an unreachable delegate is
                "launched", i.e. its webhooks are retried. With false, the first failed delivery holds the session's webhooks
                (the events stay readable) until the client re-attaches with the session's identifier; they are then delivered
                in order, followed by session.didFinishEventsForBackgroundURLSession. Default: True.
            should_use_extended_background_idle_mode (bool | None | Unset):  Default: False.
            shared_container_identifier (None | str | Unset): Accepted and kept with no effect (a server has no app
                extensions); no NUL.
            requires_dnssec_validation (bool | None | Unset): Only false: true is 422 naming the field, since the service
                cannot validate DNSSEC (see `SessionConfiguration`). Default: False.
            tls_minimum_supported_protocol_version (None | TLSProtocolVersion | Unset): Must not exceed the maximum.
                Default: TLSProtocolVersion.TLSV12.
            tls_maximum_supported_protocol_version (None | TLSProtocolVersion | Unset):  Default: TLSProtocolVersion.TLSV13.
            connection_proxy_dictionary (None | ProxyDictionary | Unset): Proxies to use. Null or absent: the system proxy
                (a network path's own, else
                `URLSESSIOND_PROXY`; none configured: direct); `{}`: a direct connection.
            network_service_type (NetworkServiceType | None | Unset):  Default: NetworkServiceType.DEFAULT.
            multipath_service_type (MultipathServiceType | None | Unset):  Default: MultipathServiceType.NONE.
            server_trust (None | ServerTrustConfiguration | Unset): Declarative server trust (public-key pins, extra
                anchors); null or absent means the system
                evaluation alone (and the trust exceptions stored for the host, or the delegate's answer to
                the server-trust challenge).
            segments (None | SegmentsInput | Unset): Beyond URLSession: the default `segments` of the session's download
                tasks (a task's own
                wins); null or absent: one connection per download. Invalid values are a 422 naming
                `configuration.segments.max` or `configuration.segments.minSize`.
            rate_limit (None | RateLimit | Unset): Beyond URLSession: the session's bandwidth limit, shared fairly by its
                transfers (see "Bandwidth
                limits" above); a task's own lower limit still holds. Null or absent: none at this level.
                Invalid values are a 422 naming the field under `configuration.rateLimit`.
    """

    kind: None | SessionKind | Unset = SessionKind.DEFAULT
    identifier: None | str | Unset = UNSET
    http_additional_headers: HTTPHeaderFields | None | Unset = UNSET
    timeout_interval_for_request: float | None | Unset = 60.0
    timeout_interval_for_resource: float | None | Unset = 604800.0
    http_maximum_connections_per_host: int | None | Unset = 6
    http_should_use_pipelining: bool | None | Unset = False
    request_cache_policy: None | RequestCachePolicy | Unset = RequestCachePolicy.USEPROTOCOLCACHEPOLICY
    url_cache: None | Unset | URLCacheConfigurationInput = UNSET
    http_should_set_cookies: bool | None | Unset = True
    http_cookie_accept_policy: HTTPCookieAcceptPolicy | None | Unset = HTTPCookieAcceptPolicy.ONLYFROMMAINDOCUMENTDOMAIN
    http_cookie_storage: None | StorageScope | Unset = UNSET
    url_credential_storage: None | StorageScope | Unset = UNSET
    allows_cellular_access: bool | None | Unset = True
    allows_expensive_network_access: bool | None | Unset = True
    allows_constrained_network_access: bool | None | Unset = True
    waits_for_connectivity: bool | None | Unset = UNSET
    is_discretionary: bool | None | Unset = False
    session_sends_launch_events: bool | None | Unset = True
    should_use_extended_background_idle_mode: bool | None | Unset = False
    shared_container_identifier: None | str | Unset = UNSET
    requires_dnssec_validation: bool | None | Unset = False
    tls_minimum_supported_protocol_version: None | TLSProtocolVersion | Unset = TLSProtocolVersion.TLSV12
    tls_maximum_supported_protocol_version: None | TLSProtocolVersion | Unset = TLSProtocolVersion.TLSV13
    connection_proxy_dictionary: None | ProxyDictionary | Unset = UNSET
    network_service_type: NetworkServiceType | None | Unset = NetworkServiceType.DEFAULT
    multipath_service_type: MultipathServiceType | None | Unset = MultipathServiceType.NONE
    server_trust: None | ServerTrustConfiguration | Unset = UNSET
    segments: None | SegmentsInput | Unset = UNSET
    rate_limit: None | RateLimit | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.http_header_fields import HTTPHeaderFields
        from ..models.proxy_dictionary import ProxyDictionary
        from ..models.rate_limit import RateLimit
        from ..models.segments_input import SegmentsInput
        from ..models.server_trust_configuration import ServerTrustConfiguration
        from ..models.url_cache_configuration_input import URLCacheConfigurationInput

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        elif isinstance(self.kind, SessionKind):
            kind = self.kind.value
        else:
            kind = self.kind

        identifier: None | str | Unset
        if isinstance(self.identifier, Unset):
            identifier = UNSET
        else:
            identifier = self.identifier

        http_additional_headers: dict[str, Any] | None | Unset
        if isinstance(self.http_additional_headers, Unset):
            http_additional_headers = UNSET
        elif isinstance(self.http_additional_headers, HTTPHeaderFields):
            http_additional_headers = self.http_additional_headers.to_dict()
        else:
            http_additional_headers = self.http_additional_headers

        timeout_interval_for_request: float | None | Unset
        if isinstance(self.timeout_interval_for_request, Unset):
            timeout_interval_for_request = UNSET
        else:
            timeout_interval_for_request = self.timeout_interval_for_request

        timeout_interval_for_resource: float | None | Unset
        if isinstance(self.timeout_interval_for_resource, Unset):
            timeout_interval_for_resource = UNSET
        else:
            timeout_interval_for_resource = self.timeout_interval_for_resource

        http_maximum_connections_per_host: int | None | Unset
        if isinstance(self.http_maximum_connections_per_host, Unset):
            http_maximum_connections_per_host = UNSET
        else:
            http_maximum_connections_per_host = self.http_maximum_connections_per_host

        http_should_use_pipelining: bool | None | Unset
        if isinstance(self.http_should_use_pipelining, Unset):
            http_should_use_pipelining = UNSET
        else:
            http_should_use_pipelining = self.http_should_use_pipelining

        request_cache_policy: None | str | Unset
        if isinstance(self.request_cache_policy, Unset):
            request_cache_policy = UNSET
        elif isinstance(self.request_cache_policy, RequestCachePolicy):
            request_cache_policy = self.request_cache_policy.value
        else:
            request_cache_policy = self.request_cache_policy

        url_cache: dict[str, Any] | None | Unset
        if isinstance(self.url_cache, Unset):
            url_cache = UNSET
        elif isinstance(self.url_cache, URLCacheConfigurationInput):
            url_cache = self.url_cache.to_dict()
        else:
            url_cache = self.url_cache

        http_should_set_cookies: bool | None | Unset
        if isinstance(self.http_should_set_cookies, Unset):
            http_should_set_cookies = UNSET
        else:
            http_should_set_cookies = self.http_should_set_cookies

        http_cookie_accept_policy: None | str | Unset
        if isinstance(self.http_cookie_accept_policy, Unset):
            http_cookie_accept_policy = UNSET
        elif isinstance(self.http_cookie_accept_policy, HTTPCookieAcceptPolicy):
            http_cookie_accept_policy = self.http_cookie_accept_policy.value
        else:
            http_cookie_accept_policy = self.http_cookie_accept_policy

        http_cookie_storage: None | str | Unset
        if isinstance(self.http_cookie_storage, Unset):
            http_cookie_storage = UNSET
        elif isinstance(self.http_cookie_storage, StorageScope):
            http_cookie_storage = self.http_cookie_storage.value
        else:
            http_cookie_storage = self.http_cookie_storage

        url_credential_storage: None | str | Unset
        if isinstance(self.url_credential_storage, Unset):
            url_credential_storage = UNSET
        elif isinstance(self.url_credential_storage, StorageScope):
            url_credential_storage = self.url_credential_storage.value
        else:
            url_credential_storage = self.url_credential_storage

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

        waits_for_connectivity: bool | None | Unset
        if isinstance(self.waits_for_connectivity, Unset):
            waits_for_connectivity = UNSET
        else:
            waits_for_connectivity = self.waits_for_connectivity

        is_discretionary: bool | None | Unset
        if isinstance(self.is_discretionary, Unset):
            is_discretionary = UNSET
        else:
            is_discretionary = self.is_discretionary

        session_sends_launch_events: bool | None | Unset
        if isinstance(self.session_sends_launch_events, Unset):
            session_sends_launch_events = UNSET
        else:
            session_sends_launch_events = self.session_sends_launch_events

        should_use_extended_background_idle_mode: bool | None | Unset
        if isinstance(self.should_use_extended_background_idle_mode, Unset):
            should_use_extended_background_idle_mode = UNSET
        else:
            should_use_extended_background_idle_mode = self.should_use_extended_background_idle_mode

        shared_container_identifier: None | str | Unset
        if isinstance(self.shared_container_identifier, Unset):
            shared_container_identifier = UNSET
        else:
            shared_container_identifier = self.shared_container_identifier

        requires_dnssec_validation: bool | None | Unset
        if isinstance(self.requires_dnssec_validation, Unset):
            requires_dnssec_validation = UNSET
        else:
            requires_dnssec_validation = self.requires_dnssec_validation

        tls_minimum_supported_protocol_version: None | str | Unset
        if isinstance(self.tls_minimum_supported_protocol_version, Unset):
            tls_minimum_supported_protocol_version = UNSET
        elif isinstance(self.tls_minimum_supported_protocol_version, TLSProtocolVersion):
            tls_minimum_supported_protocol_version = self.tls_minimum_supported_protocol_version.value
        else:
            tls_minimum_supported_protocol_version = self.tls_minimum_supported_protocol_version

        tls_maximum_supported_protocol_version: None | str | Unset
        if isinstance(self.tls_maximum_supported_protocol_version, Unset):
            tls_maximum_supported_protocol_version = UNSET
        elif isinstance(self.tls_maximum_supported_protocol_version, TLSProtocolVersion):
            tls_maximum_supported_protocol_version = self.tls_maximum_supported_protocol_version.value
        else:
            tls_maximum_supported_protocol_version = self.tls_maximum_supported_protocol_version

        connection_proxy_dictionary: dict[str, Any] | None | Unset
        if isinstance(self.connection_proxy_dictionary, Unset):
            connection_proxy_dictionary = UNSET
        elif isinstance(self.connection_proxy_dictionary, ProxyDictionary):
            connection_proxy_dictionary = self.connection_proxy_dictionary.to_dict()
        else:
            connection_proxy_dictionary = self.connection_proxy_dictionary

        network_service_type: None | str | Unset
        if isinstance(self.network_service_type, Unset):
            network_service_type = UNSET
        elif isinstance(self.network_service_type, NetworkServiceType):
            network_service_type = self.network_service_type.value
        else:
            network_service_type = self.network_service_type

        multipath_service_type: None | str | Unset
        if isinstance(self.multipath_service_type, Unset):
            multipath_service_type = UNSET
        elif isinstance(self.multipath_service_type, MultipathServiceType):
            multipath_service_type = self.multipath_service_type.value
        else:
            multipath_service_type = self.multipath_service_type

        server_trust: dict[str, Any] | None | Unset
        if isinstance(self.server_trust, Unset):
            server_trust = UNSET
        elif isinstance(self.server_trust, ServerTrustConfiguration):
            server_trust = self.server_trust.to_dict()
        else:
            server_trust = self.server_trust

        segments: dict[str, Any] | None | Unset
        if isinstance(self.segments, Unset):
            segments = UNSET
        elif isinstance(self.segments, SegmentsInput):
            segments = self.segments.to_dict()
        else:
            segments = self.segments

        rate_limit: dict[str, Any] | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        elif isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if kind is not UNSET:
            field_dict["kind"] = kind
        if identifier is not UNSET:
            field_dict["identifier"] = identifier
        if http_additional_headers is not UNSET:
            field_dict["httpAdditionalHeaders"] = http_additional_headers
        if timeout_interval_for_request is not UNSET:
            field_dict["timeoutIntervalForRequest"] = timeout_interval_for_request
        if timeout_interval_for_resource is not UNSET:
            field_dict["timeoutIntervalForResource"] = timeout_interval_for_resource
        if http_maximum_connections_per_host is not UNSET:
            field_dict["httpMaximumConnectionsPerHost"] = http_maximum_connections_per_host
        if http_should_use_pipelining is not UNSET:
            field_dict["httpShouldUsePipelining"] = http_should_use_pipelining
        if request_cache_policy is not UNSET:
            field_dict["requestCachePolicy"] = request_cache_policy
        if url_cache is not UNSET:
            field_dict["urlCache"] = url_cache
        if http_should_set_cookies is not UNSET:
            field_dict["httpShouldSetCookies"] = http_should_set_cookies
        if http_cookie_accept_policy is not UNSET:
            field_dict["httpCookieAcceptPolicy"] = http_cookie_accept_policy
        if http_cookie_storage is not UNSET:
            field_dict["httpCookieStorage"] = http_cookie_storage
        if url_credential_storage is not UNSET:
            field_dict["urlCredentialStorage"] = url_credential_storage
        if allows_cellular_access is not UNSET:
            field_dict["allowsCellularAccess"] = allows_cellular_access
        if allows_expensive_network_access is not UNSET:
            field_dict["allowsExpensiveNetworkAccess"] = allows_expensive_network_access
        if allows_constrained_network_access is not UNSET:
            field_dict["allowsConstrainedNetworkAccess"] = allows_constrained_network_access
        if waits_for_connectivity is not UNSET:
            field_dict["waitsForConnectivity"] = waits_for_connectivity
        if is_discretionary is not UNSET:
            field_dict["isDiscretionary"] = is_discretionary
        if session_sends_launch_events is not UNSET:
            field_dict["sessionSendsLaunchEvents"] = session_sends_launch_events
        if should_use_extended_background_idle_mode is not UNSET:
            field_dict["shouldUseExtendedBackgroundIdleMode"] = should_use_extended_background_idle_mode
        if shared_container_identifier is not UNSET:
            field_dict["sharedContainerIdentifier"] = shared_container_identifier
        if requires_dnssec_validation is not UNSET:
            field_dict["requiresDNSSECValidation"] = requires_dnssec_validation
        if tls_minimum_supported_protocol_version is not UNSET:
            field_dict["tlsMinimumSupportedProtocolVersion"] = tls_minimum_supported_protocol_version
        if tls_maximum_supported_protocol_version is not UNSET:
            field_dict["tlsMaximumSupportedProtocolVersion"] = tls_maximum_supported_protocol_version
        if connection_proxy_dictionary is not UNSET:
            field_dict["connectionProxyDictionary"] = connection_proxy_dictionary
        if network_service_type is not UNSET:
            field_dict["networkServiceType"] = network_service_type
        if multipath_service_type is not UNSET:
            field_dict["multipathServiceType"] = multipath_service_type
        if server_trust is not UNSET:
            field_dict["serverTrust"] = server_trust
        if segments is not UNSET:
            field_dict["segments"] = segments
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.http_header_fields import HTTPHeaderFields
        from ..models.proxy_dictionary import ProxyDictionary
        from ..models.rate_limit import RateLimit
        from ..models.segments_input import SegmentsInput
        from ..models.server_trust_configuration import ServerTrustConfiguration
        from ..models.url_cache_configuration_input import URLCacheConfigurationInput

        d = dict(src_dict)

        def _parse_kind(data: object) -> None | SessionKind | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = SessionKind(data)

                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionKind | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        def _parse_identifier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        identifier = _parse_identifier(d.pop("identifier", UNSET))

        def _parse_http_additional_headers(data: object) -> HTTPHeaderFields | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                http_additional_headers_type_0 = HTTPHeaderFields.from_dict(data)

                return http_additional_headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HTTPHeaderFields | None | Unset, data)

        http_additional_headers = _parse_http_additional_headers(d.pop("httpAdditionalHeaders", UNSET))

        def _parse_timeout_interval_for_request(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timeout_interval_for_request = _parse_timeout_interval_for_request(d.pop("timeoutIntervalForRequest", UNSET))

        def _parse_timeout_interval_for_resource(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timeout_interval_for_resource = _parse_timeout_interval_for_resource(d.pop("timeoutIntervalForResource", UNSET))

        def _parse_http_maximum_connections_per_host(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        http_maximum_connections_per_host = _parse_http_maximum_connections_per_host(
            d.pop("httpMaximumConnectionsPerHost", UNSET)
        )

        def _parse_http_should_use_pipelining(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        http_should_use_pipelining = _parse_http_should_use_pipelining(d.pop("httpShouldUsePipelining", UNSET))

        def _parse_request_cache_policy(data: object) -> None | RequestCachePolicy | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_cache_policy_type_0 = RequestCachePolicy(data)

                return request_cache_policy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RequestCachePolicy | Unset, data)

        request_cache_policy = _parse_request_cache_policy(d.pop("requestCachePolicy", UNSET))

        def _parse_url_cache(data: object) -> None | Unset | URLCacheConfigurationInput:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                url_cache_type_0 = URLCacheConfigurationInput.from_dict(data)

                return url_cache_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | URLCacheConfigurationInput, data)

        url_cache = _parse_url_cache(d.pop("urlCache", UNSET))

        def _parse_http_should_set_cookies(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        http_should_set_cookies = _parse_http_should_set_cookies(d.pop("httpShouldSetCookies", UNSET))

        def _parse_http_cookie_accept_policy(data: object) -> HTTPCookieAcceptPolicy | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                http_cookie_accept_policy_type_0 = HTTPCookieAcceptPolicy(data)

                return http_cookie_accept_policy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HTTPCookieAcceptPolicy | None | Unset, data)

        http_cookie_accept_policy = _parse_http_cookie_accept_policy(d.pop("httpCookieAcceptPolicy", UNSET))

        def _parse_http_cookie_storage(data: object) -> None | StorageScope | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                http_cookie_storage_type_0 = StorageScope(data)

                return http_cookie_storage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StorageScope | Unset, data)

        http_cookie_storage = _parse_http_cookie_storage(d.pop("httpCookieStorage", UNSET))

        def _parse_url_credential_storage(data: object) -> None | StorageScope | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                url_credential_storage_type_0 = StorageScope(data)

                return url_credential_storage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StorageScope | Unset, data)

        url_credential_storage = _parse_url_credential_storage(d.pop("urlCredentialStorage", UNSET))

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

        def _parse_waits_for_connectivity(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        waits_for_connectivity = _parse_waits_for_connectivity(d.pop("waitsForConnectivity", UNSET))

        def _parse_is_discretionary(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_discretionary = _parse_is_discretionary(d.pop("isDiscretionary", UNSET))

        def _parse_session_sends_launch_events(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        session_sends_launch_events = _parse_session_sends_launch_events(d.pop("sessionSendsLaunchEvents", UNSET))

        def _parse_should_use_extended_background_idle_mode(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        should_use_extended_background_idle_mode = _parse_should_use_extended_background_idle_mode(
            d.pop("shouldUseExtendedBackgroundIdleMode", UNSET)
        )

        def _parse_shared_container_identifier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        shared_container_identifier = _parse_shared_container_identifier(d.pop("sharedContainerIdentifier", UNSET))

        def _parse_requires_dnssec_validation(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        requires_dnssec_validation = _parse_requires_dnssec_validation(d.pop("requiresDNSSECValidation", UNSET))

        def _parse_tls_minimum_supported_protocol_version(data: object) -> None | TLSProtocolVersion | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tls_minimum_supported_protocol_version_type_0 = TLSProtocolVersion(data)

                return tls_minimum_supported_protocol_version_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TLSProtocolVersion | Unset, data)

        tls_minimum_supported_protocol_version = _parse_tls_minimum_supported_protocol_version(
            d.pop("tlsMinimumSupportedProtocolVersion", UNSET)
        )

        def _parse_tls_maximum_supported_protocol_version(data: object) -> None | TLSProtocolVersion | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tls_maximum_supported_protocol_version_type_0 = TLSProtocolVersion(data)

                return tls_maximum_supported_protocol_version_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TLSProtocolVersion | Unset, data)

        tls_maximum_supported_protocol_version = _parse_tls_maximum_supported_protocol_version(
            d.pop("tlsMaximumSupportedProtocolVersion", UNSET)
        )

        def _parse_connection_proxy_dictionary(data: object) -> None | ProxyDictionary | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                connection_proxy_dictionary_type_0 = ProxyDictionary.from_dict(data)

                return connection_proxy_dictionary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProxyDictionary | Unset, data)

        connection_proxy_dictionary = _parse_connection_proxy_dictionary(d.pop("connectionProxyDictionary", UNSET))

        def _parse_network_service_type(data: object) -> NetworkServiceType | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                network_service_type_type_0 = NetworkServiceType(data)

                return network_service_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NetworkServiceType | None | Unset, data)

        network_service_type = _parse_network_service_type(d.pop("networkServiceType", UNSET))

        def _parse_multipath_service_type(data: object) -> MultipathServiceType | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                multipath_service_type_type_0 = MultipathServiceType(data)

                return multipath_service_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MultipathServiceType | None | Unset, data)

        multipath_service_type = _parse_multipath_service_type(d.pop("multipathServiceType", UNSET))

        def _parse_server_trust(data: object) -> None | ServerTrustConfiguration | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                server_trust_type_0 = ServerTrustConfiguration.from_dict(data)

                return server_trust_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ServerTrustConfiguration | Unset, data)

        server_trust = _parse_server_trust(d.pop("serverTrust", UNSET))

        def _parse_segments(data: object) -> None | SegmentsInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                segments_type_0 = SegmentsInput.from_dict(data)

                return segments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SegmentsInput | Unset, data)

        segments = _parse_segments(d.pop("segments", UNSET))

        def _parse_rate_limit(data: object) -> None | RateLimit | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_0 = RateLimit.from_dict(data)

                return rate_limit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit", UNSET))

        session_configuration_input = cls(
            kind=kind,
            identifier=identifier,
            http_additional_headers=http_additional_headers,
            timeout_interval_for_request=timeout_interval_for_request,
            timeout_interval_for_resource=timeout_interval_for_resource,
            http_maximum_connections_per_host=http_maximum_connections_per_host,
            http_should_use_pipelining=http_should_use_pipelining,
            request_cache_policy=request_cache_policy,
            url_cache=url_cache,
            http_should_set_cookies=http_should_set_cookies,
            http_cookie_accept_policy=http_cookie_accept_policy,
            http_cookie_storage=http_cookie_storage,
            url_credential_storage=url_credential_storage,
            allows_cellular_access=allows_cellular_access,
            allows_expensive_network_access=allows_expensive_network_access,
            allows_constrained_network_access=allows_constrained_network_access,
            waits_for_connectivity=waits_for_connectivity,
            is_discretionary=is_discretionary,
            session_sends_launch_events=session_sends_launch_events,
            should_use_extended_background_idle_mode=should_use_extended_background_idle_mode,
            shared_container_identifier=shared_container_identifier,
            requires_dnssec_validation=requires_dnssec_validation,
            tls_minimum_supported_protocol_version=tls_minimum_supported_protocol_version,
            tls_maximum_supported_protocol_version=tls_maximum_supported_protocol_version,
            connection_proxy_dictionary=connection_proxy_dictionary,
            network_service_type=network_service_type,
            multipath_service_type=multipath_service_type,
            server_trust=server_trust,
            segments=segments,
            rate_limit=rate_limit,
        )

        return session_configuration_input
