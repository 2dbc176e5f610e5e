from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.session_state import SessionState

if TYPE_CHECKING:
    from ..models.delegate import Delegate
    from ..models.delegate_delivery import DelegateDelivery
    from ..models.session_configuration import SessionConfiguration


T = TypeVar("T", bound="Session")


@_attrs_define
class Session:
    """A `URLSession`.

    Attributes:
        id (str):
        configuration (SessionConfiguration): A session's normalized `URLSessionConfiguration`: every property the
            service honours, with its
            effective value (absent ones as explicit null). Defaults per kind and accepted values:

            | field | default | ephemeral | background | accepted |
            |---|---|---|---|---|
            | kind | default | | | default, ephemeral, background |
            | identifier | null | null | required | 1–255 characters of `[A-Za-z0-9._-]`; required for background, forbidden
            for the others |
            | httpAdditionalHeaders | {} | {} | {} | object of strings; names are RFC 9110 tokens, values without CR/LF/NUL
            |
            | timeoutIntervalForRequest | 60 | 60 | 60 | > 0, ≤ 604800 |
            | timeoutIntervalForResource | 604800 | 604800 | 604800 | > 0, ≤ 2592000 |
            | httpMaximumConnectionsPerHost | 6 | 6 | 6 | 1…64 |
            | httpShouldUsePipelining | false | false | false | bool |
            | requestCachePolicy | useProtocolCachePolicy | same | same | useProtocolCachePolicy,
            reloadIgnoringLocalCacheData, reloadIgnoringLocalAndRemoteCacheData, returnCacheDataElseLoad,
            returnCacheDataDontLoad, reloadRevalidatingCacheData |
            | urlCache | {"storage": "shared"} | {"storage": "private", "memoryCapacity": 512000, "diskCapacity": 0} | as
            default | null = no cache; {"storage": "shared"} (no capacities: the service's
            `URLSESSIOND_SHARED_CACHE_MEMORY`, default 512000, and `URLSESSIOND_SHARED_CACHE_DISK`, default 10000000;
            ephemeral: not shared); {"storage": "private", "memoryCapacity", "diskCapacity"} (storage defaults to private;
            capacities ≥ 0, memory ≤ 1 GiB, disk ≤ 1 TiB, default 512000 and 10000000; ephemeral: diskCapacity 0) |
            | httpShouldSetCookies | true | true | true | bool |
            | httpCookieAcceptPolicy | onlyFromMainDocumentDomain | same | same | always, never, onlyFromMainDocumentDomain
            |
            | httpCookieStorage | shared | private | shared | shared, private, none (ephemeral: not shared) |
            | urlCredentialStorage | shared | private | shared | shared, private, none (ephemeral: not shared) |
            | allowsCellularAccess / allowsExpensiveNetworkAccess / allowsConstrainedNetworkAccess | true | true | true |
            bool |
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
            | multipathServiceType | none | none | none | none, handover, interactive, aggregate (see
            `MultipathServiceType`) |
            | segments | null | null | null | beyond URLSession: `{"max": 1…16, "minSize": 65536…2^40 (default 1048576)}`,
            the download tasks' default (see `Segments`) |
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
            bodies as files under `<data>/cache`; an ephemeral session's cache is in memory only. A request of another
            method
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
        delegate (Delegate | None): Null for the system-provided delegate.
        session_description (None | str):
        state (SessionState): `valid`; `invalidating` after `finishTasksAndInvalidate` / `invalidateAndCancel` while
            tasks
            remain; `invalidated` once `session.didBecomeInvalidWithError` was sent.
        created_at (datetime.datetime):
        delivery (DelegateDelivery | None): How the delegate's webhooks are getting through, read when the session is
            answered; null
            without a delegate.
    """

    id: str
    configuration: SessionConfiguration
    delegate: Delegate | None
    session_description: None | str
    state: SessionState
    created_at: datetime.datetime
    delivery: DelegateDelivery | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.delegate import Delegate
        from ..models.delegate_delivery import DelegateDelivery

        id = self.id

        configuration = self.configuration.to_dict()

        delegate: dict[str, Any] | None
        if isinstance(self.delegate, Delegate):
            delegate = self.delegate.to_dict()
        else:
            delegate = self.delegate

        session_description: None | str
        session_description = self.session_description

        state = self.state.value

        created_at = self.created_at.isoformat()

        delivery: dict[str, Any] | None
        if isinstance(self.delivery, DelegateDelivery):
            delivery = self.delivery.to_dict()
        else:
            delivery = self.delivery

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "configuration": configuration,
                "delegate": delegate,
                "sessionDescription": session_description,
                "state": state,
                "createdAt": created_at,
                "delivery": delivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delegate import Delegate
        from ..models.delegate_delivery import DelegateDelivery
        from ..models.session_configuration import SessionConfiguration

        d = dict(src_dict)
        id = d.pop("id")

        configuration = SessionConfiguration.from_dict(d.pop("configuration"))

        def _parse_delegate(data: object) -> Delegate | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                delegate_type_0 = Delegate.from_dict(data)

                return delegate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Delegate | None, data)

        delegate = _parse_delegate(d.pop("delegate"))

        def _parse_session_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        session_description = _parse_session_description(d.pop("sessionDescription"))

        state = SessionState(d.pop("state"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_delivery(data: object) -> DelegateDelivery | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                delivery_type_0 = DelegateDelivery.from_dict(data)

                return delivery_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DelegateDelivery | None, data)

        delivery = _parse_delivery(d.pop("delivery"))

        session = cls(
            id=id,
            configuration=configuration,
            delegate=delegate,
            session_description=session_description,
            state=state,
            created_at=created_at,
            delivery=delivery,
        )

        session.additional_properties = d
        return session

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
