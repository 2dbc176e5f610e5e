from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.task import Task
from ...models.task_update_request import TaskUpdateRequest
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: TaskUpdateRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/tasks/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Task | None:
    if response.status_code == 200:
        response_200 = Task.from_dict(response.json())

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
    body: TaskUpdateRequest,
) -> Response[Problem | Task]:
    """The task's bandwidth limit (beyond URLSession)

     A JSON merge patch of the task's own `rateLimit` (the only member that changes): a `RateLimit`, or
    null for none of its own. A running transfer takes it at once, without starting again (its share
    is divided again within the engine's next turn; the answer shows the limit in force with it); the
    task keeps it for later attempts and across a restart. On a cluster, a PATCH made on a node other
    than the one running the attempt reaches that node (through the database, as a control call does)
    and its transfer takes it the same way; should that node not answer within 10 s, the attempt takes
    it when it next starts. 422 naming the field for an invalid limit, `missing-field` without
    `rateLimit`, `invalid-value` on a webSocket or stream task; 409 once the task is completed or
    canceling; another tenant's task is 404.

    Args:
        id (str):
        body (TaskUpdateRequest): The body of `PATCH /v1/tasks/{id}`, a JSON merge patch of the
            task: only `rateLimit` changes, and it
            is required (absent: 422 `missing-field`); null removes the task's own limit.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Task]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: TaskUpdateRequest,
) -> Problem | Task | None:
    """The task's bandwidth limit (beyond URLSession)

     A JSON merge patch of the task's own `rateLimit` (the only member that changes): a `RateLimit`, or
    null for none of its own. A running transfer takes it at once, without starting again (its share
    is divided again within the engine's next turn; the answer shows the limit in force with it); the
    task keeps it for later attempts and across a restart. On a cluster, a PATCH made on a node other
    than the one running the attempt reaches that node (through the database, as a control call does)
    and its transfer takes it the same way; should that node not answer within 10 s, the attempt takes
    it when it next starts. 422 naming the field for an invalid limit, `missing-field` without
    `rateLimit`, `invalid-value` on a webSocket or stream task; 409 once the task is completed or
    canceling; another tenant's task is 404.

    Args:
        id (str):
        body (TaskUpdateRequest): The body of `PATCH /v1/tasks/{id}`, a JSON merge patch of the
            task: only `rateLimit` changes, and it
            is required (absent: 422 `missing-field`); null removes the task's own limit.

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
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: TaskUpdateRequest,
) -> Response[Problem | Task]:
    """The task's bandwidth limit (beyond URLSession)

     A JSON merge patch of the task's own `rateLimit` (the only member that changes): a `RateLimit`, or
    null for none of its own. A running transfer takes it at once, without starting again (its share
    is divided again within the engine's next turn; the answer shows the limit in force with it); the
    task keeps it for later attempts and across a restart. On a cluster, a PATCH made on a node other
    than the one running the attempt reaches that node (through the database, as a control call does)
    and its transfer takes it the same way; should that node not answer within 10 s, the attempt takes
    it when it next starts. 422 naming the field for an invalid limit, `missing-field` without
    `rateLimit`, `invalid-value` on a webSocket or stream task; 409 once the task is completed or
    canceling; another tenant's task is 404.

    Args:
        id (str):
        body (TaskUpdateRequest): The body of `PATCH /v1/tasks/{id}`, a JSON merge patch of the
            task: only `rateLimit` changes, and it
            is required (absent: 422 `missing-field`); null removes the task's own limit.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Task]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: TaskUpdateRequest,
) -> Problem | Task | None:
    """The task's bandwidth limit (beyond URLSession)

     A JSON merge patch of the task's own `rateLimit` (the only member that changes): a `RateLimit`, or
    null for none of its own. A running transfer takes it at once, without starting again (its share
    is divided again within the engine's next turn; the answer shows the limit in force with it); the
    task keeps it for later attempts and across a restart. On a cluster, a PATCH made on a node other
    than the one running the attempt reaches that node (through the database, as a control call does)
    and its transfer takes it the same way; should that node not answer within 10 s, the attempt takes
    it when it next starts. 422 naming the field for an invalid limit, `missing-field` without
    `rateLimit`, `invalid-value` on a webSocket or stream task; 409 once the task is completed or
    canceling; another tenant's task is 404.

    Args:
        id (str):
        body (TaskUpdateRequest): The body of `PATCH /v1/tasks/{id}`, a JSON merge patch of the
            task: only `rateLimit` changes, and it
            is required (absent: 422 `missing-field`); null removes the task's own limit.

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
        )
    ).parsed
