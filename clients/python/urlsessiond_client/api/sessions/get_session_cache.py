from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.url_cache_usage import URLCacheUsage
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sessions/{id}/cache".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | URLCacheUsage | None:
    if response.status_code == 200:
        response_200 = URLCacheUsage.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Problem | URLCacheUsage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | URLCacheUsage]:
    """URLCache capacities and usage

     The `URLCache` this session uses (`configuration.urlCache`): `storage` `shared` for the tenant's
    shared cache (`URLCache.shared`, with the service's capacities), `private` for the session's own,
    `none` (every number 0) when `urlCache` is null; its `memoryCapacity` and `diskCapacity`, its
    `currentMemoryUsage` and `currentDiskUsage` in bytes, and how many responses it holds.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | URLCacheUsage]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Problem | URLCacheUsage | None:
    """URLCache capacities and usage

     The `URLCache` this session uses (`configuration.urlCache`): `storage` `shared` for the tenant's
    shared cache (`URLCache.shared`, with the service's capacities), `private` for the session's own,
    `none` (every number 0) when `urlCache` is null; its `memoryCapacity` and `diskCapacity`, its
    `currentMemoryUsage` and `currentDiskUsage` in bytes, and how many responses it holds.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | URLCacheUsage
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | URLCacheUsage]:
    """URLCache capacities and usage

     The `URLCache` this session uses (`configuration.urlCache`): `storage` `shared` for the tenant's
    shared cache (`URLCache.shared`, with the service's capacities), `private` for the session's own,
    `none` (every number 0) when `urlCache` is null; its `memoryCapacity` and `diskCapacity`, its
    `currentMemoryUsage` and `currentDiskUsage` in bytes, and how many responses it holds.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | URLCacheUsage]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Problem | URLCacheUsage | None:
    """URLCache capacities and usage

     The `URLCache` this session uses (`configuration.urlCache`): `storage` `shared` for the tenant's
    shared cache (`URLCache.shared`, with the service's capacities), `private` for the session's own,
    `none` (every number 0) when `urlCache` is null; its `memoryCapacity` and `diskCapacity`, its
    `currentMemoryUsage` and `currentDiskUsage` in bytes, and how many responses it holds.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | URLCacheUsage
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
