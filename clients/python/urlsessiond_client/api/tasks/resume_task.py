from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.task import Task
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks/{id}/resume".format(
            id=quote(str(id), safe=""),
        ),
    }

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
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Task]:
    """resume()



    As `resume()`: a `suspended` task starts (or continues) and becomes `running`; a task with an
    `earliestBeginDate` in the future waits for it. Resuming a `running` task is harmless (200).
    Where the service differs: URLSession ignores `resume()` on a `canceling` or `completed` task;
    here that answers 409 `conflict`. Takes no body.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Task]
    """

    kwargs = _get_kwargs(
        id=id,
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
    idempotency_key: str | Unset = UNSET,
) -> Problem | Task | None:
    """resume()



    As `resume()`: a `suspended` task starts (or continues) and becomes `running`; a task with an
    `earliestBeginDate` in the future waits for it. Resuming a `running` task is harmless (200).
    Where the service differs: URLSession ignores `resume()` on a `canceling` or `completed` task;
    here that answers 409 `conflict`. Takes no body.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Task
    """

    return sync_detailed(
        id=id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Task]:
    """resume()



    As `resume()`: a `suspended` task starts (or continues) and becomes `running`; a task with an
    `earliestBeginDate` in the future waits for it. Resuming a `running` task is harmless (200).
    Where the service differs: URLSession ignores `resume()` on a `canceling` or `completed` task;
    here that answers 409 `conflict`. Takes no body.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Task]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Task | None:
    """resume()



    As `resume()`: a `suspended` task starts (or continues) and becomes `running`; a task with an
    `earliestBeginDate` in the future waits for it. Resuming a `running` task is harmless (200).
    Where the service differs: URLSession ignores `resume()` on a `canceling` or `completed` task;
    here that answers 409 `conflict`. Takes no body.
    With several nodes on one PostgreSQL database the call is carried out by the node running the
    task, whichever node receives it (forwarded through the database); a node that does not answer
    within 10 s is named in a 409 `task-on-another-node`.

    Args:
        id (str):
        idempotency_key (str | Unset):

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
            idempotency_key=idempotency_key,
        )
    ).parsed
