from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.task import Task
from ...models.task_create_request import TaskCreateRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: TaskCreateRequest,
    wait: float | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{id}/tasks".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Task | None:
    if response.status_code == 201:
        response_201 = Task.from_dict(response.json())

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

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Task]:
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
    body: TaskCreateRequest,
    wait: float | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Task]:
    """dataTask(with:) / downloadTask(with:) / uploadTask(with:fromFile:)



    Creates a task on the session: `kind: data` is `dataTask(with:)`, `download` is
    `downloadTask(with:)` (or `downloadTask(withResumeData:)` with `resumeData` instead of
    `request`), `upload` is `uploadTask(with:fromFile:)` with `uploadSource.blob`,
    `uploadTask(with:from:)` with `uploadSource.data`, or `uploadTask(withStreamedRequest:)` with
    `uploadSource.stream` (the body then comes through `PUT /v1/tasks/{id}/body` while the task
    runs) (as there, the request's own `httpBody` is ignored: the upload source is what is sent). With
    `completion.url` it is the
    completion-handler form (`dataTask(with:completionHandler:)`): no response or data delegate
    events, one `task.completion` POST to that URL.

    As in URLSession, a task starts `suspended`: call `/resume`, or send `"resume": true`.
    `?wait=SECONDS` (only with `"resume": true`, otherwise 422 `field: wait`) holds the answer until
    the task completes or the time is up, the curl-friendly `data(for:)` / `download(for:)`; the
    201 then carries the task as it is at that moment.

    A session that is `invalidating` or `invalidated` answers 409 `conflict`, where URLSession would
    raise an exception. An unknown `uploadSource.blob` or another tenant's answers 404 naming the field.

    Args:
        id (str):
        wait (float | Unset):
        idempotency_key (str | Unset):
        body (TaskCreateRequest): The body of `POST /v1/sessions/{id}/tasks`. `request` is
            required except for a download created
            from `resumeData`, which takes its request from the resume data and so must not carry one
            (422
            `field: request`); `uploadSource` is required for, and only allowed on, upload tasks;
            `resumeData` and `segments` only on download tasks; `protocols` and `maximumMessageSize`
            only on
            webSocket tasks; `rateLimit` only on data, download and upload tasks.

            A webSocket task (`webSocketTask(with:protocols:)`) takes a `ws` or `wss` URL (and no
            other kind
            does: 422 `field: request.url`), a GET without a body (422 `request.httpMethod`,
            `request.httpBody`), no `completion` or `expectedDigest`, and is refused in background
            sessions
            as URLSession refuses it (422 `field: kind`). It runs while its connection is open and
            completes
            when it closes (see `Task.closeCode`).

            A stream task (`streamTask(withHostName:port:)`) takes `hostName` and `port` (required:
            422
            `missing-field`) and no `request` (422 `field: request`), no `completion` or
            `expectedDigest`;
            `hostName` and `port` belong to stream tasks only. It is refused in background sessions,
            as
            URLSession refuses it (422 `field: kind`). Its connection is plain TCP (TLS begins with
            `startSecureConnection`); reads and writes go through `/v1/tasks/{id}/read` and `/write`;
            it
            completes once both sides are closed (see `streamTaskRead`).

            A download may name other URLs of its file (beyond URLSession; see `Mirrors`): `mirrors`,
            the
            request's URL first (422 `field: mirrors[0]` otherwise), with an optional
            `expectedLength`; or a
            Metalink 4 document (RFC 5854) as `metalink` instead of `request.url` (`request` may then
            be
            absent; when given, without `url`: 422 `field: request.url`). `mirrors`, `expectedLength`
            and
            `metalink` are for download tasks only and never with `resumeData` (422 naming the field);
            `expectedLength` needs `mirrors` or `metalink`; `mirrors` and `metalink` exclude each
            other (422
            `field: mirrors`).

            These rules across fields are also in `x-rules`, as JSON Schema.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Task]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        wait=wait,
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
    body: TaskCreateRequest,
    wait: float | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Task | None:
    """dataTask(with:) / downloadTask(with:) / uploadTask(with:fromFile:)



    Creates a task on the session: `kind: data` is `dataTask(with:)`, `download` is
    `downloadTask(with:)` (or `downloadTask(withResumeData:)` with `resumeData` instead of
    `request`), `upload` is `uploadTask(with:fromFile:)` with `uploadSource.blob`,
    `uploadTask(with:from:)` with `uploadSource.data`, or `uploadTask(withStreamedRequest:)` with
    `uploadSource.stream` (the body then comes through `PUT /v1/tasks/{id}/body` while the task
    runs) (as there, the request's own `httpBody` is ignored: the upload source is what is sent). With
    `completion.url` it is the
    completion-handler form (`dataTask(with:completionHandler:)`): no response or data delegate
    events, one `task.completion` POST to that URL.

    As in URLSession, a task starts `suspended`: call `/resume`, or send `"resume": true`.
    `?wait=SECONDS` (only with `"resume": true`, otherwise 422 `field: wait`) holds the answer until
    the task completes or the time is up, the curl-friendly `data(for:)` / `download(for:)`; the
    201 then carries the task as it is at that moment.

    A session that is `invalidating` or `invalidated` answers 409 `conflict`, where URLSession would
    raise an exception. An unknown `uploadSource.blob` or another tenant's answers 404 naming the field.

    Args:
        id (str):
        wait (float | Unset):
        idempotency_key (str | Unset):
        body (TaskCreateRequest): The body of `POST /v1/sessions/{id}/tasks`. `request` is
            required except for a download created
            from `resumeData`, which takes its request from the resume data and so must not carry one
            (422
            `field: request`); `uploadSource` is required for, and only allowed on, upload tasks;
            `resumeData` and `segments` only on download tasks; `protocols` and `maximumMessageSize`
            only on
            webSocket tasks; `rateLimit` only on data, download and upload tasks.

            A webSocket task (`webSocketTask(with:protocols:)`) takes a `ws` or `wss` URL (and no
            other kind
            does: 422 `field: request.url`), a GET without a body (422 `request.httpMethod`,
            `request.httpBody`), no `completion` or `expectedDigest`, and is refused in background
            sessions
            as URLSession refuses it (422 `field: kind`). It runs while its connection is open and
            completes
            when it closes (see `Task.closeCode`).

            A stream task (`streamTask(withHostName:port:)`) takes `hostName` and `port` (required:
            422
            `missing-field`) and no `request` (422 `field: request`), no `completion` or
            `expectedDigest`;
            `hostName` and `port` belong to stream tasks only. It is refused in background sessions,
            as
            URLSession refuses it (422 `field: kind`). Its connection is plain TCP (TLS begins with
            `startSecureConnection`); reads and writes go through `/v1/tasks/{id}/read` and `/write`;
            it
            completes once both sides are closed (see `streamTaskRead`).

            A download may name other URLs of its file (beyond URLSession; see `Mirrors`): `mirrors`,
            the
            request's URL first (422 `field: mirrors[0]` otherwise), with an optional
            `expectedLength`; or a
            Metalink 4 document (RFC 5854) as `metalink` instead of `request.url` (`request` may then
            be
            absent; when given, without `url`: 422 `field: request.url`). `mirrors`, `expectedLength`
            and
            `metalink` are for download tasks only and never with `resumeData` (422 naming the field);
            `expectedLength` needs `mirrors` or `metalink`; `mirrors` and `metalink` exclude each
            other (422
            `field: mirrors`).

            These rules across fields are also in `x-rules`, as JSON Schema.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Task
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        wait=wait,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: TaskCreateRequest,
    wait: float | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Task]:
    """dataTask(with:) / downloadTask(with:) / uploadTask(with:fromFile:)



    Creates a task on the session: `kind: data` is `dataTask(with:)`, `download` is
    `downloadTask(with:)` (or `downloadTask(withResumeData:)` with `resumeData` instead of
    `request`), `upload` is `uploadTask(with:fromFile:)` with `uploadSource.blob`,
    `uploadTask(with:from:)` with `uploadSource.data`, or `uploadTask(withStreamedRequest:)` with
    `uploadSource.stream` (the body then comes through `PUT /v1/tasks/{id}/body` while the task
    runs) (as there, the request's own `httpBody` is ignored: the upload source is what is sent). With
    `completion.url` it is the
    completion-handler form (`dataTask(with:completionHandler:)`): no response or data delegate
    events, one `task.completion` POST to that URL.

    As in URLSession, a task starts `suspended`: call `/resume`, or send `"resume": true`.
    `?wait=SECONDS` (only with `"resume": true`, otherwise 422 `field: wait`) holds the answer until
    the task completes or the time is up, the curl-friendly `data(for:)` / `download(for:)`; the
    201 then carries the task as it is at that moment.

    A session that is `invalidating` or `invalidated` answers 409 `conflict`, where URLSession would
    raise an exception. An unknown `uploadSource.blob` or another tenant's answers 404 naming the field.

    Args:
        id (str):
        wait (float | Unset):
        idempotency_key (str | Unset):
        body (TaskCreateRequest): The body of `POST /v1/sessions/{id}/tasks`. `request` is
            required except for a download created
            from `resumeData`, which takes its request from the resume data and so must not carry one
            (422
            `field: request`); `uploadSource` is required for, and only allowed on, upload tasks;
            `resumeData` and `segments` only on download tasks; `protocols` and `maximumMessageSize`
            only on
            webSocket tasks; `rateLimit` only on data, download and upload tasks.

            A webSocket task (`webSocketTask(with:protocols:)`) takes a `ws` or `wss` URL (and no
            other kind
            does: 422 `field: request.url`), a GET without a body (422 `request.httpMethod`,
            `request.httpBody`), no `completion` or `expectedDigest`, and is refused in background
            sessions
            as URLSession refuses it (422 `field: kind`). It runs while its connection is open and
            completes
            when it closes (see `Task.closeCode`).

            A stream task (`streamTask(withHostName:port:)`) takes `hostName` and `port` (required:
            422
            `missing-field`) and no `request` (422 `field: request`), no `completion` or
            `expectedDigest`;
            `hostName` and `port` belong to stream tasks only. It is refused in background sessions,
            as
            URLSession refuses it (422 `field: kind`). Its connection is plain TCP (TLS begins with
            `startSecureConnection`); reads and writes go through `/v1/tasks/{id}/read` and `/write`;
            it
            completes once both sides are closed (see `streamTaskRead`).

            A download may name other URLs of its file (beyond URLSession; see `Mirrors`): `mirrors`,
            the
            request's URL first (422 `field: mirrors[0]` otherwise), with an optional
            `expectedLength`; or a
            Metalink 4 document (RFC 5854) as `metalink` instead of `request.url` (`request` may then
            be
            absent; when given, without `url`: 422 `field: request.url`). `mirrors`, `expectedLength`
            and
            `metalink` are for download tasks only and never with `resumeData` (422 naming the field);
            `expectedLength` needs `mirrors` or `metalink`; `mirrors` and `metalink` exclude each
            other (422
            `field: mirrors`).

            These rules across fields are also in `x-rules`, as JSON Schema.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Task]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        wait=wait,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: TaskCreateRequest,
    wait: float | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Task | None:
    """dataTask(with:) / downloadTask(with:) / uploadTask(with:fromFile:)



    Creates a task on the session: `kind: data` is `dataTask(with:)`, `download` is
    `downloadTask(with:)` (or `downloadTask(withResumeData:)` with `resumeData` instead of
    `request`), `upload` is `uploadTask(with:fromFile:)` with `uploadSource.blob`,
    `uploadTask(with:from:)` with `uploadSource.data`, or `uploadTask(withStreamedRequest:)` with
    `uploadSource.stream` (the body then comes through `PUT /v1/tasks/{id}/body` while the task
    runs) (as there, the request's own `httpBody` is ignored: the upload source is what is sent). With
    `completion.url` it is the
    completion-handler form (`dataTask(with:completionHandler:)`): no response or data delegate
    events, one `task.completion` POST to that URL.

    As in URLSession, a task starts `suspended`: call `/resume`, or send `"resume": true`.
    `?wait=SECONDS` (only with `"resume": true`, otherwise 422 `field: wait`) holds the answer until
    the task completes or the time is up, the curl-friendly `data(for:)` / `download(for:)`; the
    201 then carries the task as it is at that moment.

    A session that is `invalidating` or `invalidated` answers 409 `conflict`, where URLSession would
    raise an exception. An unknown `uploadSource.blob` or another tenant's answers 404 naming the field.

    Args:
        id (str):
        wait (float | Unset):
        idempotency_key (str | Unset):
        body (TaskCreateRequest): The body of `POST /v1/sessions/{id}/tasks`. `request` is
            required except for a download created
            from `resumeData`, which takes its request from the resume data and so must not carry one
            (422
            `field: request`); `uploadSource` is required for, and only allowed on, upload tasks;
            `resumeData` and `segments` only on download tasks; `protocols` and `maximumMessageSize`
            only on
            webSocket tasks; `rateLimit` only on data, download and upload tasks.

            A webSocket task (`webSocketTask(with:protocols:)`) takes a `ws` or `wss` URL (and no
            other kind
            does: 422 `field: request.url`), a GET without a body (422 `request.httpMethod`,
            `request.httpBody`), no `completion` or `expectedDigest`, and is refused in background
            sessions
            as URLSession refuses it (422 `field: kind`). It runs while its connection is open and
            completes
            when it closes (see `Task.closeCode`).

            A stream task (`streamTask(withHostName:port:)`) takes `hostName` and `port` (required:
            422
            `missing-field`) and no `request` (422 `field: request`), no `completion` or
            `expectedDigest`;
            `hostName` and `port` belong to stream tasks only. It is refused in background sessions,
            as
            URLSession refuses it (422 `field: kind`). Its connection is plain TCP (TLS begins with
            `startSecureConnection`); reads and writes go through `/v1/tasks/{id}/read` and `/write`;
            it
            completes once both sides are closed (see `streamTaskRead`).

            A download may name other URLs of its file (beyond URLSession; see `Mirrors`): `mirrors`,
            the
            request's URL first (422 `field: mirrors[0]` otherwise), with an optional
            `expectedLength`; or a
            Metalink 4 document (RFC 5854) as `metalink` instead of `request.url` (`request` may then
            be
            absent; when given, without `url`: 422 `field: request.url`). `mirrors`, `expectedLength`
            and
            `metalink` are for download tasks only and never with `resumeData` (422 naming the field);
            `expectedLength` needs `mirrors` or `metalink`; `mirrors` and `metalink` exclude each
            other (422
            `field: mirrors`).

            These rules across fields are also in `x-rules`, as JSON Schema.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Task
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            wait=wait,
            idempotency_key=idempotency_key,
        )
    ).parsed
