from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session_list import SessionList
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
        "url": "/v1/sessions",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SessionList | None:
    if response.status_code == 200:
        response_200 = SessionList.from_dict(response.json())

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
) -> Response[Problem | SessionList]:
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
) -> Response[Problem | SessionList]:
    """URLSession (all sessions of the tenant)

     The tenant's sessions in creation order, invalidated ones and the shared session (once it has
    been used) included. URLSession has no such call: a process simply holds its sessions.

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionList]
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
) -> Problem | SessionList | None:
    """URLSession (all sessions of the tenant)

     The tenant's sessions in creation order, invalidated ones and the shared session (once it has
    been used) included. URLSession has no such call: a process simply holds its sessions.

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionList
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
) -> Response[Problem | SessionList]:
    """URLSession (all sessions of the tenant)

     The tenant's sessions in creation order, invalidated ones and the shared session (once it has
    been used) included. URLSession has no such call: a process simply holds its sessions.

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionList]
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
) -> Problem | SessionList | None:
    """URLSession (all sessions of the tenant)

     The tenant's sessions in creation order, invalidated ones and the shared session (once it has
    been used) included. URLSession has no such call: a process simply holds its sessions.

    Args:
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionList
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            after=after,
        )
    ).parsed
