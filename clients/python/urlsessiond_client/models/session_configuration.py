from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.http_cookie_accept_policy import HTTPCookieAcceptPolicy
from ..models.multipath_service_type import MultipathServiceType
from ..models.network_service_type import NetworkServiceType
from ..models.request_cache_policy import RequestCachePolicy
from ..models.session_kind import SessionKind
from ..models.storage_scope import StorageScope
from ..models.tls_protocol_version import TLSProtocolVersion

if TYPE_CHECKING:
    from ..models.http_header_fields import HTTPHeaderFields
    from ..models.private_url_cache_configuration import PrivateURLCacheConfiguration
    from ..models.proxy_dictionary import ProxyDictionary
    from ..models.rate_limit import RateLimit
    from ..models.segments import Segments
    from ..models.server_trust_configuration import ServerTrustConfiguration
    from ..models.shared_url_cache_configuration import SharedURLCacheConfiguration


T = TypeVar("T", bound="SessionConfiguration")


@_attrs_define
class SessionConfiguration:
    """A session's normalized `URLSessionConfiguration`: every property the service honours, with its
    effective value (absent ones as explicit null). Defaults per kind and accepted values:

    | field | default | ephemeral | background | accepted |
    |---|---|---|---|---|
    | kind | default | | | default, ephemeral, background |
    | identifier | null | null | required | 1–255 characters of `[A-Za-z0-9._-]`; required for background, forbidden for
    the others |
    | httpAdditionalHeaders | {} | {} | {} | object of strings; names are RFC 9110 tokens, values without CR/LF/NUL |
    | timeoutIntervalForRequest | 60 | 60 | 60 | > 0, ≤ 604800 |
    | timeoutIntervalForResource | 604800 | 604800 | 604800 | > 0, ≤ 2592000 |
    | httpMaximumConnectionsPerHost | 6 | 6 | 6 | 1…64 |
    | httpShouldUsePipelining | false | false | false | bool |
    | requestCachePolicy | useProtocolCachePolicy | same | same | useProtocolCachePolicy, reloadIgnoringLocalCacheData,
    reloadIgnoringLocalAndRemoteCacheData, returnCacheDataElseLoad, returnCacheDataDontLoad, reloadRevalidatingCacheData
    |
    | urlCache | {"storage": "shared"} | {"storage": "private", "memoryCapacity": 512000, "diskCapacity": 0} | as
    default | null = no cache; {"storage": "shared"} (no capacities: the service's `URLSESSIOND_SHARED_CACHE_MEMORY`,
    default 512000, and `URLSESSIOND_SHARED_CACHE_DISK`, default 10000000; ephemeral: not shared); {"storage":
    "private", "memoryCapacity", "diskCapacity"} (storage defaults to private; capacities ≥ 0, memory ≤ 1 GiB, disk ≤ 1
    TiB, default 512000 and 10000000; ephemeral: diskCapacity 0) |
    | httpShouldSetCookies | true | true | true | bool |
    | httpCookieAcceptPolicy | onlyFromMainDocumentDomain | same | same | always, never, onlyFromMainDocumentDomain |
    | httpCookieStorage | shared | private | shared | shared, private, none (ephemeral: not shared) |
    | urlCredentialStorage | shared | private | shared | shared, private, none (ephemeral: not shared) |
    | allowsCellularAccess / allowsExpensiveNetworkAccess / allowsConstrainedNetworkAccess | true | true | true | bool |
    | waitsForConnectivity | false | false | true | bool (background: must be true) |
    | isDiscretionary | false | false | false | bool |
    | sessionSendsLaunchEvents | true | true | true | bool |
    | shouldUseExtendedBackgroundIdleMode | false | false | false | bool |
    | sharedContainerIdentifier | null | null | null | 1–255 characters, no NUL |
    | requiresDNSSECValidation | false | false | false | false (true is 422) |
    | tlsMinimumSupportedProtocolVersion | TLSv12 | same | same | TLSv10, TLSv11, TLSv12, TLSv13 (min ≤ max) |
    | tlsMaximumSupportedProtocolVersion | TLSv13 | same | same | as above |
    | connectionProxyDictionary | null | null | null | object with HTTPEnable, HTTPProxy, HTTPPort, HTTPSEnable,
    HTTPSProxy, HTTPSPort, SOCKSEnable, SOCKSProxy, SOCKSPort (bools, host strings, ports 1…65535), SOCKSUser,
    SOCKSPassword (write-only, together, 1…255 bytes), ExceptionsList (array of host patterns) |
    | networkServiceType | default | same | same | default, video, background, voice, responsiveData, avStreaming,
    responsiveAV, callSignaling |
    | multipathServiceType | none | none | none | none, handover, interactive, aggregate (see `MultipathServiceType`) |
    | segments | null | null | null | beyond URLSession: `{"max": 1…16, "minSize": 65536…2^40 (default 1048576)}`, the
    download tasks' default (see `Segments`) |
    | rateLimit | null | null | null | beyond URLSession: a bandwidth limit shared by the session's transfers (see
    `RateLimit`) |

    Where the service differs from URLSession: cookie and credential storages and the URL cache are
    named scopes (`StorageScope`) rather than objects; a private cache also gives its capacities.

    Cookies are honoured (RFC 6265 with 6265bis's Secure rules and prefixes, the public suffix list):
    kept from every response of a task, redirects included, and sent with every request, in the
    storage `httpCookieStorage` names (`shared`: the tenant's; `private`: the session's; `none`), unless
    `httpShouldSetCookies` or the request's `httpShouldHandleCookies` is false. `httpCookieAcceptPolicy`
    `never` keeps no new cookie but sends the stored ones; `onlyFromMainDocumentDomain` keeps only
    cookies from the site (registrable domain) of the request's `mainDocumentURL`, and all of them when
    the request has none. Cookies with an expiry date outlive restarts
    (written within a quarter second, on `flush` and at shutdown); session cookies, and every cookie of
    an ephemeral session, stay in memory, as does a cookie whose name, domain and path together exceed
    2048 bytes (the store's key of a cookie; PostgreSQL's index holds keys of at most 2704 bytes).

    Credentials are kept in the storage `urlCredentialStorage` names (`shared`: the tenant's, the one
    of `/v1/credentials` without `sessionId`; `private`: the session's own, `?sessionId=`; `none`: no
    credential is stored nor used). `permanent` credentials are written to the store with the
    password sealed (AES-GCM with the service's key) and outlive restarts, except in an ephemeral
    session's storage, which keeps everything in memory; `forSession` ones live in memory for the
    storage's life (the service's run for the shared storage, the session's for a private one). A
    private storage goes when its session is invalidated. Passwords and private keys are never
    returned nor logged. Unless the delegate decides (see `ChallengeDecision`), HTTP Basic, Digest
    and NTLM challenges (401 with `WWW-Authenticate`, or a proxy's 407) are answered with the default
    credential stored for their protection space, Negotiate with the service's own Kerberos
    credentials, a server's request for a client certificate with the identity stored for its host
    and port, and a server's chain by the system evaluation (`serverTrust` below) then the trust
    exceptions stored for its host and port.

    The URL cache (`urlCache`) is an RFC 9111 private cache. Only GET requests without a body use it.
    A response is stored when it is storable: status 200, 203, 204, 300, 301, 308, 404, 405, 410, 414
    or 501, or explicit freshness (`max-age`, `Expires`, `public`, `private`); no `no-store` in the
    request or the response; no `Vary: *`. Redirects (3xx), 401 and 407 (challenges) and 206 are never
    stored. Entries are keyed by the final URL (after redirects); lookups are made for the task's
    request URL only (a redirect hop goes to the network). One entry per URL: a request whose `Vary`
    fields do not match the stored ones loads from the network and replaces it. Each cache has a
    memory and a disk tier, each bounded by its capacity with least-recently-used eviction; a response
    (body plus header fields) larger than 5% of a tier's capacity does not go to that tier (one no
    tier takes is not stored, and what was stored for its URL is removed); a response whose URL is
    longer than 2048 bytes (the store's key of an entry) is kept in memory only. The disk tier's rows are
    written within a quarter second (and on `flush` and at shutdown) with bodies up to 64 KiB, larger
    bodies as files under `<data>/cache`; an ephemeral session's cache is in memory only. A request of another method
    (POST, PUT, DELETE, PATCH, ...) answered 2xx or 3xx invalidates its URL and the same-origin
    `Location` / `Content-Location`. The request's `cachePolicy` (default `requestCachePolicy`)
    decides how the cache is used (see `RequestCachePolicy`); a request carrying its own conditional
    fields (`If-None-Match`, `If-Modified-Since`, ...) or `Range` passes through the cache. A response
    served from the cache produces the same delegate events as a network load; its metrics
    transaction has `resourceFetchType: localCache`, while a revalidated response is a `networkLoad`
    whose transaction's response is the 304. Downloads are cached too (without
    `dataTask.willCacheResponse`, as in URLSession). The cache's usage and entries are at
    `/v1/sessions/{id}/cache`.

    `allowsCellularAccess`, `allowsExpensiveNetworkAccess` and `allowsConstrainedNetworkAccess` choose
    among the host's network paths, and `waitsForConnectivity` decides what a task does when none is
    usable (see `GET /v1/networks`). `networkServiceType` marks the task's sockets with a DSCP (the
    TOS byte, `IP_TOS` / `IPV6_TCLASS`), as Apple's service classes map: `background` CS1,
    `responsiveData` AF21, `avStreaming`, `responsiveAV` and `video` AF41, `voice` EF,
    `callSignaling` CS3; `default` leaves the system's. `connectionProxyDictionary` absent or null uses
    the system proxy (the path's own proxy, else the operator's `URLSESSIOND_PROXY`, except the hosts
    of `URLSESSIOND_NO_PROXY`); `{}` is a direct connection; a dictionary with a proxy wins; a
    proxy's 407 is answered from credential storage (`isProxy` spaces). `multipathServiceType` other
    than `none` opens the task's connections as Multipath TCP with subflows over the service's other
    network paths (`MultipathServiceType` says what each value does here and what needs
    `CAP_NET_ADMIN`).

    Accepted for compatibility, with no effect: `httpShouldUsePipelining` (libcurl has no HTTP/1.1
    pipelining since 7.62; HTTP/2 multiplexes where the origin offers it),
    `shouldUseExtendedBackgroundIdleMode` (a server has no app suspension) and
    `sharedContainerIdentifier` (a server has no app extensions: downloads stay in the service).
    `requiresDNSSECValidation` is always false: names are resolved by the system's `getaddrinfo`
    through libcurl, which reports no DNSSEC validation, so a session asking for it is refused (422)
    rather than given lookups it could not tell from validated ones.

        Attributes:
            kind (SessionKind): The `URLSessionConfiguration` constructor: `.default`, `.ephemeral`,
                `.background(withIdentifier:)`.
            identifier (None | str): The background session's identifier; null for the other kinds.
            http_additional_headers (HTTPHeaderFields): Header fields by name. Names are RFC 9110 tokens of at most 256
                bytes; values are at most
                8192 bytes, without CR, LF or NUL; at most 100 fields.
            timeout_interval_for_request (float):
            timeout_interval_for_resource (float):
            http_maximum_connections_per_host (int):
            http_should_use_pipelining (bool):
            request_cache_policy (RequestCachePolicy): `NSURLRequest.CachePolicy`: how a GET request without a body uses the
                session's URL cache (other
                requests go to the network as they are; in a session whose `urlCache` is null nothing is ever
                stored, as if the cache were empty):
                - `useProtocolCachePolicy`: RFC 9111. A fresh stored response is served (freshness from
                  `max-age`, else `Expires`, else heuristically 10% of the time since `Last-Modified`; the
                  request's `max-age`, `min-fresh` and `max-stale` apply). Invalid freshness gives none: a
                  `max-age` that is not digits (`3600.5`) counts as 0, and an `Expires` that is not an HTTP-date
                  of RFC 9110 §5.6.7 (IMF-fixdate in GMT, or the obsolete RFC 850 and asctime forms; a zone such
                  as `UTC`, `0`) or that comes in several fields is already expired. One that may not be served so (stale,
                  `no-cache` in the response or the request, `Pragma: no-cache`, stale with `must-revalidate`)
                  is revalidated with `If-None-Match` / `If-Modified-Since`, and a 304 answer is merged into the
                  stored response and served; without validators it is loaded again. A stale response within
                  its `stale-while-revalidate` window (RFC 5861 §3; not with `must-revalidate` or `no-cache`, nor
                  past the request's `max-age`) is served at once, and the cache revalidates it in the
                  background, as URLSession does: one conditional request per cached URL at a time, under the
                  session's rules (cookies, credentials, proxy, path, egress), counted in the tenant's share of
                  transfers, seen by no task or delegate; its 304 refreshes the stored response and a new 200
                  replaces it. A served response carries `Age` (RFC 9111 §4.2.3). A request with one byte
                  `Range` and no condition of its own is answered from a fresh stored whole (200) response as a
                  206 with `Content-Range` (RFC 9111 §3.4; a body kept only in a large file is not sliced: the
                  request goes to the origin); with `If-Range` or any `If-…` field it goes to the origin. A request with
                  `Cache-Control: only-if-cached` that cannot be served from the cache fails with -2000.
                - `reloadIgnoringLocalCacheData`: loads from the network without looking at the cache (the
                  response may still be stored).
                - `reloadIgnoringLocalAndRemoteCacheData`: as `reloadIgnoringLocalCacheData`, and sends
                  `Cache-Control: no-cache` and `Pragma: no-cache` so intermediaries do not answer from theirs.
                - `returnCacheDataElseLoad`: a stored response whatever its age, else a network load.
                - `returnCacheDataDontLoad`: a stored response whatever its age; without one the task fails with
                  -2000 `cannotLoadFromNetwork` and nothing reaches the origin.
                - `reloadRevalidatingCacheData`: a stored response is always revalidated with the origin first
                  (loaded again when it has no validators).

                A request carrying its own conditional fields (`If-None-Match`, `If-Modified-Since`, `If-Match`,
                `If-Unmodified-Since`, `If-Range`) or `Range` passes through the cache to the origin (under
                `returnCacheDataDontLoad` or `only-if-cached` it fails with -2000).

                A response served from the cache without asking the origin carries an `Age` field (RFC 9111 §4):
                its current age in whole seconds (§4.2.3, counting the `Age` and `Date` it arrived with and the time
                stored), in place of any `Age` it was stored with. The stored entry (`…/cache/entry`) keeps the
                fields as they arrived.
            url_cache (None | PrivateURLCacheConfiguration | SharedURLCacheConfiguration): `{"storage": "shared"}` (the
                tenant's shared cache) or `{"storage": "private", "memoryCapacity",
                "diskCapacity"}`; null when the session caches nothing.
            http_should_set_cookies (bool):
            http_cookie_accept_policy (HTTPCookieAcceptPolicy): `HTTPCookie.AcceptPolicy`.
            http_cookie_storage (StorageScope): Which storage holds the session's cookies or credentials (or, in
                `URLCacheUsage`, which URL cache
                it uses): `shared`, the tenant's persistent one (`HTTPCookieStorage.shared`,
                `URLCredentialStorage.shared`, `URLCache.shared`); `private`, one of this session only (what an
                ephemeral configuration gets), gone when the session is invalidated, and kept in memory only for
                an ephemeral session (otherwise a private URL cache has a disk tier and a private credential
                storage keeps its `permanent` credentials in the store); `none`, no storage (the configuration's
                property set to nil).
            url_credential_storage (StorageScope): Which storage holds the session's cookies or credentials (or, in
                `URLCacheUsage`, which URL cache
                it uses): `shared`, the tenant's persistent one (`HTTPCookieStorage.shared`,
                `URLCredentialStorage.shared`, `URLCache.shared`); `private`, one of this session only (what an
                ephemeral configuration gets), gone when the session is invalidated, and kept in memory only for
                an ephemeral session (otherwise a private URL cache has a disk tier and a private credential
                storage keeps its `permanent` credentials in the store); `none`, no storage (the configuration's
                property set to nil).
            allows_cellular_access (bool):
            allows_expensive_network_access (bool):
            allows_constrained_network_access (bool):
            waits_for_connectivity (bool):
            is_discretionary (bool):
            session_sends_launch_events (bool):
            should_use_extended_background_idle_mode (bool):
            shared_container_identifier (None | str): Kept with no effect.
            requires_dnssec_validation (bool): Always false here (see above).
            tls_minimum_supported_protocol_version (TLSProtocolVersion): `tls_protocol_version_t`.
            tls_maximum_supported_protocol_version (TLSProtocolVersion): `tls_protocol_version_t`.
            connection_proxy_dictionary (None | ProxyDictionary): Null for a direct connection.
            network_service_type (NetworkServiceType): `NSURLRequest.NetworkServiceType` (without the deprecated `voip`):
                the DSCP the task's sockets
                carry (see `SessionConfiguration`); `default` leaves the system's.
            multipath_service_type (MultipathServiceType): `URLSessionConfiguration.MultipathServiceType`: whether the
                session's connections are Multipath TCP
                (RFC 8684) and how their extra subflows are used. Linux's in-kernel path manager does the work;
                the service's network paths (`GET /v1/networks`) are its subflow endpoints.
                - `none`: plain TCP sockets (the default).
                - `handover`: Multipath TCP sockets. The connection starts on the path the session's flags choose;
                  every other available path gets a *backup* subflow, which the peer sends on only when the
                  non-backup subflows fail. When the first path goes down the same connection carries on over the
                  backup: no -1005, no second request.
                - `interactive`: Multipath TCP sockets with a non-backup subflow on every available path; Linux's
                  default scheduler sends each packet on the subflow that can deliver it soonest (the
                  lowest-latency path; another when it is slow or full).
                - `aggregate`: the same subflows and scheduler as `interactive` (Linux has no per-socket
                  scheduler choice): all paths are used together once one is full. Here the two behave alike.

                A peer that does not speak Multipath TCP gets plain TCP on the same socket (the kernel falls back),
                and a kernel that refuses `IPPROTO_MPTCP` sockets gets plain TCP sockets. Setting the endpoints
                (`ip mptcp endpoint`, `ip mptcp limits`) needs `CAP_NET_ADMIN` and iproute2's `ip` in the service's
                network namespace: without them the service logs a warning once and changes nothing, so sockets
                are still Multipath TCP but get subflows only from endpoints an operator configured. The endpoints
                belong to the network namespace, not to a socket: while any `interactive` or `aggregate` transfer
                is in use, the other paths are non-backup endpoints for every multipath connection (a `handover`
                session's included); when none is, they are backups again. Subflows use every available path the
                service knows whatever the session's `allowsCellularAccess`, `allowsExpensiveNetworkAccess` and
                `allowsConstrainedNetworkAccess` say (those flags choose the first path only). WebSocket and
                stream tasks get Multipath TCP sockets too, but still end when their first path goes down. The
                egress policy judges the address a connection is opened to, and every subflow goes to that same
                address: the service never raises the kernel's `add_addr_accepted` (0 by default), and warns when
                an operator has, since subflows would then follow addresses a peer announces.
            server_trust (None | ServerTrustConfiguration): The session's public-key pins and anchors; null for the system
                evaluation alone.
            segments (None | Segments): The `segments` the session's download tasks get unless they bring their own; null
                for one connection.
            rate_limit (None | RateLimit): The session's bandwidth limit, shared fairly by its transfers; null for none.
    """

    kind: SessionKind
    identifier: None | str
    http_additional_headers: HTTPHeaderFields
    timeout_interval_for_request: float
    timeout_interval_for_resource: float
    http_maximum_connections_per_host: int
    http_should_use_pipelining: bool
    request_cache_policy: RequestCachePolicy
    url_cache: None | PrivateURLCacheConfiguration | SharedURLCacheConfiguration
    http_should_set_cookies: bool
    http_cookie_accept_policy: HTTPCookieAcceptPolicy
    http_cookie_storage: StorageScope
    url_credential_storage: StorageScope
    allows_cellular_access: bool
    allows_expensive_network_access: bool
    allows_constrained_network_access: bool
    waits_for_connectivity: bool
    is_discretionary: bool
    session_sends_launch_events: bool
    should_use_extended_background_idle_mode: bool
    shared_container_identifier: None | str
    requires_dnssec_validation: bool
    tls_minimum_supported_protocol_version: TLSProtocolVersion
    tls_maximum_supported_protocol_version: TLSProtocolVersion
    connection_proxy_dictionary: None | ProxyDictionary
    network_service_type: NetworkServiceType
    multipath_service_type: MultipathServiceType
    server_trust: None | ServerTrustConfiguration
    segments: None | Segments
    rate_limit: None | RateLimit
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.private_url_cache_configuration import PrivateURLCacheConfiguration
        from ..models.proxy_dictionary import ProxyDictionary
        from ..models.rate_limit import RateLimit
        from ..models.segments import Segments
        from ..models.server_trust_configuration import ServerTrustConfiguration
        from ..models.shared_url_cache_configuration import SharedURLCacheConfiguration

        kind = self.kind.value

        identifier: None | str
        identifier = self.identifier

        http_additional_headers = self.http_additional_headers.to_dict()

        timeout_interval_for_request = self.timeout_interval_for_request

        timeout_interval_for_resource = self.timeout_interval_for_resource

        http_maximum_connections_per_host = self.http_maximum_connections_per_host

        http_should_use_pipelining = self.http_should_use_pipelining

        request_cache_policy = self.request_cache_policy.value

        url_cache: dict[str, Any] | None
        if isinstance(self.url_cache, SharedURLCacheConfiguration) or isinstance(
            self.url_cache, PrivateURLCacheConfiguration
        ):
            url_cache = self.url_cache.to_dict()
        else:
            url_cache = self.url_cache

        http_should_set_cookies = self.http_should_set_cookies

        http_cookie_accept_policy = self.http_cookie_accept_policy.value

        http_cookie_storage = self.http_cookie_storage.value

        url_credential_storage = self.url_credential_storage.value

        allows_cellular_access = self.allows_cellular_access

        allows_expensive_network_access = self.allows_expensive_network_access

        allows_constrained_network_access = self.allows_constrained_network_access

        waits_for_connectivity = self.waits_for_connectivity

        is_discretionary = self.is_discretionary

        session_sends_launch_events = self.session_sends_launch_events

        should_use_extended_background_idle_mode = self.should_use_extended_background_idle_mode

        shared_container_identifier: None | str
        shared_container_identifier = self.shared_container_identifier

        requires_dnssec_validation = self.requires_dnssec_validation

        tls_minimum_supported_protocol_version = self.tls_minimum_supported_protocol_version.value

        tls_maximum_supported_protocol_version = self.tls_maximum_supported_protocol_version.value

        connection_proxy_dictionary: dict[str, Any] | None
        if isinstance(self.connection_proxy_dictionary, ProxyDictionary):
            connection_proxy_dictionary = self.connection_proxy_dictionary.to_dict()
        else:
            connection_proxy_dictionary = self.connection_proxy_dictionary

        network_service_type = self.network_service_type.value

        multipath_service_type = self.multipath_service_type.value

        server_trust: dict[str, Any] | None
        if isinstance(self.server_trust, ServerTrustConfiguration):
            server_trust = self.server_trust.to_dict()
        else:
            server_trust = self.server_trust

        segments: dict[str, Any] | None
        if isinstance(self.segments, Segments):
            segments = self.segments.to_dict()
        else:
            segments = self.segments

        rate_limit: dict[str, Any] | None
        if isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "identifier": identifier,
                "httpAdditionalHeaders": http_additional_headers,
                "timeoutIntervalForRequest": timeout_interval_for_request,
                "timeoutIntervalForResource": timeout_interval_for_resource,
                "httpMaximumConnectionsPerHost": http_maximum_connections_per_host,
                "httpShouldUsePipelining": http_should_use_pipelining,
                "requestCachePolicy": request_cache_policy,
                "urlCache": url_cache,
                "httpShouldSetCookies": http_should_set_cookies,
                "httpCookieAcceptPolicy": http_cookie_accept_policy,
                "httpCookieStorage": http_cookie_storage,
                "urlCredentialStorage": url_credential_storage,
                "allowsCellularAccess": allows_cellular_access,
                "allowsExpensiveNetworkAccess": allows_expensive_network_access,
                "allowsConstrainedNetworkAccess": allows_constrained_network_access,
                "waitsForConnectivity": waits_for_connectivity,
                "isDiscretionary": is_discretionary,
                "sessionSendsLaunchEvents": session_sends_launch_events,
                "shouldUseExtendedBackgroundIdleMode": should_use_extended_background_idle_mode,
                "sharedContainerIdentifier": shared_container_identifier,
                "requiresDNSSECValidation": requires_dnssec_validation,
                "tlsMinimumSupportedProtocolVersion": tls_minimum_supported_protocol_version,
                "tlsMaximumSupportedProtocolVersion": tls_maximum_supported_protocol_version,
                "connectionProxyDictionary": connection_proxy_dictionary,
                "networkServiceType": network_service_type,
                "multipathServiceType": multipath_service_type,
                "serverTrust": server_trust,
                "segments": segments,
                "rateLimit": rate_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.http_header_fields import HTTPHeaderFields
        from ..models.private_url_cache_configuration import PrivateURLCacheConfiguration
        from ..models.proxy_dictionary import ProxyDictionary
        from ..models.rate_limit import RateLimit
        from ..models.segments import Segments
        from ..models.server_trust_configuration import ServerTrustConfiguration
        from ..models.shared_url_cache_configuration import SharedURLCacheConfiguration

        d = dict(src_dict)
        kind = SessionKind(d.pop("kind"))

        def _parse_identifier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        identifier = _parse_identifier(d.pop("identifier"))

        http_additional_headers = HTTPHeaderFields.from_dict(d.pop("httpAdditionalHeaders"))

        timeout_interval_for_request = d.pop("timeoutIntervalForRequest")

        timeout_interval_for_resource = d.pop("timeoutIntervalForResource")

        http_maximum_connections_per_host = d.pop("httpMaximumConnectionsPerHost")

        http_should_use_pipelining = d.pop("httpShouldUsePipelining")

        request_cache_policy = RequestCachePolicy(d.pop("requestCachePolicy"))

        def _parse_url_cache(data: object) -> None | PrivateURLCacheConfiguration | SharedURLCacheConfiguration:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_url_cache_configuration_type_0 = SharedURLCacheConfiguration.from_dict(data)

                return componentsschemas_url_cache_configuration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_url_cache_configuration_type_1 = PrivateURLCacheConfiguration.from_dict(data)

                return componentsschemas_url_cache_configuration_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PrivateURLCacheConfiguration | SharedURLCacheConfiguration, data)

        url_cache = _parse_url_cache(d.pop("urlCache"))

        http_should_set_cookies = d.pop("httpShouldSetCookies")

        http_cookie_accept_policy = HTTPCookieAcceptPolicy(d.pop("httpCookieAcceptPolicy"))

        http_cookie_storage = StorageScope(d.pop("httpCookieStorage"))

        url_credential_storage = StorageScope(d.pop("urlCredentialStorage"))

        allows_cellular_access = d.pop("allowsCellularAccess")

        allows_expensive_network_access = d.pop("allowsExpensiveNetworkAccess")

        allows_constrained_network_access = d.pop("allowsConstrainedNetworkAccess")

        waits_for_connectivity = d.pop("waitsForConnectivity")

        is_discretionary = d.pop("isDiscretionary")

        session_sends_launch_events = d.pop("sessionSendsLaunchEvents")

        should_use_extended_background_idle_mode = d.pop("shouldUseExtendedBackgroundIdleMode")

        def _parse_shared_container_identifier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        shared_container_identifier = _parse_shared_container_identifier(d.pop("sharedContainerIdentifier"))

        requires_dnssec_validation = d.pop("requiresDNSSECValidation")

        tls_minimum_supported_protocol_version = TLSProtocolVersion(d.pop("tlsMinimumSupportedProtocolVersion"))

        tls_maximum_supported_protocol_version = TLSProtocolVersion(d.pop("tlsMaximumSupportedProtocolVersion"))

        def _parse_connection_proxy_dictionary(data: object) -> None | ProxyDictionary:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                connection_proxy_dictionary_type_0 = ProxyDictionary.from_dict(data)

                return connection_proxy_dictionary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProxyDictionary, data)

        connection_proxy_dictionary = _parse_connection_proxy_dictionary(d.pop("connectionProxyDictionary"))

        network_service_type = NetworkServiceType(d.pop("networkServiceType"))

        multipath_service_type = MultipathServiceType(d.pop("multipathServiceType"))

        def _parse_server_trust(data: object) -> None | ServerTrustConfiguration:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                server_trust_type_0 = ServerTrustConfiguration.from_dict(data)

                return server_trust_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ServerTrustConfiguration, data)

        server_trust = _parse_server_trust(d.pop("serverTrust"))

        def _parse_segments(data: object) -> None | Segments:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                segments_type_0 = Segments.from_dict(data)

                return segments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Segments, data)

        segments = _parse_segments(d.pop("segments"))

        def _parse_rate_limit(data: object) -> None | RateLimit:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_0 = RateLimit.from_dict(data)

                return rate_limit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit"))

        session_configuration = cls(
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

        session_configuration.additional_properties = d
        return session_configuration

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
