from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.stream_write_request import StreamWriteRequest
from ...models.stream_write_result import StreamWriteResult
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: StreamWriteRequest | File | Unset = UNSET,
    timeout: float | Unset = 60.0,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["timeout"] = timeout

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks/{id}/write".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    if isinstance(body, StreamWriteRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, File):
        _kwargs["content"] = body.payload
        headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | StreamWriteResult | None:
    if response.status_code == 200:
        response_200 = StreamWriteResult.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | StreamWriteResult]:
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
    body: StreamWriteRequest | File | Unset = UNSET,
    timeout: float | Unset = 60.0,
) -> Response[Problem | StreamWriteResult]:
    """URLSessionStreamTask.write(_:timeout:completionHandler:)

     Writes bytes on a stream task's connection, after those written before (and after a
    `startSecureConnection` asked before: then over TLS). The body is `{"data": "<base64>",
    "timeout": S}`, or the bytes themselves as `application/octet-stream` with `?timeout=S`; at most
    the API's JSON body limit (1 MiB) either way. Answered as `write`'s completion handler is called:
    200 `{"error": null}` once every byte is written, `{"error": {... -1001 timedOut}}` when `timeout`
    (default 60 s) passed first (what was not written of it is dropped; the task goes on). A write
    sent before the connection is up waits for it. 409 when the write side is closed (`closeWrite`)
    or the task is not running (never resumed, completed). Another kind of task: 404.

    Args:
        id (str):
        timeout (float | Unset):  Default: 60.0.
        body (StreamWriteRequest): `write(_:timeout:)`: the bytes as base64 (standard, padded:
            else 422 `field: data`) and the timeout.
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamWriteResult]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
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
    body: StreamWriteRequest | File | Unset = UNSET,
    timeout: float | Unset = 60.0,
) -> Problem | StreamWriteResult | None:
    """URLSessionStreamTask.write(_:timeout:completionHandler:)

     Writes bytes on a stream task's connection, after those written before (and after a
    `startSecureConnection` asked before: then over TLS). The body is `{"data": "<base64>",
    "timeout": S}`, or the bytes themselves as `application/octet-stream` with `?timeout=S`; at most
    the API's JSON body limit (1 MiB) either way. Answered as `write`'s completion handler is called:
    200 `{"error": null}` once every byte is written, `{"error": {... -1001 timedOut}}` when `timeout`
    (default 60 s) passed first (what was not written of it is dropped; the task goes on). A write
    sent before the connection is up waits for it. 409 when the write side is closed (`closeWrite`)
    or the task is not running (never resumed, completed). Another kind of task: 404.

    Args:
        id (str):
        timeout (float | Unset):  Default: 60.0.
        body (StreamWriteRequest): `write(_:timeout:)`: the bytes as base64 (standard, padded:
            else 422 `field: data`) and the timeout.
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamWriteResult
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        timeout=timeout,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: StreamWriteRequest | File | Unset = UNSET,
    timeout: float | Unset = 60.0,
) -> Response[Problem | StreamWriteResult]:
    """URLSessionStreamTask.write(_:timeout:completionHandler:)

     Writes bytes on a stream task's connection, after those written before (and after a
    `startSecureConnection` asked before: then over TLS). The body is `{"data": "<base64>",
    "timeout": S}`, or the bytes themselves as `application/octet-stream` with `?timeout=S`; at most
    the API's JSON body limit (1 MiB) either way. Answered as `write`'s completion handler is called:
    200 `{"error": null}` once every byte is written, `{"error": {... -1001 timedOut}}` when `timeout`
    (default 60 s) passed first (what was not written of it is dropped; the task goes on). A write
    sent before the connection is up waits for it. 409 when the write side is closed (`closeWrite`)
    or the task is not running (never resumed, completed). Another kind of task: 404.

    Args:
        id (str):
        timeout (float | Unset):  Default: 60.0.
        body (StreamWriteRequest): `write(_:timeout:)`: the bytes as base64 (standard, padded:
            else 422 `field: data`) and the timeout.
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamWriteResult]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        timeout=timeout,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: StreamWriteRequest | File | Unset = UNSET,
    timeout: float | Unset = 60.0,
) -> Problem | StreamWriteResult | None:
    """URLSessionStreamTask.write(_:timeout:completionHandler:)

     Writes bytes on a stream task's connection, after those written before (and after a
    `startSecureConnection` asked before: then over TLS). The body is `{"data": "<base64>",
    "timeout": S}`, or the bytes themselves as `application/octet-stream` with `?timeout=S`; at most
    the API's JSON body limit (1 MiB) either way. Answered as `write`'s completion handler is called:
    200 `{"error": null}` once every byte is written, `{"error": {... -1001 timedOut}}` when `timeout`
    (default 60 s) passed first (what was not written of it is dropped; the task goes on). A write
    sent before the connection is up waits for it. 409 when the write side is closed (`closeWrite`)
    or the task is not running (never resumed, completed). Another kind of task: 404.

    Args:
        id (str):
        timeout (float | Unset):  Default: 60.0.
        body (StreamWriteRequest): `write(_:timeout:)`: the bytes as base64 (standard, padded:
            else 422 `field: data`) and the timeout.
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamWriteResult
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            timeout=timeout,
        )
    ).parsed
