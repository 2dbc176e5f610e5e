from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cancel_request import CancelRequest
from ...models.cancel_response import CancelResponse
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: CancelRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks/{id}/cancel".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CancelResponse | Problem | None:
    if response.status_code == 200:
        response_200 = CancelResponse.from_dict(response.json())

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
) -> Response[CancelResponse | Problem]:
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
    body: CancelRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CancelResponse | Problem]:
    """cancel() / cancel(byProducingResumeData:)



    As `cancel()`: the task becomes `canceling`, then completes with `NSURLErrorCancelled` (-999).
    With `{"byProducingResumeData": true}` (download tasks only, otherwise 422) it is
    `cancel(byProducingResumeData:)`: the answer waits for the resume data and carries it in
    `resumeData` (an opaque string for `downloadTask(withResumeData:)`, or null when the download
    cannot be resumed, e.g. the origin does not support ranges). Without it `resumeData` is null.
    Cancelling a `canceling` task is harmless (200); a `completed` task answers 409 `conflict`, where
    URLSession would ignore the call. The body is optional.

    A webSocket task: a plain cancel sends a going-away (1001) close frame and completes with -999.
    With `closeCode` (and `reason`) it is `cancel(with:reason:)`: the close handshake, after which
    the task completes without an error and shows that `closeCode` and `closeReason` (the answer is
    the task as it stands, `canceling` or already `completed`). A server that does not answer the
    close frame within 10 s is dropped. `closeCode` and `reason` on another kind: a plain cancel.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CancelRequest | Unset): The optional body of `POST /v1/tasks/{id}/cancel`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelResponse | Problem]
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
    body: CancelRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CancelResponse | Problem | None:
    """cancel() / cancel(byProducingResumeData:)



    As `cancel()`: the task becomes `canceling`, then completes with `NSURLErrorCancelled` (-999).
    With `{"byProducingResumeData": true}` (download tasks only, otherwise 422) it is
    `cancel(byProducingResumeData:)`: the answer waits for the resume data and carries it in
    `resumeData` (an opaque string for `downloadTask(withResumeData:)`, or null when the download
    cannot be resumed, e.g. the origin does not support ranges). Without it `resumeData` is null.
    Cancelling a `canceling` task is harmless (200); a `completed` task answers 409 `conflict`, where
    URLSession would ignore the call. The body is optional.

    A webSocket task: a plain cancel sends a going-away (1001) close frame and completes with -999.
    With `closeCode` (and `reason`) it is `cancel(with:reason:)`: the close handshake, after which
    the task completes without an error and shows that `closeCode` and `closeReason` (the answer is
    the task as it stands, `canceling` or already `completed`). A server that does not answer the
    close frame within 10 s is dropped. `closeCode` and `reason` on another kind: a plain cancel.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CancelRequest | Unset): The optional body of `POST /v1/tasks/{id}/cancel`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelResponse | Problem
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
    body: CancelRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CancelResponse | Problem]:
    """cancel() / cancel(byProducingResumeData:)



    As `cancel()`: the task becomes `canceling`, then completes with `NSURLErrorCancelled` (-999).
    With `{"byProducingResumeData": true}` (download tasks only, otherwise 422) it is
    `cancel(byProducingResumeData:)`: the answer waits for the resume data and carries it in
    `resumeData` (an opaque string for `downloadTask(withResumeData:)`, or null when the download
    cannot be resumed, e.g. the origin does not support ranges). Without it `resumeData` is null.
    Cancelling a `canceling` task is harmless (200); a `completed` task answers 409 `conflict`, where
    URLSession would ignore the call. The body is optional.

    A webSocket task: a plain cancel sends a going-away (1001) close frame and completes with -999.
    With `closeCode` (and `reason`) it is `cancel(with:reason:)`: the close handshake, after which
    the task completes without an error and shows that `closeCode` and `closeReason` (the answer is
    the task as it stands, `canceling` or already `completed`). A server that does not answer the
    close frame within 10 s is dropped. `closeCode` and `reason` on another kind: a plain cancel.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CancelRequest | Unset): The optional body of `POST /v1/tasks/{id}/cancel`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelResponse | Problem]
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
    body: CancelRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CancelResponse | Problem | None:
    """cancel() / cancel(byProducingResumeData:)



    As `cancel()`: the task becomes `canceling`, then completes with `NSURLErrorCancelled` (-999).
    With `{"byProducingResumeData": true}` (download tasks only, otherwise 422) it is
    `cancel(byProducingResumeData:)`: the answer waits for the resume data and carries it in
    `resumeData` (an opaque string for `downloadTask(withResumeData:)`, or null when the download
    cannot be resumed, e.g. the origin does not support ranges). Without it `resumeData` is null.
    Cancelling a `canceling` task is harmless (200); a `completed` task answers 409 `conflict`, where
    URLSession would ignore the call. The body is optional.

    A webSocket task: a plain cancel sends a going-away (1001) close frame and completes with -999.
    With `closeCode` (and `reason`) it is `cancel(with:reason:)`: the close handshake, after which
    the task completes without an error and shows that `closeCode` and `closeReason` (the answer is
    the task as it stands, `canceling` or already `completed`). A server that does not answer the
    close frame within 10 s is dropped. `closeCode` and `reason` on another kind: a plain cancel.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CancelRequest | Unset): The optional body of `POST /v1/tasks/{id}/cancel`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelResponse | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
