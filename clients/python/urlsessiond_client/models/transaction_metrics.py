from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tls_protocol_version import TLSProtocolVersion
from ..models.transaction_metrics_resource_fetch_type import TransactionMetricsResourceFetchType

if TYPE_CHECKING:
    from ..models.request import Request
    from ..models.response import Response


T = TypeVar("T", bound="TransactionMetrics")


@_attrs_define
class TransactionMetrics:
    """`URLSessionTaskTransactionMetrics`. Dates are null for the phases that did not happen (no DNS
    lookup on a reused connection, no TLS for `http`, everything but `fetchStartDate`,
    `responseStartDate` and `responseEndDate` for a response served from the URL cache).

        Attributes:
            request (Request): A `URLRequest`. In requests only `url` is required; the other properties default to the
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
            response (None | Response):
            fetch_start_date (datetime.datetime | None):
            domain_lookup_start_date (datetime.datetime | None):
            domain_lookup_end_date (datetime.datetime | None):
            connect_start_date (datetime.datetime | None):
            secure_connection_start_date (datetime.datetime | None):
            secure_connection_end_date (datetime.datetime | None):
            connect_end_date (datetime.datetime | None):
            request_start_date (datetime.datetime | None):
            request_end_date (datetime.datetime | None):
            response_start_date (datetime.datetime | None):
            response_end_date (datetime.datetime | None):
            network_protocol_name (None | str): ALPN name, e.g. `http/1.1`, `h2`.
            is_proxy_connection (bool):
            is_reused_connection (bool):
            resource_fetch_type (TransactionMetricsResourceFetchType): `URLSessionTaskMetrics.ResourceFetchType`:
                `networkLoad` for a request sent to the origin (a
                revalidation too, with the 304 as the transaction's `response`), or `localCache` for a response
                served from the URL cache (no connection dates, no bytes on the wire).
            count_of_request_header_bytes_sent (int):
            count_of_request_body_bytes_sent (int):
            count_of_request_body_bytes_before_encoding (int):
            count_of_response_header_bytes_received (int):
            count_of_response_body_bytes_received (int):
            count_of_response_body_bytes_after_decoding (int):
            local_address (None | str):
            local_port (int | None):
            remote_address (None | str):
            remote_port (int | None):
            negotiated_tls_protocol_version (None | TLSProtocolVersion): `tls_protocol_version_t`; null without TLS.
            negotiated_tls_cipher_suite (None | str): The `tls_ciphersuite_t` case name, e.g. `AES_128_GCM_SHA256`,
                `ECDHE_RSA_WITH_AES_256_GCM_SHA384`; null without TLS.
            is_cellular (bool): The request left by a cellular network path.
            is_expensive (bool): The request left by an expensive network path.
            is_constrained (bool): The request left by a constrained network path.
            is_multipath (bool): The request's connection was Multipath TCP with at least one subflow beyond its first when
                the
                request ended (`MPTCP_INFO`'s `mptcpi_subflows`, read from the connection's socket). False for
                `multipathServiceType` `none`, for a peer that fell back to plain TCP, and for a multipath
                connection that got no other subflow (no other available path, or no endpoints: see
                `MultipathServiceType`).
            network_path (None | str): Beyond Apple, the network path the request left by (`GET /v1/networks`); null for a
                response from the cache.
            network_interface (None | str): That path's interface (or source address); null for the default route and for a
                cached response.
    """

    request: Request
    response: None | Response
    fetch_start_date: datetime.datetime | None
    domain_lookup_start_date: datetime.datetime | None
    domain_lookup_end_date: datetime.datetime | None
    connect_start_date: datetime.datetime | None
    secure_connection_start_date: datetime.datetime | None
    secure_connection_end_date: datetime.datetime | None
    connect_end_date: datetime.datetime | None
    request_start_date: datetime.datetime | None
    request_end_date: datetime.datetime | None
    response_start_date: datetime.datetime | None
    response_end_date: datetime.datetime | None
    network_protocol_name: None | str
    is_proxy_connection: bool
    is_reused_connection: bool
    resource_fetch_type: TransactionMetricsResourceFetchType
    count_of_request_header_bytes_sent: int
    count_of_request_body_bytes_sent: int
    count_of_request_body_bytes_before_encoding: int
    count_of_response_header_bytes_received: int
    count_of_response_body_bytes_received: int
    count_of_response_body_bytes_after_decoding: int
    local_address: None | str
    local_port: int | None
    remote_address: None | str
    remote_port: int | None
    negotiated_tls_protocol_version: None | TLSProtocolVersion
    negotiated_tls_cipher_suite: None | str
    is_cellular: bool
    is_expensive: bool
    is_constrained: bool
    is_multipath: bool
    network_path: None | str
    network_interface: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.response import Response

        request = self.request.to_dict()

        response: dict[str, Any] | None
        if isinstance(self.response, Response):
            response = self.response.to_dict()
        else:
            response = self.response

        fetch_start_date: None | str
        if isinstance(self.fetch_start_date, datetime.datetime):
            fetch_start_date = self.fetch_start_date.isoformat()
        else:
            fetch_start_date = self.fetch_start_date

        domain_lookup_start_date: None | str
        if isinstance(self.domain_lookup_start_date, datetime.datetime):
            domain_lookup_start_date = self.domain_lookup_start_date.isoformat()
        else:
            domain_lookup_start_date = self.domain_lookup_start_date

        domain_lookup_end_date: None | str
        if isinstance(self.domain_lookup_end_date, datetime.datetime):
            domain_lookup_end_date = self.domain_lookup_end_date.isoformat()
        else:
            domain_lookup_end_date = self.domain_lookup_end_date

        connect_start_date: None | str
        if isinstance(self.connect_start_date, datetime.datetime):
            connect_start_date = self.connect_start_date.isoformat()
        else:
            connect_start_date = self.connect_start_date

        secure_connection_start_date: None | str
        if isinstance(self.secure_connection_start_date, datetime.datetime):
            secure_connection_start_date = self.secure_connection_start_date.isoformat()
        else:
            secure_connection_start_date = self.secure_connection_start_date

        secure_connection_end_date: None | str
        if isinstance(self.secure_connection_end_date, datetime.datetime):
            secure_connection_end_date = self.secure_connection_end_date.isoformat()
        else:
            secure_connection_end_date = self.secure_connection_end_date

        connect_end_date: None | str
        if isinstance(self.connect_end_date, datetime.datetime):
            connect_end_date = self.connect_end_date.isoformat()
        else:
            connect_end_date = self.connect_end_date

        request_start_date: None | str
        if isinstance(self.request_start_date, datetime.datetime):
            request_start_date = self.request_start_date.isoformat()
        else:
            request_start_date = self.request_start_date

        request_end_date: None | str
        if isinstance(self.request_end_date, datetime.datetime):
            request_end_date = self.request_end_date.isoformat()
        else:
            request_end_date = self.request_end_date

        response_start_date: None | str
        if isinstance(self.response_start_date, datetime.datetime):
            response_start_date = self.response_start_date.isoformat()
        else:
            response_start_date = self.response_start_date

        response_end_date: None | str
        if isinstance(self.response_end_date, datetime.datetime):
            response_end_date = self.response_end_date.isoformat()
        else:
            response_end_date = self.response_end_date

        network_protocol_name: None | str
        network_protocol_name = self.network_protocol_name

        is_proxy_connection = self.is_proxy_connection

        is_reused_connection = self.is_reused_connection

        resource_fetch_type = self.resource_fetch_type.value

        count_of_request_header_bytes_sent = self.count_of_request_header_bytes_sent

        count_of_request_body_bytes_sent = self.count_of_request_body_bytes_sent

        count_of_request_body_bytes_before_encoding = self.count_of_request_body_bytes_before_encoding

        count_of_response_header_bytes_received = self.count_of_response_header_bytes_received

        count_of_response_body_bytes_received = self.count_of_response_body_bytes_received

        count_of_response_body_bytes_after_decoding = self.count_of_response_body_bytes_after_decoding

        local_address: None | str
        local_address = self.local_address

        local_port: int | None
        local_port = self.local_port

        remote_address: None | str
        remote_address = self.remote_address

        remote_port: int | None
        remote_port = self.remote_port

        negotiated_tls_protocol_version: None | str
        if isinstance(self.negotiated_tls_protocol_version, TLSProtocolVersion):
            negotiated_tls_protocol_version = self.negotiated_tls_protocol_version.value
        else:
            negotiated_tls_protocol_version = self.negotiated_tls_protocol_version

        negotiated_tls_cipher_suite: None | str
        negotiated_tls_cipher_suite = self.negotiated_tls_cipher_suite

        is_cellular = self.is_cellular

        is_expensive = self.is_expensive

        is_constrained = self.is_constrained

        is_multipath = self.is_multipath

        network_path: None | str
        network_path = self.network_path

        network_interface: None | str
        network_interface = self.network_interface

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "request": request,
                "response": response,
                "fetchStartDate": fetch_start_date,
                "domainLookupStartDate": domain_lookup_start_date,
                "domainLookupEndDate": domain_lookup_end_date,
                "connectStartDate": connect_start_date,
                "secureConnectionStartDate": secure_connection_start_date,
                "secureConnectionEndDate": secure_connection_end_date,
                "connectEndDate": connect_end_date,
                "requestStartDate": request_start_date,
                "requestEndDate": request_end_date,
                "responseStartDate": response_start_date,
                "responseEndDate": response_end_date,
                "networkProtocolName": network_protocol_name,
                "isProxyConnection": is_proxy_connection,
                "isReusedConnection": is_reused_connection,
                "resourceFetchType": resource_fetch_type,
                "countOfRequestHeaderBytesSent": count_of_request_header_bytes_sent,
                "countOfRequestBodyBytesSent": count_of_request_body_bytes_sent,
                "countOfRequestBodyBytesBeforeEncoding": count_of_request_body_bytes_before_encoding,
                "countOfResponseHeaderBytesReceived": count_of_response_header_bytes_received,
                "countOfResponseBodyBytesReceived": count_of_response_body_bytes_received,
                "countOfResponseBodyBytesAfterDecoding": count_of_response_body_bytes_after_decoding,
                "localAddress": local_address,
                "localPort": local_port,
                "remoteAddress": remote_address,
                "remotePort": remote_port,
                "negotiatedTLSProtocolVersion": negotiated_tls_protocol_version,
                "negotiatedTLSCipherSuite": negotiated_tls_cipher_suite,
                "isCellular": is_cellular,
                "isExpensive": is_expensive,
                "isConstrained": is_constrained,
                "isMultipath": is_multipath,
                "networkPath": network_path,
                "networkInterface": network_interface,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.request import Request
        from ..models.response import Response

        d = dict(src_dict)
        request = Request.from_dict(d.pop("request"))

        def _parse_response(data: object) -> None | Response:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_type_0 = Response.from_dict(data)

                return response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Response, data)

        response = _parse_response(d.pop("response"))

        def _parse_fetch_start_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fetch_start_date_type_0 = datetime.datetime.fromisoformat(data)

                return fetch_start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        fetch_start_date = _parse_fetch_start_date(d.pop("fetchStartDate"))

        def _parse_domain_lookup_start_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                domain_lookup_start_date_type_0 = datetime.datetime.fromisoformat(data)

                return domain_lookup_start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        domain_lookup_start_date = _parse_domain_lookup_start_date(d.pop("domainLookupStartDate"))

        def _parse_domain_lookup_end_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                domain_lookup_end_date_type_0 = datetime.datetime.fromisoformat(data)

                return domain_lookup_end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        domain_lookup_end_date = _parse_domain_lookup_end_date(d.pop("domainLookupEndDate"))

        def _parse_connect_start_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connect_start_date_type_0 = datetime.datetime.fromisoformat(data)

                return connect_start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        connect_start_date = _parse_connect_start_date(d.pop("connectStartDate"))

        def _parse_secure_connection_start_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                secure_connection_start_date_type_0 = datetime.datetime.fromisoformat(data)

                return secure_connection_start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        secure_connection_start_date = _parse_secure_connection_start_date(d.pop("secureConnectionStartDate"))

        def _parse_secure_connection_end_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                secure_connection_end_date_type_0 = datetime.datetime.fromisoformat(data)

                return secure_connection_end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        secure_connection_end_date = _parse_secure_connection_end_date(d.pop("secureConnectionEndDate"))

        def _parse_connect_end_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connect_end_date_type_0 = datetime.datetime.fromisoformat(data)

                return connect_end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        connect_end_date = _parse_connect_end_date(d.pop("connectEndDate"))

        def _parse_request_start_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_start_date_type_0 = datetime.datetime.fromisoformat(data)

                return request_start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        request_start_date = _parse_request_start_date(d.pop("requestStartDate"))

        def _parse_request_end_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_end_date_type_0 = datetime.datetime.fromisoformat(data)

                return request_end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        request_end_date = _parse_request_end_date(d.pop("requestEndDate"))

        def _parse_response_start_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                response_start_date_type_0 = datetime.datetime.fromisoformat(data)

                return response_start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        response_start_date = _parse_response_start_date(d.pop("responseStartDate"))

        def _parse_response_end_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                response_end_date_type_0 = datetime.datetime.fromisoformat(data)

                return response_end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        response_end_date = _parse_response_end_date(d.pop("responseEndDate"))

        def _parse_network_protocol_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        network_protocol_name = _parse_network_protocol_name(d.pop("networkProtocolName"))

        is_proxy_connection = d.pop("isProxyConnection")

        is_reused_connection = d.pop("isReusedConnection")

        resource_fetch_type = TransactionMetricsResourceFetchType(d.pop("resourceFetchType"))

        count_of_request_header_bytes_sent = d.pop("countOfRequestHeaderBytesSent")

        count_of_request_body_bytes_sent = d.pop("countOfRequestBodyBytesSent")

        count_of_request_body_bytes_before_encoding = d.pop("countOfRequestBodyBytesBeforeEncoding")

        count_of_response_header_bytes_received = d.pop("countOfResponseHeaderBytesReceived")

        count_of_response_body_bytes_received = d.pop("countOfResponseBodyBytesReceived")

        count_of_response_body_bytes_after_decoding = d.pop("countOfResponseBodyBytesAfterDecoding")

        def _parse_local_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        local_address = _parse_local_address(d.pop("localAddress"))

        def _parse_local_port(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        local_port = _parse_local_port(d.pop("localPort"))

        def _parse_remote_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        remote_address = _parse_remote_address(d.pop("remoteAddress"))

        def _parse_remote_port(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        remote_port = _parse_remote_port(d.pop("remotePort"))

        def _parse_negotiated_tls_protocol_version(data: object) -> None | TLSProtocolVersion:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                negotiated_tls_protocol_version_type_0 = TLSProtocolVersion(data)

                return negotiated_tls_protocol_version_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TLSProtocolVersion, data)

        negotiated_tls_protocol_version = _parse_negotiated_tls_protocol_version(d.pop("negotiatedTLSProtocolVersion"))

        def _parse_negotiated_tls_cipher_suite(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        negotiated_tls_cipher_suite = _parse_negotiated_tls_cipher_suite(d.pop("negotiatedTLSCipherSuite"))

        is_cellular = d.pop("isCellular")

        is_expensive = d.pop("isExpensive")

        is_constrained = d.pop("isConstrained")

        is_multipath = d.pop("isMultipath")

        def _parse_network_path(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        network_path = _parse_network_path(d.pop("networkPath"))

        def _parse_network_interface(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        network_interface = _parse_network_interface(d.pop("networkInterface"))

        transaction_metrics = cls(
            request=request,
            response=response,
            fetch_start_date=fetch_start_date,
            domain_lookup_start_date=domain_lookup_start_date,
            domain_lookup_end_date=domain_lookup_end_date,
            connect_start_date=connect_start_date,
            secure_connection_start_date=secure_connection_start_date,
            secure_connection_end_date=secure_connection_end_date,
            connect_end_date=connect_end_date,
            request_start_date=request_start_date,
            request_end_date=request_end_date,
            response_start_date=response_start_date,
            response_end_date=response_end_date,
            network_protocol_name=network_protocol_name,
            is_proxy_connection=is_proxy_connection,
            is_reused_connection=is_reused_connection,
            resource_fetch_type=resource_fetch_type,
            count_of_request_header_bytes_sent=count_of_request_header_bytes_sent,
            count_of_request_body_bytes_sent=count_of_request_body_bytes_sent,
            count_of_request_body_bytes_before_encoding=count_of_request_body_bytes_before_encoding,
            count_of_response_header_bytes_received=count_of_response_header_bytes_received,
            count_of_response_body_bytes_received=count_of_response_body_bytes_received,
            count_of_response_body_bytes_after_decoding=count_of_response_body_bytes_after_decoding,
            local_address=local_address,
            local_port=local_port,
            remote_address=remote_address,
            remote_port=remote_port,
            negotiated_tls_protocol_version=negotiated_tls_protocol_version,
            negotiated_tls_cipher_suite=negotiated_tls_cipher_suite,
            is_cellular=is_cellular,
            is_expensive=is_expensive,
            is_constrained=is_constrained,
            is_multipath=is_multipath,
            network_path=network_path,
            network_interface=network_interface,
        )

        transaction_metrics.additional_properties = d
        return transaction_metrics

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
