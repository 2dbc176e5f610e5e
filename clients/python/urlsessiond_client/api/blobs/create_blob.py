from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.blob import Blob
from ...models.problem import Problem
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    *,
    body: File | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/blobs",
    }

    if not isinstance(body, Unset):
        _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Blob | Problem | None:
    if response.status_code == 201:
        response_201 = Blob.from_dict(response.json())

        return response_201

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

    if response.status_code == 507:
        response_507 = Problem.from_dict(response.json())

        return response_507

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Blob | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: File | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Blob | Problem]:
    """Store an upload body (the file of uploadTask(with:fromFile:))

     Stores the raw request body, streamed to disk, up to the configured limit (4 GiB by default;
    over it: 413), and answers 201 with its id, size and RFC 9530 sha-256 digest and
    `Location: /v1/blobs/{id}`. Any `Content-Type` is accepted and none is kept: the upload task's
    request headers say what the origin gets. A blob is the background-safe body of an upload task
    (`uploadSource.blob`), the file URLSession's background uploads require; it stays until deleted.
    With an object store configured (`URLSESSIOND_OBJECT_STORE_URL`), the blob is put there before the
    201 (so any node can upload from it); should that fail, it stays on the receiving node's disk.

    Args:
        idempotency_key (str | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Blob | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: File | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Blob | Problem | None:
    """Store an upload body (the file of uploadTask(with:fromFile:))

     Stores the raw request body, streamed to disk, up to the configured limit (4 GiB by default;
    over it: 413), and answers 201 with its id, size and RFC 9530 sha-256 digest and
    `Location: /v1/blobs/{id}`. Any `Content-Type` is accepted and none is kept: the upload task's
    request headers say what the origin gets. A blob is the background-safe body of an upload task
    (`uploadSource.blob`), the file URLSession's background uploads require; it stays until deleted.
    With an object store configured (`URLSESSIOND_OBJECT_STORE_URL`), the blob is put there before the
    201 (so any node can upload from it); should that fail, it stays on the receiving node's disk.

    Args:
        idempotency_key (str | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Blob | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: File | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Blob | Problem]:
    """Store an upload body (the file of uploadTask(with:fromFile:))

     Stores the raw request body, streamed to disk, up to the configured limit (4 GiB by default;
    over it: 413), and answers 201 with its id, size and RFC 9530 sha-256 digest and
    `Location: /v1/blobs/{id}`. Any `Content-Type` is accepted and none is kept: the upload task's
    request headers say what the origin gets. A blob is the background-safe body of an upload task
    (`uploadSource.blob`), the file URLSession's background uploads require; it stays until deleted.
    With an object store configured (`URLSESSIOND_OBJECT_STORE_URL`), the blob is put there before the
    201 (so any node can upload from it); should that fail, it stays on the receiving node's disk.

    Args:
        idempotency_key (str | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Blob | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: File | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Blob | Problem | None:
    """Store an upload body (the file of uploadTask(with:fromFile:))

     Stores the raw request body, streamed to disk, up to the configured limit (4 GiB by default;
    over it: 413), and answers 201 with its id, size and RFC 9530 sha-256 digest and
    `Location: /v1/blobs/{id}`. Any `Content-Type` is accepted and none is kept: the upload task's
    request headers say what the origin gets. A blob is the background-safe body of an upload task
    (`uploadSource.blob`), the file URLSession's background uploads require; it stays until deleted.
    With an object store configured (`URLSESSIOND_OBJECT_STORE_URL`), the blob is put there before the
    201 (so any node can upload from it); should that fail, it stays on the receiving node's disk.

    Args:
        idempotency_key (str | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Blob | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
