from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    id: str,
    *,
    range_: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(range_, Unset):
        headers["Range"] = range_

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{id}/data".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> File | Problem | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

        return response_200

    if response.status_code == 206:
        response_206 = File(payload=BytesIO(response.content))

        return response_206

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

    if response.status_code == 416:
        response_416 = Problem.from_dict(response.json())

        return response_416

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[File | Problem]:
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
    range_: str | Unset = UNSET,
) -> Response[File | Problem]:
    """The Data of data(for:) / dataTask.didReceiveData



    The response body a data or upload task received, what `dataTask.didReceiveData` delivered in
    pieces or `data(for:)` returns, with the origin's `Content-Type` (`application/octet-stream` when
    the origin sent none), decoded from any `Content-Encoding` as URLSession does. A body whose
    `Content-Encoding` or `Transfer-Encoding` names a coding the service cannot decode (anything but
    gzip, x-gzip, deflate, br, zstd, identity and chunked) is delivered as it came, those fields telling
    how, as browsers do; one in a coding it knows that fails to decode fails the task with -1016
    (`cannotDecodeContentData`). A download's file follows the same rule. Download tasks (and
    data tasks that became downloads) answer 404: their body is at `/v1/tasks/{id}/file`.

    While the task runs (`running` or `canceling`) the body streams as it arrives (chunked, like
    `bytes(for:)`): the answer waits for the task's final response (its `Content-Type` heads it), then
    sends every byte from the start, or from a `Range`, and waits for more. It ends when the task's
    completion is recorded: cleanly when the task succeeded; cut (the connection closes without the
    last chunk, so the client sees an incomplete body) when it failed, and the task then shows its
    `error`. An attempt that stops (`suspend`) cuts it too. Several readers may follow one task; each
    reads at its own pace and never slows the transfer. A task that completes or is suspended before
    its response arrives is answered as such. Each following reader holds one of the tenant's
    `streams` (quota). A suspended task has no body to give yet: 409 `conflict`.

    Once the task has completed, a task that failed (its `error` is set) has no body, as URLSession
    hands none to a failed completion: 404 `not-found`, whose detail says it failed and gives the
    error's `code`. A body is kept until its time to live (server configuration) has passed or the
    session is reset; a task that received body bytes (`countOfBytesReceived` > 0) whose body is gone
    answers 404 `not-found` too, the detail saying it expired. A response that really had no body
    (204, `Content-Length: 0`, `HEAD`) is an empty 200.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a completed
    body too large for the database lives there and any node serves it, with the same statuses and
    fields; a read that fails midway ends the connection before the announced `Content-Length`.

    Ranges: one range at most, as `/file` (RFC 9110 §14.2) for a completed task. While the task runs
    the end is not known yet, so only `bytes=first-` and `bytes=first-last` apply (others are
    ignored: the whole body); the answer is 206 with `Content-Range: bytes first-last/length` when the
    origin announced the length (416 with `bytes */length` for a first position at or past it),
    `bytes first-last/*` for a closed range of a body of unknown length (the stream ends at `last`),
    and no `Content-Range` for an open range of a body of unknown length (the field has no form for
    an end not known yet).

    Args:
        id (str):
        range_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        range_=range_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    range_: str | Unset = UNSET,
) -> File | Problem | None:
    """The Data of data(for:) / dataTask.didReceiveData



    The response body a data or upload task received, what `dataTask.didReceiveData` delivered in
    pieces or `data(for:)` returns, with the origin's `Content-Type` (`application/octet-stream` when
    the origin sent none), decoded from any `Content-Encoding` as URLSession does. A body whose
    `Content-Encoding` or `Transfer-Encoding` names a coding the service cannot decode (anything but
    gzip, x-gzip, deflate, br, zstd, identity and chunked) is delivered as it came, those fields telling
    how, as browsers do; one in a coding it knows that fails to decode fails the task with -1016
    (`cannotDecodeContentData`). A download's file follows the same rule. Download tasks (and
    data tasks that became downloads) answer 404: their body is at `/v1/tasks/{id}/file`.

    While the task runs (`running` or `canceling`) the body streams as it arrives (chunked, like
    `bytes(for:)`): the answer waits for the task's final response (its `Content-Type` heads it), then
    sends every byte from the start, or from a `Range`, and waits for more. It ends when the task's
    completion is recorded: cleanly when the task succeeded; cut (the connection closes without the
    last chunk, so the client sees an incomplete body) when it failed, and the task then shows its
    `error`. An attempt that stops (`suspend`) cuts it too. Several readers may follow one task; each
    reads at its own pace and never slows the transfer. A task that completes or is suspended before
    its response arrives is answered as such. Each following reader holds one of the tenant's
    `streams` (quota). A suspended task has no body to give yet: 409 `conflict`.

    Once the task has completed, a task that failed (its `error` is set) has no body, as URLSession
    hands none to a failed completion: 404 `not-found`, whose detail says it failed and gives the
    error's `code`. A body is kept until its time to live (server configuration) has passed or the
    session is reset; a task that received body bytes (`countOfBytesReceived` > 0) whose body is gone
    answers 404 `not-found` too, the detail saying it expired. A response that really had no body
    (204, `Content-Length: 0`, `HEAD`) is an empty 200.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a completed
    body too large for the database lives there and any node serves it, with the same statuses and
    fields; a read that fails midway ends the connection before the announced `Content-Length`.

    Ranges: one range at most, as `/file` (RFC 9110 §14.2) for a completed task. While the task runs
    the end is not known yet, so only `bytes=first-` and `bytes=first-last` apply (others are
    ignored: the whole body); the answer is 206 with `Content-Range: bytes first-last/length` when the
    origin announced the length (416 with `bytes */length` for a first position at or past it),
    `bytes first-last/*` for a closed range of a body of unknown length (the stream ends at `last`),
    and no `Content-Range` for an open range of a body of unknown length (the field has no form for
    an end not known yet).

    Args:
        id (str):
        range_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        range_=range_,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    range_: str | Unset = UNSET,
) -> Response[File | Problem]:
    """The Data of data(for:) / dataTask.didReceiveData



    The response body a data or upload task received, what `dataTask.didReceiveData` delivered in
    pieces or `data(for:)` returns, with the origin's `Content-Type` (`application/octet-stream` when
    the origin sent none), decoded from any `Content-Encoding` as URLSession does. A body whose
    `Content-Encoding` or `Transfer-Encoding` names a coding the service cannot decode (anything but
    gzip, x-gzip, deflate, br, zstd, identity and chunked) is delivered as it came, those fields telling
    how, as browsers do; one in a coding it knows that fails to decode fails the task with -1016
    (`cannotDecodeContentData`). A download's file follows the same rule. Download tasks (and
    data tasks that became downloads) answer 404: their body is at `/v1/tasks/{id}/file`.

    While the task runs (`running` or `canceling`) the body streams as it arrives (chunked, like
    `bytes(for:)`): the answer waits for the task's final response (its `Content-Type` heads it), then
    sends every byte from the start, or from a `Range`, and waits for more. It ends when the task's
    completion is recorded: cleanly when the task succeeded; cut (the connection closes without the
    last chunk, so the client sees an incomplete body) when it failed, and the task then shows its
    `error`. An attempt that stops (`suspend`) cuts it too. Several readers may follow one task; each
    reads at its own pace and never slows the transfer. A task that completes or is suspended before
    its response arrives is answered as such. Each following reader holds one of the tenant's
    `streams` (quota). A suspended task has no body to give yet: 409 `conflict`.

    Once the task has completed, a task that failed (its `error` is set) has no body, as URLSession
    hands none to a failed completion: 404 `not-found`, whose detail says it failed and gives the
    error's `code`. A body is kept until its time to live (server configuration) has passed or the
    session is reset; a task that received body bytes (`countOfBytesReceived` > 0) whose body is gone
    answers 404 `not-found` too, the detail saying it expired. A response that really had no body
    (204, `Content-Length: 0`, `HEAD`) is an empty 200.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a completed
    body too large for the database lives there and any node serves it, with the same statuses and
    fields; a read that fails midway ends the connection before the announced `Content-Length`.

    Ranges: one range at most, as `/file` (RFC 9110 §14.2) for a completed task. While the task runs
    the end is not known yet, so only `bytes=first-` and `bytes=first-last` apply (others are
    ignored: the whole body); the answer is 206 with `Content-Range: bytes first-last/length` when the
    origin announced the length (416 with `bytes */length` for a first position at or past it),
    `bytes first-last/*` for a closed range of a body of unknown length (the stream ends at `last`),
    and no `Content-Range` for an open range of a body of unknown length (the field has no form for
    an end not known yet).

    Args:
        id (str):
        range_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        range_=range_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    range_: str | Unset = UNSET,
) -> File | Problem | None:
    """The Data of data(for:) / dataTask.didReceiveData



    The response body a data or upload task received, what `dataTask.didReceiveData` delivered in
    pieces or `data(for:)` returns, with the origin's `Content-Type` (`application/octet-stream` when
    the origin sent none), decoded from any `Content-Encoding` as URLSession does. A body whose
    `Content-Encoding` or `Transfer-Encoding` names a coding the service cannot decode (anything but
    gzip, x-gzip, deflate, br, zstd, identity and chunked) is delivered as it came, those fields telling
    how, as browsers do; one in a coding it knows that fails to decode fails the task with -1016
    (`cannotDecodeContentData`). A download's file follows the same rule. Download tasks (and
    data tasks that became downloads) answer 404: their body is at `/v1/tasks/{id}/file`.

    While the task runs (`running` or `canceling`) the body streams as it arrives (chunked, like
    `bytes(for:)`): the answer waits for the task's final response (its `Content-Type` heads it), then
    sends every byte from the start, or from a `Range`, and waits for more. It ends when the task's
    completion is recorded: cleanly when the task succeeded; cut (the connection closes without the
    last chunk, so the client sees an incomplete body) when it failed, and the task then shows its
    `error`. An attempt that stops (`suspend`) cuts it too. Several readers may follow one task; each
    reads at its own pace and never slows the transfer. A task that completes or is suspended before
    its response arrives is answered as such. Each following reader holds one of the tenant's
    `streams` (quota). A suspended task has no body to give yet: 409 `conflict`.

    Once the task has completed, a task that failed (its `error` is set) has no body, as URLSession
    hands none to a failed completion: 404 `not-found`, whose detail says it failed and gives the
    error's `code`. A body is kept until its time to live (server configuration) has passed or the
    session is reset; a task that received body bytes (`countOfBytesReceived` > 0) whose body is gone
    answers 404 `not-found` too, the detail saying it expired. A response that really had no body
    (204, `Content-Length: 0`, `HEAD`) is an empty 200.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a completed
    body too large for the database lives there and any node serves it, with the same statuses and
    fields; a read that fails midway ends the connection before the announced `Content-Length`.

    Ranges: one range at most, as `/file` (RFC 9110 §14.2) for a completed task. While the task runs
    the end is not known yet, so only `bytes=first-` and `bytes=first-last` apply (others are
    ignored: the whole body); the answer is 206 with `Content-Range: bytes first-last/length` when the
    origin announced the length (416 with `bytes */length` for a first position at or past it),
    `bytes first-last/*` for a closed range of a body of unknown length (the stream ends at `last`),
    and no `Content-Range` for an open range of a body of unknown length (the field has no form for
    an end not known yet).

    Args:
        id (str):
        range_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            range_=range_,
        )
    ).parsed
