from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{id}/reset".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
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
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """reset(completionHandler:)

     As `reset(completionHandler:)`: empties the cookie storage, the URL cache and the credential
    storage this session uses (like URLSession, a session whose `httpCookieStorage`, `urlCache` or
    `urlCredentialStorage` is `shared` empties the tenant's shared one: every credential of
    `/v1/credentials` without `sessionId`, permanent ones removed from the store too; `none` has
    nothing to empty), closes the session's connections (a running transfer keeps its connection
    until it ends), and removes the files and kept bodies of its completed tasks (partial files kept
    for resume data included): their `/file` and `/data` then answer 404 as after a deletion. Tasks
    already running keep running. The answer (204) comes when that is done. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str | Unset = UNSET,
) -> Any | Problem | None:
    """reset(completionHandler:)

     As `reset(completionHandler:)`: empties the cookie storage, the URL cache and the credential
    storage this session uses (like URLSession, a session whose `httpCookieStorage`, `urlCache` or
    `urlCredentialStorage` is `shared` empties the tenant's shared one: every credential of
    `/v1/credentials` without `sessionId`, permanent ones removed from the store too; `none` has
    nothing to empty), closes the session's connections (a running transfer keeps its connection
    until it ends), and removes the files and kept bodies of its completed tasks (partial files kept
    for resume data included): their `/file` and `/data` then answer 404 as after a deletion. Tasks
    already running keep running. The answer (204) comes when that is done. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """reset(completionHandler:)

     As `reset(completionHandler:)`: empties the cookie storage, the URL cache and the credential
    storage this session uses (like URLSession, a session whose `httpCookieStorage`, `urlCache` or
    `urlCredentialStorage` is `shared` empties the tenant's shared one: every credential of
    `/v1/credentials` without `sessionId`, permanent ones removed from the store too; `none` has
    nothing to empty), closes the session's connections (a running transfer keeps its connection
    until it ends), and removes the files and kept bodies of its completed tasks (partial files kept
    for resume data included): their `/file` and `/data` then answer 404 as after a deletion. Tasks
    already running keep running. The answer (204) comes when that is done. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str | Unset = UNSET,
) -> Any | Problem | None:
    """reset(completionHandler:)

     As `reset(completionHandler:)`: empties the cookie storage, the URL cache and the credential
    storage this session uses (like URLSession, a session whose `httpCookieStorage`, `urlCache` or
    `urlCredentialStorage` is `shared` empties the tenant's shared one: every credential of
    `/v1/credentials` without `sessionId`, permanent ones removed from the store too; `none` has
    nothing to empty), closes the session's connections (a running transfer keeps its connection
    until it ends), and removes the files and kept bodies of its completed tasks (partial files kept
    for resume data included): their `/file` and `/data` then answer 404 as after a deletion. Tasks
    already running keep running. The answer (204) comes when that is done. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
