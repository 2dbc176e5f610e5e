from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.web_socket_message_list import WebSocketMessageList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{id}/messages".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | WebSocketMessageList | None:
    if response.status_code == 200:
        response_200 = WebSocketMessageList.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

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
) -> Response[Problem | WebSocketMessageList]:
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
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
) -> Response[Problem | WebSocketMessageList]:
    """URLSessionWebSocketTask.receive(completionHandler:)

     The messages a webSocket task received, in order, each with its `sequence` (1, 2, 3…), from a
    bounded buffer: 1,024 messages or 4 MiB (at least twice `maximumMessageSize`). `?after=SEQ`
    returns the messages after SEQ and acknowledges those up to it, which leave the buffer (as
    `receive` consumes them): read with `after` set to the last `nextCursor`. A full buffer is
    backpressure, never a loss: the service stops reading the connection (TCP then slows the
    server) until a reader acknowledges. `?wait=SECONDS` holds the answer until a message after
    `after` is there, the connection ended, or the time is up (it holds one of the tenant's
    `streams`). `nextCursor` is the `after` of the next call; null once the connection ended and
    every message was read. The messages of a completed task stay readable while it is among the
    last 256 to end; they are in memory only (a restart loses those not read). Another kind of
    task: 404. While a relay (`GET .../socket`) is attached it alone takes the messages: 409.

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebSocketMessageList]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        limit=limit,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
) -> Problem | WebSocketMessageList | None:
    """URLSessionWebSocketTask.receive(completionHandler:)

     The messages a webSocket task received, in order, each with its `sequence` (1, 2, 3…), from a
    bounded buffer: 1,024 messages or 4 MiB (at least twice `maximumMessageSize`). `?after=SEQ`
    returns the messages after SEQ and acknowledges those up to it, which leave the buffer (as
    `receive` consumes them): read with `after` set to the last `nextCursor`. A full buffer is
    backpressure, never a loss: the service stops reading the connection (TCP then slows the
    server) until a reader acknowledges. `?wait=SECONDS` holds the answer until a message after
    `after` is there, the connection ended, or the time is up (it holds one of the tenant's
    `streams`). `nextCursor` is the `after` of the next call; null once the connection ended and
    every message was read. The messages of a completed task stay readable while it is among the
    last 256 to end; they are in memory only (a restart loses those not read). Another kind of
    task: 404. While a relay (`GET .../socket`) is attached it alone takes the messages: 409.

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebSocketMessageList
    """

    return sync_detailed(
        id=id,
        client=client,
        after=after,
        limit=limit,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
) -> Response[Problem | WebSocketMessageList]:
    """URLSessionWebSocketTask.receive(completionHandler:)

     The messages a webSocket task received, in order, each with its `sequence` (1, 2, 3…), from a
    bounded buffer: 1,024 messages or 4 MiB (at least twice `maximumMessageSize`). `?after=SEQ`
    returns the messages after SEQ and acknowledges those up to it, which leave the buffer (as
    `receive` consumes them): read with `after` set to the last `nextCursor`. A full buffer is
    backpressure, never a loss: the service stops reading the connection (TCP then slows the
    server) until a reader acknowledges. `?wait=SECONDS` holds the answer until a message after
    `after` is there, the connection ended, or the time is up (it holds one of the tenant's
    `streams`). `nextCursor` is the `after` of the next call; null once the connection ended and
    every message was read. The messages of a completed task stay readable while it is among the
    last 256 to end; they are in memory only (a restart loses those not read). Another kind of
    task: 404. While a relay (`GET .../socket`) is attached it alone takes the messages: 409.

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebSocketMessageList]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        limit=limit,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
) -> Problem | WebSocketMessageList | None:
    """URLSessionWebSocketTask.receive(completionHandler:)

     The messages a webSocket task received, in order, each with its `sequence` (1, 2, 3…), from a
    bounded buffer: 1,024 messages or 4 MiB (at least twice `maximumMessageSize`). `?after=SEQ`
    returns the messages after SEQ and acknowledges those up to it, which leave the buffer (as
    `receive` consumes them): read with `after` set to the last `nextCursor`. A full buffer is
    backpressure, never a loss: the service stops reading the connection (TCP then slows the
    server) until a reader acknowledges. `?wait=SECONDS` holds the answer until a message after
    `after` is there, the connection ended, or the time is up (it holds one of the tenant's
    `streams`). `nextCursor` is the `after` of the next call; null once the connection ended and
    every message was read. The messages of a completed task stay readable while it is among the
    last 256 to end; they are in memory only (a restart loses those not read). Another kind of
    task: 404. While a relay (`GET .../socket`) is attached it alone takes the messages: 409.

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebSocketMessageList
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            after=after,
            limit=limit,
            wait=wait,
        )
    ).parsed
