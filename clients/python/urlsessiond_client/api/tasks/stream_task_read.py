from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.stream_read_result import StreamReadResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    min_bytes: int | Unset = 1,
    max_bytes: int | Unset = 65536,
    timeout: float | Unset = 60.0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["minBytes"] = min_bytes

    params["maxBytes"] = max_bytes

    params["timeout"] = timeout

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{id}/read".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | StreamReadResult | None:
    if response.status_code == 200:
        response_200 = StreamReadResult.from_dict(response.json())

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
) -> Response[Problem | StreamReadResult]:
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
    min_bytes: int | Unset = 1,
    max_bytes: int | Unset = 65536,
    timeout: float | Unset = 60.0,
) -> Response[Problem | StreamReadResult]:
    """URLSessionStreamTask.readData(ofMinLength:maxLength:timeout:completionHandler:)

     Reads from a stream task's connection, as `readData`'s completion handler is called: once at least
    `minBytes` have arrived (0: at once), up to `maxBytes`; at the end of the read side with what is
    left and `atEOF: true` (after the peer's EOF, or `closeRead`); or at `timeout` with
    `error` -1001 `timedOut` and no bytes (none is consumed; the task goes on). Reads are answered in
    the order they came; a read sent before the connection is up waits for it (it holds one of the
    tenant's `streams` meanwhile). Received bytes wait in a buffer of 4 MiB: full, it is backpressure,
    never a loss (the service stops reading the connection until a read makes room). After the task
    completed, what was received and not read is still given (the last 256 ended tasks, in memory
    only), then `atEOF` after an end of the read side, else 409. A stream task completes when both
    sides are closed (the read side by the peer's EOF or `closeRead`, the write side by
    `closeWrite`) with no error; or as any task for its connection (-1004 `egressPolicy`, -1003,
    -1001 when connecting or TLS's handshake takes longer than `timeoutIntervalForRequest`, -1009),
    -1005 when the connection broke (and for one open when the service stopped, at its next start),
    -1202 and the other -120x codes when TLS did not trust the server, -1200 for another TLS failure,
    -999 after `cancel`. 409 while the task never ran. Another kind of task: 404.

    Args:
        id (str):
        min_bytes (int | Unset):  Default: 1.
        max_bytes (int | Unset):  Default: 65536.
        timeout (float | Unset):  Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamReadResult]
    """

    kwargs = _get_kwargs(
        id=id,
        min_bytes=min_bytes,
        max_bytes=max_bytes,
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
    min_bytes: int | Unset = 1,
    max_bytes: int | Unset = 65536,
    timeout: float | Unset = 60.0,
) -> Problem | StreamReadResult | None:
    """URLSessionStreamTask.readData(ofMinLength:maxLength:timeout:completionHandler:)

     Reads from a stream task's connection, as `readData`'s completion handler is called: once at least
    `minBytes` have arrived (0: at once), up to `maxBytes`; at the end of the read side with what is
    left and `atEOF: true` (after the peer's EOF, or `closeRead`); or at `timeout` with
    `error` -1001 `timedOut` and no bytes (none is consumed; the task goes on). Reads are answered in
    the order they came; a read sent before the connection is up waits for it (it holds one of the
    tenant's `streams` meanwhile). Received bytes wait in a buffer of 4 MiB: full, it is backpressure,
    never a loss (the service stops reading the connection until a read makes room). After the task
    completed, what was received and not read is still given (the last 256 ended tasks, in memory
    only), then `atEOF` after an end of the read side, else 409. A stream task completes when both
    sides are closed (the read side by the peer's EOF or `closeRead`, the write side by
    `closeWrite`) with no error; or as any task for its connection (-1004 `egressPolicy`, -1003,
    -1001 when connecting or TLS's handshake takes longer than `timeoutIntervalForRequest`, -1009),
    -1005 when the connection broke (and for one open when the service stopped, at its next start),
    -1202 and the other -120x codes when TLS did not trust the server, -1200 for another TLS failure,
    -999 after `cancel`. 409 while the task never ran. Another kind of task: 404.

    Args:
        id (str):
        min_bytes (int | Unset):  Default: 1.
        max_bytes (int | Unset):  Default: 65536.
        timeout (float | Unset):  Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamReadResult
    """

    return sync_detailed(
        id=id,
        client=client,
        min_bytes=min_bytes,
        max_bytes=max_bytes,
        timeout=timeout,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    min_bytes: int | Unset = 1,
    max_bytes: int | Unset = 65536,
    timeout: float | Unset = 60.0,
) -> Response[Problem | StreamReadResult]:
    """URLSessionStreamTask.readData(ofMinLength:maxLength:timeout:completionHandler:)

     Reads from a stream task's connection, as `readData`'s completion handler is called: once at least
    `minBytes` have arrived (0: at once), up to `maxBytes`; at the end of the read side with what is
    left and `atEOF: true` (after the peer's EOF, or `closeRead`); or at `timeout` with
    `error` -1001 `timedOut` and no bytes (none is consumed; the task goes on). Reads are answered in
    the order they came; a read sent before the connection is up waits for it (it holds one of the
    tenant's `streams` meanwhile). Received bytes wait in a buffer of 4 MiB: full, it is backpressure,
    never a loss (the service stops reading the connection until a read makes room). After the task
    completed, what was received and not read is still given (the last 256 ended tasks, in memory
    only), then `atEOF` after an end of the read side, else 409. A stream task completes when both
    sides are closed (the read side by the peer's EOF or `closeRead`, the write side by
    `closeWrite`) with no error; or as any task for its connection (-1004 `egressPolicy`, -1003,
    -1001 when connecting or TLS's handshake takes longer than `timeoutIntervalForRequest`, -1009),
    -1005 when the connection broke (and for one open when the service stopped, at its next start),
    -1202 and the other -120x codes when TLS did not trust the server, -1200 for another TLS failure,
    -999 after `cancel`. 409 while the task never ran. Another kind of task: 404.

    Args:
        id (str):
        min_bytes (int | Unset):  Default: 1.
        max_bytes (int | Unset):  Default: 65536.
        timeout (float | Unset):  Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamReadResult]
    """

    kwargs = _get_kwargs(
        id=id,
        min_bytes=min_bytes,
        max_bytes=max_bytes,
        timeout=timeout,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    min_bytes: int | Unset = 1,
    max_bytes: int | Unset = 65536,
    timeout: float | Unset = 60.0,
) -> Problem | StreamReadResult | None:
    """URLSessionStreamTask.readData(ofMinLength:maxLength:timeout:completionHandler:)

     Reads from a stream task's connection, as `readData`'s completion handler is called: once at least
    `minBytes` have arrived (0: at once), up to `maxBytes`; at the end of the read side with what is
    left and `atEOF: true` (after the peer's EOF, or `closeRead`); or at `timeout` with
    `error` -1001 `timedOut` and no bytes (none is consumed; the task goes on). Reads are answered in
    the order they came; a read sent before the connection is up waits for it (it holds one of the
    tenant's `streams` meanwhile). Received bytes wait in a buffer of 4 MiB: full, it is backpressure,
    never a loss (the service stops reading the connection until a read makes room). After the task
    completed, what was received and not read is still given (the last 256 ended tasks, in memory
    only), then `atEOF` after an end of the read side, else 409. A stream task completes when both
    sides are closed (the read side by the peer's EOF or `closeRead`, the write side by
    `closeWrite`) with no error; or as any task for its connection (-1004 `egressPolicy`, -1003,
    -1001 when connecting or TLS's handshake takes longer than `timeoutIntervalForRequest`, -1009),
    -1005 when the connection broke (and for one open when the service stopped, at its next start),
    -1202 and the other -120x codes when TLS did not trust the server, -1200 for another TLS failure,
    -999 after `cancel`. 409 while the task never ran. Another kind of task: 404.

    Args:
        id (str):
        min_bytes (int | Unset):  Default: 1.
        max_bytes (int | Unset):  Default: 65536.
        timeout (float | Unset):  Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamReadResult
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            min_bytes=min_bytes,
            max_bytes=max_bytes,
            timeout=timeout,
        )
    ).parsed
