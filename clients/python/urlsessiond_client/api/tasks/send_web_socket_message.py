from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.web_socket_data_message import WebSocketDataMessage
from ...models.web_socket_string_message import WebSocketStringMessage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: WebSocketDataMessage | WebSocketStringMessage,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks/{id}/messages".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, WebSocketStringMessage):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

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
    body: WebSocketDataMessage | WebSocketStringMessage,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """URLSessionWebSocketTask.send(_:completionHandler:)

     Sends one message on a webSocket task's open connection: `{"string": "..."}` (a text message) or
    `{"data": "<base64>"}` (a binary one), exactly one of them (else 422 `field: string`). Answered
    204 once the message is written to the connection (`send`'s completion handler). Sent while the
    task is running and its connection is still being made (right after `resume`), it waits for the
    open, up to 30 s, as URLSession queues it. 409 when the connection is not open: the task is
    suspended, closing (after `cancel` with a `closeCode`), completed, or still connecting after
    30 s. A message longer than the task's `maximumMessageSize`: 413 naming
    `string` or `data`. Another kind of task: 404.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (WebSocketDataMessage | WebSocketStringMessage): A message to send,
            `URLSessionWebSocketTask.Message`'s two cases; exactly one of them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
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
    body: WebSocketDataMessage | WebSocketStringMessage,
    idempotency_key: str | Unset = UNSET,
) -> Any | Problem | None:
    """URLSessionWebSocketTask.send(_:completionHandler:)

     Sends one message on a webSocket task's open connection: `{"string": "..."}` (a text message) or
    `{"data": "<base64>"}` (a binary one), exactly one of them (else 422 `field: string`). Answered
    204 once the message is written to the connection (`send`'s completion handler). Sent while the
    task is running and its connection is still being made (right after `resume`), it waits for the
    open, up to 30 s, as URLSession queues it. 409 when the connection is not open: the task is
    suspended, closing (after `cancel` with a `closeCode`), completed, or still connecting after
    30 s. A message longer than the task's `maximumMessageSize`: 413 naming
    `string` or `data`. Another kind of task: 404.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (WebSocketDataMessage | WebSocketStringMessage): A message to send,
            `URLSessionWebSocketTask.Message`'s two cases; exactly one of them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: WebSocketDataMessage | WebSocketStringMessage,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """URLSessionWebSocketTask.send(_:completionHandler:)

     Sends one message on a webSocket task's open connection: `{"string": "..."}` (a text message) or
    `{"data": "<base64>"}` (a binary one), exactly one of them (else 422 `field: string`). Answered
    204 once the message is written to the connection (`send`'s completion handler). Sent while the
    task is running and its connection is still being made (right after `resume`), it waits for the
    open, up to 30 s, as URLSession queues it. 409 when the connection is not open: the task is
    suspended, closing (after `cancel` with a `closeCode`), completed, or still connecting after
    30 s. A message longer than the task's `maximumMessageSize`: 413 naming
    `string` or `data`. Another kind of task: 404.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (WebSocketDataMessage | WebSocketStringMessage): A message to send,
            `URLSessionWebSocketTask.Message`'s two cases; exactly one of them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: WebSocketDataMessage | WebSocketStringMessage,
    idempotency_key: str | Unset = UNSET,
) -> Any | Problem | None:
    """URLSessionWebSocketTask.send(_:completionHandler:)

     Sends one message on a webSocket task's open connection: `{"string": "..."}` (a text message) or
    `{"data": "<base64>"}` (a binary one), exactly one of them (else 422 `field: string`). Answered
    204 once the message is written to the connection (`send`'s completion handler). Sent while the
    task is running and its connection is still being made (right after `resume`), it waits for the
    open, up to 30 s, as URLSession queues it. 409 when the connection is not open: the task is
    suspended, closing (after `cancel` with a `closeCode`), completed, or still connecting after
    30 s. A message longer than the task's `maximumMessageSize`: 413 naming
    `string` or `data`. Another kind of task: 404.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (WebSocketDataMessage | WebSocketStringMessage): A message to send,
            `URLSessionWebSocketTask.Message`'s two cases; exactly one of them.

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
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
