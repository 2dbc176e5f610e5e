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
    if_range: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(range_, Unset):
        headers["Range"] = range_

    if not isinstance(if_range, Unset):
        headers["If-Range"] = if_range

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{id}/file".format(
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
    if_range: str | Unset = UNSET,
) -> Response[File | Problem]:
    """The file at didFinishDownloadingTo's location



    The downloaded file, the one `downloadTask.didFinishDownloadingTo` points at (its `location`).
    Like that temporary file it is kept only until it is deleted (`DELETE`) or its time to live
    (server configuration) has passed; then this answers 404. A file deleted while it is being read
    is still sent whole to requests that already reached it. While the download is still running the
    answer is 409 `conflict`; tasks that are not downloads, or whose download failed, answer 404.

    Ranges follow RFC 9110 §14.2, one range at most (no `multipart/byteranges`). A single valid
    `Range: bytes=first-last` (open-ended `bytes=first-` and suffix `bytes=-length` forms too; the
    unit compares without case) answers 206 with `Content-Range`. A `Range` with another unit, with
    invalid syntax (`bytes=5-1`, `bytes=abc`) or with several ranges is ignored, as is one whose
    `If-Range` no longer matches: the whole file (200). Only a valid single range that cannot be
    satisfied answers 416 with `Content-Range: bytes */<size>`: a first position at or past the end,
    the empty suffix `bytes=-0`, or any range of an empty file.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a finished
    file lives there and any node serves it, with the same statuses and fields. Should reading it fail
    midway, the connection ends before the announced `Content-Length`, so a client never takes a short
    body for the whole file. A node not configured for that object store answers 503 for such a file.

    Args:
        id (str):
        range_ (str | Unset):
        if_range (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        range_=range_,
        if_range=if_range,
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
    if_range: str | Unset = UNSET,
) -> File | Problem | None:
    """The file at didFinishDownloadingTo's location



    The downloaded file, the one `downloadTask.didFinishDownloadingTo` points at (its `location`).
    Like that temporary file it is kept only until it is deleted (`DELETE`) or its time to live
    (server configuration) has passed; then this answers 404. A file deleted while it is being read
    is still sent whole to requests that already reached it. While the download is still running the
    answer is 409 `conflict`; tasks that are not downloads, or whose download failed, answer 404.

    Ranges follow RFC 9110 §14.2, one range at most (no `multipart/byteranges`). A single valid
    `Range: bytes=first-last` (open-ended `bytes=first-` and suffix `bytes=-length` forms too; the
    unit compares without case) answers 206 with `Content-Range`. A `Range` with another unit, with
    invalid syntax (`bytes=5-1`, `bytes=abc`) or with several ranges is ignored, as is one whose
    `If-Range` no longer matches: the whole file (200). Only a valid single range that cannot be
    satisfied answers 416 with `Content-Range: bytes */<size>`: a first position at or past the end,
    the empty suffix `bytes=-0`, or any range of an empty file.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a finished
    file lives there and any node serves it, with the same statuses and fields. Should reading it fail
    midway, the connection ends before the announced `Content-Length`, so a client never takes a short
    body for the whole file. A node not configured for that object store answers 503 for such a file.

    Args:
        id (str):
        range_ (str | Unset):
        if_range (str | Unset):

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
        if_range=if_range,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    range_: str | Unset = UNSET,
    if_range: str | Unset = UNSET,
) -> Response[File | Problem]:
    """The file at didFinishDownloadingTo's location



    The downloaded file, the one `downloadTask.didFinishDownloadingTo` points at (its `location`).
    Like that temporary file it is kept only until it is deleted (`DELETE`) or its time to live
    (server configuration) has passed; then this answers 404. A file deleted while it is being read
    is still sent whole to requests that already reached it. While the download is still running the
    answer is 409 `conflict`; tasks that are not downloads, or whose download failed, answer 404.

    Ranges follow RFC 9110 §14.2, one range at most (no `multipart/byteranges`). A single valid
    `Range: bytes=first-last` (open-ended `bytes=first-` and suffix `bytes=-length` forms too; the
    unit compares without case) answers 206 with `Content-Range`. A `Range` with another unit, with
    invalid syntax (`bytes=5-1`, `bytes=abc`) or with several ranges is ignored, as is one whose
    `If-Range` no longer matches: the whole file (200). Only a valid single range that cannot be
    satisfied answers 416 with `Content-Range: bytes */<size>`: a first position at or past the end,
    the empty suffix `bytes=-0`, or any range of an empty file.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a finished
    file lives there and any node serves it, with the same statuses and fields. Should reading it fail
    midway, the connection ends before the announced `Content-Length`, so a client never takes a short
    body for the whole file. A node not configured for that object store answers 503 for such a file.

    Args:
        id (str):
        range_ (str | Unset):
        if_range (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        range_=range_,
        if_range=if_range,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    range_: str | Unset = UNSET,
    if_range: str | Unset = UNSET,
) -> File | Problem | None:
    """The file at didFinishDownloadingTo's location



    The downloaded file, the one `downloadTask.didFinishDownloadingTo` points at (its `location`).
    Like that temporary file it is kept only until it is deleted (`DELETE`) or its time to live
    (server configuration) has passed; then this answers 404. A file deleted while it is being read
    is still sent whole to requests that already reached it. While the download is still running the
    answer is 409 `conflict`; tasks that are not downloads, or whose download failed, answer 404.

    Ranges follow RFC 9110 §14.2, one range at most (no `multipart/byteranges`). A single valid
    `Range: bytes=first-last` (open-ended `bytes=first-` and suffix `bytes=-length` forms too; the
    unit compares without case) answers 206 with `Content-Range`. A `Range` with another unit, with
    invalid syntax (`bytes=5-1`, `bytes=abc`) or with several ranges is ignored, as is one whose
    `If-Range` no longer matches: the whole file (200). Only a valid single range that cannot be
    satisfied answers 416 with `Content-Range: bytes */<size>`: a first position at or past the end,
    the empty suffix `bytes=-0`, or any range of an empty file.

    With an object store configured (server configuration `URLSESSIOND_OBJECT_STORE_URL`), a finished
    file lives there and any node serves it, with the same statuses and fields. Should reading it fail
    midway, the connection ends before the announced `Content-Length`, so a client never takes a short
    body for the whole file. A node not configured for that object store answers 503 for such a file.

    Args:
        id (str):
        range_ (str | Unset):
        if_range (str | Unset):

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
            if_range=if_range,
        )
    ).parsed
