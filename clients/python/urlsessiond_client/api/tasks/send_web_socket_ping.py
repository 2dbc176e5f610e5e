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
    timeout: int | Unset = 10,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["timeout"] = timeout

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks/{id}/ping".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())

        return response_504

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
    timeout: int | Unset = 10,
) -> Response[Any | Problem]:
    """URLSessionWebSocketTask.sendPing(pongReceiveHandler:)

     Sends a ping on a webSocket task's open connection and answers 204 when its pong arrives; 504
    `pong-timeout` when none came within `timeout` seconds; 409 when the connection is not open
    (or closes meanwhile). A ping made while the connection is still being made waits for the open,
    up to 30 s, as `send` does. The service answers the server's pings itself.

    Args:
        id (str):
        timeout (int | Unset):  Default: 10.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        timeout=timeout,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    timeout: int | Unset = 10,
) -> Any | Problem | None:
    """URLSessionWebSocketTask.sendPing(pongReceiveHandler:)

     Sends a ping on a webSocket task's open connection and answers 204 when its pong arrives; 504
    `pong-timeout` when none came within `timeout` seconds; 409 when the connection is not open
    (or closes meanwhile). A ping made while the connection is still being made waits for the open,
    up to 30 s, as `send` does. The service answers the server's pings itself.

    Args:
        id (str):
        timeout (int | Unset):  Default: 10.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        timeout=timeout,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    timeout: int | Unset = 10,
) -> Response[Any | Problem]:
    """URLSessionWebSocketTask.sendPing(pongReceiveHandler:)

     Sends a ping on a webSocket task's open connection and answers 204 when its pong arrives; 504
    `pong-timeout` when none came within `timeout` seconds; 409 when the connection is not open
    (or closes meanwhile). A ping made while the connection is still being made waits for the open,
    up to 30 s, as `send` does. The service answers the server's pings itself.

    Args:
        id (str):
        timeout (int | Unset):  Default: 10.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        timeout=timeout,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    timeout: int | Unset = 10,
) -> Any | Problem | None:
    """URLSessionWebSocketTask.sendPing(pongReceiveHandler:)

     Sends a ping on a webSocket task's open connection and answers 204 when its pong arrives; 504
    `pong-timeout` when none came within `timeout` seconds; 409 when the connection is not open
    (or closes meanwhile). A ping made while the connection is still being made waits for the open,
    up to 30 s, as `send` does. The service answers the server's pings itself.

    Args:
        id (str):
        timeout (int | Unset):  Default: 10.

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
            timeout=timeout,
        )
    ).parsed
