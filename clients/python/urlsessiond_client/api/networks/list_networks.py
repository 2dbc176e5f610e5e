from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.network_list import NetworkList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/networks",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> NetworkList | Problem | None:
    if response.status_code == 200:
        response_200 = NetworkList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[NetworkList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[NetworkList | Problem]:
    """The network paths (NWPath) the service can use

     The host's network paths (`URLSESSIOND_NETWORKS` / `--network`; none configured: one unrestricted
    path named `default` over the default route), most preferred first, with their flags and state —
    the service's `NWPath`: interface type, `isExpensive`, `isConstrained`. The same list for every
    tenant.

    A path is available while its interface is up (`IFF_UP` and `IFF_RUNNING`) and has an address
    (a source-address path: while an up interface holds the address), checked once a second, unless
    an admin override says otherwise (`PUT /v1/admin/networks/{name}`). Changes are logged and
    counted in `/metrics` (`urlsessiond_network_path_available{path}`,
    `urlsessiond_network_path_changes_total{path}`).

    Each request leaves by the most preferred available path its effective flags (session AND
    request) allow: a `cellular` path needs `allowsCellularAccess`, an expensive one (cellular paths
    are) `allowsExpensiveNetworkAccess`, a constrained one `allowsConstrainedNetworkAccess`. The path is
    chosen when the transfer starts (its redirects stay on it); connections are never reused across
    paths. With no usable path, a session with `waitsForConnectivity` (always true for background)
    keeps the task `running`, sends one `task.taskIsWaitingForConnectivity` (once per task), makes no
    connection, and starts it when a path becomes available — its `timeoutIntervalForResource` still
    runs (then -1001); otherwise the task fails at once with -1009 `notConnectedToInternet`, with
    `NSURLErrorNetworkUnavailableReasonKey` (`cellular`, `expensive` or `constrained`) when an
    available path exists that the flags refused. A path that goes down ends its transfers with -1005
    `networkConnectionLost`; a background task, or a task of a `waitsForConnectivity` session that
    received no response yet, waits for a usable path and continues (a download by `Range`, as after
    a restart). Each transaction's metrics name the path (`networkPath`, `networkInterface`,
    `isCellular`, `isExpensive`, `isConstrained`).

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NetworkList | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> NetworkList | Problem | None:
    """The network paths (NWPath) the service can use

     The host's network paths (`URLSESSIOND_NETWORKS` / `--network`; none configured: one unrestricted
    path named `default` over the default route), most preferred first, with their flags and state —
    the service's `NWPath`: interface type, `isExpensive`, `isConstrained`. The same list for every
    tenant.

    A path is available while its interface is up (`IFF_UP` and `IFF_RUNNING`) and has an address
    (a source-address path: while an up interface holds the address), checked once a second, unless
    an admin override says otherwise (`PUT /v1/admin/networks/{name}`). Changes are logged and
    counted in `/metrics` (`urlsessiond_network_path_available{path}`,
    `urlsessiond_network_path_changes_total{path}`).

    Each request leaves by the most preferred available path its effective flags (session AND
    request) allow: a `cellular` path needs `allowsCellularAccess`, an expensive one (cellular paths
    are) `allowsExpensiveNetworkAccess`, a constrained one `allowsConstrainedNetworkAccess`. The path is
    chosen when the transfer starts (its redirects stay on it); connections are never reused across
    paths. With no usable path, a session with `waitsForConnectivity` (always true for background)
    keeps the task `running`, sends one `task.taskIsWaitingForConnectivity` (once per task), makes no
    connection, and starts it when a path becomes available — its `timeoutIntervalForResource` still
    runs (then -1001); otherwise the task fails at once with -1009 `notConnectedToInternet`, with
    `NSURLErrorNetworkUnavailableReasonKey` (`cellular`, `expensive` or `constrained`) when an
    available path exists that the flags refused. A path that goes down ends its transfers with -1005
    `networkConnectionLost`; a background task, or a task of a `waitsForConnectivity` session that
    received no response yet, waits for a usable path and continues (a download by `Range`, as after
    a restart). Each transaction's metrics name the path (`networkPath`, `networkInterface`,
    `isCellular`, `isExpensive`, `isConstrained`).

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NetworkList | Problem
    """

    return sync_detailed(
        client=client,
        limit=limit,
        after=after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[NetworkList | Problem]:
    """The network paths (NWPath) the service can use

     The host's network paths (`URLSESSIOND_NETWORKS` / `--network`; none configured: one unrestricted
    path named `default` over the default route), most preferred first, with their flags and state —
    the service's `NWPath`: interface type, `isExpensive`, `isConstrained`. The same list for every
    tenant.

    A path is available while its interface is up (`IFF_UP` and `IFF_RUNNING`) and has an address
    (a source-address path: while an up interface holds the address), checked once a second, unless
    an admin override says otherwise (`PUT /v1/admin/networks/{name}`). Changes are logged and
    counted in `/metrics` (`urlsessiond_network_path_available{path}`,
    `urlsessiond_network_path_changes_total{path}`).

    Each request leaves by the most preferred available path its effective flags (session AND
    request) allow: a `cellular` path needs `allowsCellularAccess`, an expensive one (cellular paths
    are) `allowsExpensiveNetworkAccess`, a constrained one `allowsConstrainedNetworkAccess`. The path is
    chosen when the transfer starts (its redirects stay on it); connections are never reused across
    paths. With no usable path, a session with `waitsForConnectivity` (always true for background)
    keeps the task `running`, sends one `task.taskIsWaitingForConnectivity` (once per task), makes no
    connection, and starts it when a path becomes available — its `timeoutIntervalForResource` still
    runs (then -1001); otherwise the task fails at once with -1009 `notConnectedToInternet`, with
    `NSURLErrorNetworkUnavailableReasonKey` (`cellular`, `expensive` or `constrained`) when an
    available path exists that the flags refused. A path that goes down ends its transfers with -1005
    `networkConnectionLost`; a background task, or a task of a `waitsForConnectivity` session that
    received no response yet, waits for a usable path and continues (a download by `Range`, as after
    a restart). Each transaction's metrics name the path (`networkPath`, `networkInterface`,
    `isCellular`, `isExpensive`, `isConstrained`).

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NetworkList | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> NetworkList | Problem | None:
    """The network paths (NWPath) the service can use

     The host's network paths (`URLSESSIOND_NETWORKS` / `--network`; none configured: one unrestricted
    path named `default` over the default route), most preferred first, with their flags and state —
    the service's `NWPath`: interface type, `isExpensive`, `isConstrained`. The same list for every
    tenant.

    A path is available while its interface is up (`IFF_UP` and `IFF_RUNNING`) and has an address
    (a source-address path: while an up interface holds the address), checked once a second, unless
    an admin override says otherwise (`PUT /v1/admin/networks/{name}`). Changes are logged and
    counted in `/metrics` (`urlsessiond_network_path_available{path}`,
    `urlsessiond_network_path_changes_total{path}`).

    Each request leaves by the most preferred available path its effective flags (session AND
    request) allow: a `cellular` path needs `allowsCellularAccess`, an expensive one (cellular paths
    are) `allowsExpensiveNetworkAccess`, a constrained one `allowsConstrainedNetworkAccess`. The path is
    chosen when the transfer starts (its redirects stay on it); connections are never reused across
    paths. With no usable path, a session with `waitsForConnectivity` (always true for background)
    keeps the task `running`, sends one `task.taskIsWaitingForConnectivity` (once per task), makes no
    connection, and starts it when a path becomes available — its `timeoutIntervalForResource` still
    runs (then -1001); otherwise the task fails at once with -1009 `notConnectedToInternet`, with
    `NSURLErrorNetworkUnavailableReasonKey` (`cellular`, `expensive` or `constrained`) when an
    available path exists that the flags refused. A path that goes down ends its transfers with -1005
    `networkConnectionLost`; a background task, or a task of a `waitsForConnectivity` session that
    received no response yet, waits for a usable path and continues (a download by `Range`, as after
    a restart). Each transaction's metrics name the path (`networkPath`, `networkInterface`,
    `isCellular`, `isExpensive`, `isConstrained`).

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NetworkList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            after=after,
        )
    ).parsed
