from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.node_list import NodeList
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/nodes",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> NodeList | Problem | None:
    if response.status_code == 200:
        response_200 = NodeList.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[NodeList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[NodeList | Problem]:
    """The nodes sharing the database, their leases and load

     Admin tokens only. With `URLSESSIOND_DATABASE_URL` several nodes share one PostgreSQL database:
    each writes a heartbeat (every second) that is its lease on the tasks it runs. `state` is `live`
    while the heartbeat is younger than `leaseSeconds` (`URLSESSIOND_LEASE_SECONDS`, default 15),
    `expired` after (its unfinished tasks are taken over by the other nodes, as a restart picks them
    up), `stopped` after a graceful shutdown (taken over at once). `activeTasks` is what the node had
    in hand at its last heartbeat, `claimedTasks` the unfinished tasks the database shows it running.
    On SQLite the one node is this one, `local`, described from memory.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NodeList | Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> NodeList | Problem | None:
    """The nodes sharing the database, their leases and load

     Admin tokens only. With `URLSESSIOND_DATABASE_URL` several nodes share one PostgreSQL database:
    each writes a heartbeat (every second) that is its lease on the tasks it runs. `state` is `live`
    while the heartbeat is younger than `leaseSeconds` (`URLSESSIOND_LEASE_SECONDS`, default 15),
    `expired` after (its unfinished tasks are taken over by the other nodes, as a restart picks them
    up), `stopped` after a graceful shutdown (taken over at once). `activeTasks` is what the node had
    in hand at its last heartbeat, `claimedTasks` the unfinished tasks the database shows it running.
    On SQLite the one node is this one, `local`, described from memory.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NodeList | Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[NodeList | Problem]:
    """The nodes sharing the database, their leases and load

     Admin tokens only. With `URLSESSIOND_DATABASE_URL` several nodes share one PostgreSQL database:
    each writes a heartbeat (every second) that is its lease on the tasks it runs. `state` is `live`
    while the heartbeat is younger than `leaseSeconds` (`URLSESSIOND_LEASE_SECONDS`, default 15),
    `expired` after (its unfinished tasks are taken over by the other nodes, as a restart picks them
    up), `stopped` after a graceful shutdown (taken over at once). `activeTasks` is what the node had
    in hand at its last heartbeat, `claimedTasks` the unfinished tasks the database shows it running.
    On SQLite the one node is this one, `local`, described from memory.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NodeList | Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> NodeList | Problem | None:
    """The nodes sharing the database, their leases and load

     Admin tokens only. With `URLSESSIOND_DATABASE_URL` several nodes share one PostgreSQL database:
    each writes a heartbeat (every second) that is its lease on the tasks it runs. `state` is `live`
    while the heartbeat is younger than `leaseSeconds` (`URLSESSIOND_LEASE_SECONDS`, default 15),
    `expired` after (its unfinished tasks are taken over by the other nodes, as a restart picks them
    up), `stopped` after a graceful shutdown (taken over at once). `activeTasks` is what the node had
    in hand at its last heartbeat, `claimedTasks` the unfinished tasks the database shows it running.
    On SQLite the one node is this one, `local`, described from memory.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NodeList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
