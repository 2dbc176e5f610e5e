from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.network import Network
from ...models.network_availability_update import NetworkAvailabilityUpdate
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: NetworkAvailabilityUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/admin/networks/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Network | Problem | None:
    if response.status_code == 200:
        response_200 = Network.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Network | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: NetworkAvailabilityUpdate,
) -> Response[Network | Problem]:
    """Mark a network path up or down

     Admin only (other roles: 403). `{"available": false}` marks the path down whatever its link
    says, as if its interface lost connectivity: new requests avoid it, tasks using it fail with -1005
    `networkConnectionLost` (those that ride outages wait and continue on another path).
    `{"available": true}` marks it up whatever its link says, and tasks waiting for connectivity
    start. `{"available": null}` clears the override: the link's own state counts again. The
    override lasts until cleared or the service restarts. Setting the current value is harmless. An
    unknown name answers 404.

    Args:
        name (str):
        body (NetworkAvailabilityUpdate): The body of `PUT /v1/admin/networks/{name}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Network | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: NetworkAvailabilityUpdate,
) -> Network | Problem | None:
    """Mark a network path up or down

     Admin only (other roles: 403). `{"available": false}` marks the path down whatever its link
    says, as if its interface lost connectivity: new requests avoid it, tasks using it fail with -1005
    `networkConnectionLost` (those that ride outages wait and continue on another path).
    `{"available": true}` marks it up whatever its link says, and tasks waiting for connectivity
    start. `{"available": null}` clears the override: the link's own state counts again. The
    override lasts until cleared or the service restarts. Setting the current value is harmless. An
    unknown name answers 404.

    Args:
        name (str):
        body (NetworkAvailabilityUpdate): The body of `PUT /v1/admin/networks/{name}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Network | Problem
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: NetworkAvailabilityUpdate,
) -> Response[Network | Problem]:
    """Mark a network path up or down

     Admin only (other roles: 403). `{"available": false}` marks the path down whatever its link
    says, as if its interface lost connectivity: new requests avoid it, tasks using it fail with -1005
    `networkConnectionLost` (those that ride outages wait and continue on another path).
    `{"available": true}` marks it up whatever its link says, and tasks waiting for connectivity
    start. `{"available": null}` clears the override: the link's own state counts again. The
    override lasts until cleared or the service restarts. Setting the current value is harmless. An
    unknown name answers 404.

    Args:
        name (str):
        body (NetworkAvailabilityUpdate): The body of `PUT /v1/admin/networks/{name}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Network | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: NetworkAvailabilityUpdate,
) -> Network | Problem | None:
    """Mark a network path up or down

     Admin only (other roles: 403). `{"available": false}` marks the path down whatever its link
    says, as if its interface lost connectivity: new requests avoid it, tasks using it fail with -1005
    `networkConnectionLost` (those that ride outages wait and continue on another path).
    `{"available": true}` marks it up whatever its link says, and tasks waiting for connectivity
    start. `{"available": null}` clears the override: the link's own state counts again. The
    override lasts until cleared or the service restarts. Setting the current value is harmless. An
    unknown name answers 404.

    Args:
        name (str):
        body (NetworkAvailabilityUpdate): The body of `PUT /v1/admin/networks/{name}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Network | Problem
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
