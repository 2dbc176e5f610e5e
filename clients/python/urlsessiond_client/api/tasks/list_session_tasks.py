from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.task_kind import TaskKind
from ...models.task_list import TaskList
from ...models.task_state import TaskState
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    kind: TaskKind | Unset = UNSET,
    state: TaskState | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params["limit"] = limit

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sessions/{id}/tasks".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TaskList | None:
    if response.status_code == 200:
        response_200 = TaskList.from_dict(response.json())

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

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TaskList]:
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
    kind: TaskKind | Unset = UNSET,
    state: TaskState | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[Problem | TaskList]:
    """getAllTasks(completionHandler:)



    The session's tasks in creation order, like `getAllTasks(completionHandler:)`. Where the service
    differs: URLSession returns only tasks that have not completed, while this list keeps completed
    tasks too; `?state=suspended`, `running` or `canceling` narrow it. `?kind=` is
    `getTasksWithCompletionHandler`'s split into data, upload and download tasks.

    Args:
        id (str):
        kind (TaskKind | Unset): `URLSessionDataTask`, `URLSessionDownloadTask`,
            `URLSessionUploadTask`, `URLSessionWebSocketTask` or
            `URLSessionStreamTask`.
        state (TaskState | Unset): `URLSessionTask.State`.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskList]
    """

    kwargs = _get_kwargs(
        id=id,
        kind=kind,
        state=state,
        limit=limit,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    kind: TaskKind | Unset = UNSET,
    state: TaskState | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Problem | TaskList | None:
    """getAllTasks(completionHandler:)



    The session's tasks in creation order, like `getAllTasks(completionHandler:)`. Where the service
    differs: URLSession returns only tasks that have not completed, while this list keeps completed
    tasks too; `?state=suspended`, `running` or `canceling` narrow it. `?kind=` is
    `getTasksWithCompletionHandler`'s split into data, upload and download tasks.

    Args:
        id (str):
        kind (TaskKind | Unset): `URLSessionDataTask`, `URLSessionDownloadTask`,
            `URLSessionUploadTask`, `URLSessionWebSocketTask` or
            `URLSessionStreamTask`.
        state (TaskState | Unset): `URLSessionTask.State`.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskList
    """

    return sync_detailed(
        id=id,
        client=client,
        kind=kind,
        state=state,
        limit=limit,
        after=after,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    kind: TaskKind | Unset = UNSET,
    state: TaskState | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[Problem | TaskList]:
    """getAllTasks(completionHandler:)



    The session's tasks in creation order, like `getAllTasks(completionHandler:)`. Where the service
    differs: URLSession returns only tasks that have not completed, while this list keeps completed
    tasks too; `?state=suspended`, `running` or `canceling` narrow it. `?kind=` is
    `getTasksWithCompletionHandler`'s split into data, upload and download tasks.

    Args:
        id (str):
        kind (TaskKind | Unset): `URLSessionDataTask`, `URLSessionDownloadTask`,
            `URLSessionUploadTask`, `URLSessionWebSocketTask` or
            `URLSessionStreamTask`.
        state (TaskState | Unset): `URLSessionTask.State`.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskList]
    """

    kwargs = _get_kwargs(
        id=id,
        kind=kind,
        state=state,
        limit=limit,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    kind: TaskKind | Unset = UNSET,
    state: TaskState | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Problem | TaskList | None:
    """getAllTasks(completionHandler:)



    The session's tasks in creation order, like `getAllTasks(completionHandler:)`. Where the service
    differs: URLSession returns only tasks that have not completed, while this list keeps completed
    tasks too; `?state=suspended`, `running` or `canceling` narrow it. `?kind=` is
    `getTasksWithCompletionHandler`'s split into data, upload and download tasks.

    Args:
        id (str):
        kind (TaskKind | Unset): `URLSessionDataTask`, `URLSessionDownloadTask`,
            `URLSessionUploadTask`, `URLSessionWebSocketTask` or
            `URLSessionStreamTask`.
        state (TaskState | Unset): `URLSessionTask.State`.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskList
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            kind=kind,
            state=state,
            limit=limit,
            after=after,
        )
    ).parsed
