from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.task_batch_request import TaskBatchRequest
from ...models.task_batch_response import TaskBatchResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: TaskBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{id}/tasks/batch".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TaskBatchResponse | None:
    if response.status_code == 200:
        response_200 = TaskBatchResponse.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = TaskBatchResponse.from_dict(response.json())

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
) -> Response[Problem | TaskBatchResponse]:
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
    body: TaskBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | TaskBatchResponse]:
    """Many dataTask(with:) / downloadTask(with:) / uploadTask(with:…) in one request



    Creates up to 1,000 tasks on the session (beyond URLSession, which has no batch). Each member of
    `tasks` is a `TaskCreateRequest` checked alone, exactly as `POST /v1/sessions/{id}/tasks` checks
    its body; the members accepted are created in one transaction, in order (consecutive
    `taskIdentifier`s, their `task.didCreateTask` events in the members' order), and those with
    `"resume": true` start as a single create starts them.

    The answer has one item per member, in the same order: the task exactly as the single create
    answers it (with `completionSecret` when one was made for it), or `{"problem": {...}}` for a member
    that was refused and created nothing — its `status` is what its own create would have answered,
    and its `field` is relative to the member (`request.url`, not `tasks[3].request.url`). A member
    refused by the `tasks` or `storedBytes` quota gets its `quota-exceeded` problem while the members
    before it that fit are created. 201 when at least one task was created (as the single create),
    200 when every member was refused; no `Location`, since there is no one task to name.

    The batch as a whole is refused, creating nothing, when the session is unknown (404), `invalidating`
    or `invalidated` (409), or the body is not an object whose `tasks` holds 1 to 1,000 members (400
    for what the single create answers 400 — not JSON, an unknown field, `tasks` not an array — and
    422 `field: tasks` for an empty or oversized array). The whole body counts against
    `URLSESSIOND_MAX_JSON_BODY` (413). `Idempotency-Key` covers the whole batch: the same key and body
    answer the first answer again and create nothing; the same key with another body is 409
    `idempotency-key-reused`. `?wait=` is not supported (422 `field: wait`): wait on each task with
    `GET /v1/tasks/{id}?wait=`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TaskBatchRequest): The body of `POST /v1/sessions/{id}/tasks/batch`: 1 to 1,000 task
            bodies, each checked alone as
            `POST /v1/sessions/{id}/tasks` checks its body. Only this shape is the batch's own: a
            member that
            is not a valid `TaskCreateRequest` is answered in its slot (`TaskBatchMember`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskBatchResponse]
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
    body: TaskBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Problem | TaskBatchResponse | None:
    """Many dataTask(with:) / downloadTask(with:) / uploadTask(with:…) in one request



    Creates up to 1,000 tasks on the session (beyond URLSession, which has no batch). Each member of
    `tasks` is a `TaskCreateRequest` checked alone, exactly as `POST /v1/sessions/{id}/tasks` checks
    its body; the members accepted are created in one transaction, in order (consecutive
    `taskIdentifier`s, their `task.didCreateTask` events in the members' order), and those with
    `"resume": true` start as a single create starts them.

    The answer has one item per member, in the same order: the task exactly as the single create
    answers it (with `completionSecret` when one was made for it), or `{"problem": {...}}` for a member
    that was refused and created nothing — its `status` is what its own create would have answered,
    and its `field` is relative to the member (`request.url`, not `tasks[3].request.url`). A member
    refused by the `tasks` or `storedBytes` quota gets its `quota-exceeded` problem while the members
    before it that fit are created. 201 when at least one task was created (as the single create),
    200 when every member was refused; no `Location`, since there is no one task to name.

    The batch as a whole is refused, creating nothing, when the session is unknown (404), `invalidating`
    or `invalidated` (409), or the body is not an object whose `tasks` holds 1 to 1,000 members (400
    for what the single create answers 400 — not JSON, an unknown field, `tasks` not an array — and
    422 `field: tasks` for an empty or oversized array). The whole body counts against
    `URLSESSIOND_MAX_JSON_BODY` (413). `Idempotency-Key` covers the whole batch: the same key and body
    answer the first answer again and create nothing; the same key with another body is 409
    `idempotency-key-reused`. `?wait=` is not supported (422 `field: wait`): wait on each task with
    `GET /v1/tasks/{id}?wait=`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TaskBatchRequest): The body of `POST /v1/sessions/{id}/tasks/batch`: 1 to 1,000 task
            bodies, each checked alone as
            `POST /v1/sessions/{id}/tasks` checks its body. Only this shape is the batch's own: a
            member that
            is not a valid `TaskCreateRequest` is answered in its slot (`TaskBatchMember`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskBatchResponse
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
    body: TaskBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | TaskBatchResponse]:
    """Many dataTask(with:) / downloadTask(with:) / uploadTask(with:…) in one request



    Creates up to 1,000 tasks on the session (beyond URLSession, which has no batch). Each member of
    `tasks` is a `TaskCreateRequest` checked alone, exactly as `POST /v1/sessions/{id}/tasks` checks
    its body; the members accepted are created in one transaction, in order (consecutive
    `taskIdentifier`s, their `task.didCreateTask` events in the members' order), and those with
    `"resume": true` start as a single create starts them.

    The answer has one item per member, in the same order: the task exactly as the single create
    answers it (with `completionSecret` when one was made for it), or `{"problem": {...}}` for a member
    that was refused and created nothing — its `status` is what its own create would have answered,
    and its `field` is relative to the member (`request.url`, not `tasks[3].request.url`). A member
    refused by the `tasks` or `storedBytes` quota gets its `quota-exceeded` problem while the members
    before it that fit are created. 201 when at least one task was created (as the single create),
    200 when every member was refused; no `Location`, since there is no one task to name.

    The batch as a whole is refused, creating nothing, when the session is unknown (404), `invalidating`
    or `invalidated` (409), or the body is not an object whose `tasks` holds 1 to 1,000 members (400
    for what the single create answers 400 — not JSON, an unknown field, `tasks` not an array — and
    422 `field: tasks` for an empty or oversized array). The whole body counts against
    `URLSESSIOND_MAX_JSON_BODY` (413). `Idempotency-Key` covers the whole batch: the same key and body
    answer the first answer again and create nothing; the same key with another body is 409
    `idempotency-key-reused`. `?wait=` is not supported (422 `field: wait`): wait on each task with
    `GET /v1/tasks/{id}?wait=`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TaskBatchRequest): The body of `POST /v1/sessions/{id}/tasks/batch`: 1 to 1,000 task
            bodies, each checked alone as
            `POST /v1/sessions/{id}/tasks` checks its body. Only this shape is the batch's own: a
            member that
            is not a valid `TaskCreateRequest` is answered in its slot (`TaskBatchMember`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskBatchResponse]
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
    body: TaskBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Problem | TaskBatchResponse | None:
    """Many dataTask(with:) / downloadTask(with:) / uploadTask(with:…) in one request



    Creates up to 1,000 tasks on the session (beyond URLSession, which has no batch). Each member of
    `tasks` is a `TaskCreateRequest` checked alone, exactly as `POST /v1/sessions/{id}/tasks` checks
    its body; the members accepted are created in one transaction, in order (consecutive
    `taskIdentifier`s, their `task.didCreateTask` events in the members' order), and those with
    `"resume": true` start as a single create starts them.

    The answer has one item per member, in the same order: the task exactly as the single create
    answers it (with `completionSecret` when one was made for it), or `{"problem": {...}}` for a member
    that was refused and created nothing — its `status` is what its own create would have answered,
    and its `field` is relative to the member (`request.url`, not `tasks[3].request.url`). A member
    refused by the `tasks` or `storedBytes` quota gets its `quota-exceeded` problem while the members
    before it that fit are created. 201 when at least one task was created (as the single create),
    200 when every member was refused; no `Location`, since there is no one task to name.

    The batch as a whole is refused, creating nothing, when the session is unknown (404), `invalidating`
    or `invalidated` (409), or the body is not an object whose `tasks` holds 1 to 1,000 members (400
    for what the single create answers 400 — not JSON, an unknown field, `tasks` not an array — and
    422 `field: tasks` for an empty or oversized array). The whole body counts against
    `URLSESSIOND_MAX_JSON_BODY` (413). `Idempotency-Key` covers the whole batch: the same key and body
    answer the first answer again and create nothing; the same key with another body is 409
    `idempotency-key-reused`. `?wait=` is not supported (422 `field: wait`): wait on each task with
    `GET /v1/tasks/{id}?wait=`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TaskBatchRequest): The body of `POST /v1/sessions/{id}/tasks/batch`: 1 to 1,000 task
            bodies, each checked alone as
            `POST /v1/sessions/{id}/tasks` checks its body. Only this shape is the batch's own: a
            member that
            is not a valid `TaskCreateRequest` is answered in its slot (`TaskBatchMember`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskBatchResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
