from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{id}/socket".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 101:
        response_101 = cast(Any, None)
        return response_101

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

    if response.status_code == 426:
        response_426 = Problem.from_dict(response.json())

        return response_426

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
) -> Response[Any | Problem]:
    """The WebSocket relay (beyond URLSession)

     A WebSocket upgrade (RFC 6455 §4: `Upgrade: websocket`, `Connection: Upgrade`,
    `Sec-WebSocket-Key` of 16 bytes in base64, `Sec-WebSocket-Version: 13`, the bearer token in
    `Authorization` as on every route) that joins the caller's socket to a running webSocket task's
    connection through the service: the service is the caller's WebSocket server and stays the
    origin's client. `101` names in `Sec-WebSocket-Protocol` the subprotocol the origin chose when the
    caller offered it too; no extension is negotiated.

    Each message from the caller is the task's send (in order with `POST .../messages`); each message
    from the origin reaches the caller in order, taken from the task's buffer as it is written, so a
    slow caller stops the reading from the origin (nothing is dropped or piled up). The caller's pings
    are answered by the service. The caller's close frame closes the task with its code and reason
    (`cancel(with:reason:)`; none: 1000), and the task's end is echoed back; the origin's close (or a
    cancel through the API) reaches the caller as a close frame with the same code and reason after
    every message before it — 1014 when the origin's connection dropped without one. A caller who
    leaves without a close frame closes the task with 1001 "the relayed client left".

    One relay per task at a time (a second: 409). While one is attached it alone reads the task's
    received messages: `GET .../messages` answers 409 (`POST .../messages` and `/ping` still work).
    A task still connecting is waited for (up to 30 s). Each relay holds one of the tenant's
    `streams`. At shutdown the caller gets a 1001 close frame.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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
) -> Any | Problem | None:
    """The WebSocket relay (beyond URLSession)

     A WebSocket upgrade (RFC 6455 §4: `Upgrade: websocket`, `Connection: Upgrade`,
    `Sec-WebSocket-Key` of 16 bytes in base64, `Sec-WebSocket-Version: 13`, the bearer token in
    `Authorization` as on every route) that joins the caller's socket to a running webSocket task's
    connection through the service: the service is the caller's WebSocket server and stays the
    origin's client. `101` names in `Sec-WebSocket-Protocol` the subprotocol the origin chose when the
    caller offered it too; no extension is negotiated.

    Each message from the caller is the task's send (in order with `POST .../messages`); each message
    from the origin reaches the caller in order, taken from the task's buffer as it is written, so a
    slow caller stops the reading from the origin (nothing is dropped or piled up). The caller's pings
    are answered by the service. The caller's close frame closes the task with its code and reason
    (`cancel(with:reason:)`; none: 1000), and the task's end is echoed back; the origin's close (or a
    cancel through the API) reaches the caller as a close frame with the same code and reason after
    every message before it — 1014 when the origin's connection dropped without one. A caller who
    leaves without a close frame closes the task with 1001 "the relayed client left".

    One relay per task at a time (a second: 409). While one is attached it alone reads the task's
    received messages: `GET .../messages` answers 409 (`POST .../messages` and `/ping` still work).
    A task still connecting is waited for (up to 30 s). Each relay holds one of the tenant's
    `streams`. At shutdown the caller gets a 1001 close frame.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Any | Problem]:
    """The WebSocket relay (beyond URLSession)

     A WebSocket upgrade (RFC 6455 §4: `Upgrade: websocket`, `Connection: Upgrade`,
    `Sec-WebSocket-Key` of 16 bytes in base64, `Sec-WebSocket-Version: 13`, the bearer token in
    `Authorization` as on every route) that joins the caller's socket to a running webSocket task's
    connection through the service: the service is the caller's WebSocket server and stays the
    origin's client. `101` names in `Sec-WebSocket-Protocol` the subprotocol the origin chose when the
    caller offered it too; no extension is negotiated.

    Each message from the caller is the task's send (in order with `POST .../messages`); each message
    from the origin reaches the caller in order, taken from the task's buffer as it is written, so a
    slow caller stops the reading from the origin (nothing is dropped or piled up). The caller's pings
    are answered by the service. The caller's close frame closes the task with its code and reason
    (`cancel(with:reason:)`; none: 1000), and the task's end is echoed back; the origin's close (or a
    cancel through the API) reaches the caller as a close frame with the same code and reason after
    every message before it — 1014 when the origin's connection dropped without one. A caller who
    leaves without a close frame closes the task with 1001 "the relayed client left".

    One relay per task at a time (a second: 409). While one is attached it alone reads the task's
    received messages: `GET .../messages` answers 409 (`POST .../messages` and `/ping` still work).
    A task still connecting is waited for (up to 30 s). Each relay holds one of the tenant's
    `streams`. At shutdown the caller gets a 1001 close frame.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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
) -> Any | Problem | None:
    """The WebSocket relay (beyond URLSession)

     A WebSocket upgrade (RFC 6455 §4: `Upgrade: websocket`, `Connection: Upgrade`,
    `Sec-WebSocket-Key` of 16 bytes in base64, `Sec-WebSocket-Version: 13`, the bearer token in
    `Authorization` as on every route) that joins the caller's socket to a running webSocket task's
    connection through the service: the service is the caller's WebSocket server and stays the
    origin's client. `101` names in `Sec-WebSocket-Protocol` the subprotocol the origin chose when the
    caller offered it too; no extension is negotiated.

    Each message from the caller is the task's send (in order with `POST .../messages`); each message
    from the origin reaches the caller in order, taken from the task's buffer as it is written, so a
    slow caller stops the reading from the origin (nothing is dropped or piled up). The caller's pings
    are answered by the service. The caller's close frame closes the task with its code and reason
    (`cancel(with:reason:)`; none: 1000), and the task's end is echoed back; the origin's close (or a
    cancel through the API) reaches the caller as a close frame with the same code and reason after
    every message before it — 1014 when the origin's connection dropped without one. A caller who
    leaves without a close frame closes the task with 1001 "the relayed client left".

    One relay per task at a time (a second: 409). While one is attached it alone reads the task's
    received messages: `GET .../messages` answers 409 (`POST .../messages` and `/ping` still work).
    A task still connecting is waited for (up to 30 s). Each relay holds one of the tenant's
    `streams`. At shutdown the caller gets a 1001 close frame.

    Args:
        id (str):

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
        )
    ).parsed
