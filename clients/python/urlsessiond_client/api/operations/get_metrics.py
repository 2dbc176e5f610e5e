from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/metrics",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Problem | str]:
    """Prometheus metrics

     Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4; charset=utf-8`): HTTP
    requests by route, method and status with their durations, plus the service's own counters;
    each tenant's quotas as `urlsessiond_tenant_usage{tenant,quota}` and
    `urlsessiond_tenant_quota{tenant,quota}` (0: no limit), the refusals as
    `urlsessiond_quota_exceeded_total{tenant,quota}`, `urlsessiond_event_watcher_wakeups_total`
    (long-polls and event streams woken by a new event of their own session), and
    `urlsessiond_store_statements_total` (every statement this node ran in its database, transaction
    control included: a batch of tasks costs a few, not a few per task).
    Transfers, as this node committed and runs them (sum over the nodes for a cluster):
    `urlsessiond_tasks_created_total{tenant,kind}`,
    `urlsessiond_tasks_completed_total{tenant,kind,outcome,code}` (`outcome` `success`, `cancelled` or
    `failed`; `code` the NSURLErrorDomain code, 0 on success),
    `urlsessiond_task_bytes_received_total{tenant}`
    and `urlsessiond_task_bytes_sent_total{tenant}` (the bytes of tasks that completed, counted at
    their completion), and the gauges `urlsessiond_transfers_running` and `urlsessiond_transfers_queued`
    (the engine's slots in use, and transfers waiting for one). The `tenant` label takes the first 100
    tenants a node sees; later ones share `other`. Ids never become label values.
    Needs no token unless the server configures a metrics token (`URLSESSIOND_METRICS_TOKEN` or
    `--metrics-token`, at least 16 characters): then `Authorization: Bearer <metrics token>` is
    required (compared in constant time), and anything else, tenant and admin tokens included,
    answers 401.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> Problem | str | None:
    """Prometheus metrics

     Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4; charset=utf-8`): HTTP
    requests by route, method and status with their durations, plus the service's own counters;
    each tenant's quotas as `urlsessiond_tenant_usage{tenant,quota}` and
    `urlsessiond_tenant_quota{tenant,quota}` (0: no limit), the refusals as
    `urlsessiond_quota_exceeded_total{tenant,quota}`, `urlsessiond_event_watcher_wakeups_total`
    (long-polls and event streams woken by a new event of their own session), and
    `urlsessiond_store_statements_total` (every statement this node ran in its database, transaction
    control included: a batch of tasks costs a few, not a few per task).
    Transfers, as this node committed and runs them (sum over the nodes for a cluster):
    `urlsessiond_tasks_created_total{tenant,kind}`,
    `urlsessiond_tasks_completed_total{tenant,kind,outcome,code}` (`outcome` `success`, `cancelled` or
    `failed`; `code` the NSURLErrorDomain code, 0 on success),
    `urlsessiond_task_bytes_received_total{tenant}`
    and `urlsessiond_task_bytes_sent_total{tenant}` (the bytes of tasks that completed, counted at
    their completion), and the gauges `urlsessiond_transfers_running` and `urlsessiond_transfers_queued`
    (the engine's slots in use, and transfers waiting for one). The `tenant` label takes the first 100
    tenants a node sees; later ones share `other`. Ids never become label values.
    Needs no token unless the server configures a metrics token (`URLSESSIOND_METRICS_TOKEN` or
    `--metrics-token`, at least 16 characters): then `Authorization: Bearer <metrics token>` is
    required (compared in constant time), and anything else, tenant and admin tokens included,
    answers 401.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Problem | str]:
    """Prometheus metrics

     Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4; charset=utf-8`): HTTP
    requests by route, method and status with their durations, plus the service's own counters;
    each tenant's quotas as `urlsessiond_tenant_usage{tenant,quota}` and
    `urlsessiond_tenant_quota{tenant,quota}` (0: no limit), the refusals as
    `urlsessiond_quota_exceeded_total{tenant,quota}`, `urlsessiond_event_watcher_wakeups_total`
    (long-polls and event streams woken by a new event of their own session), and
    `urlsessiond_store_statements_total` (every statement this node ran in its database, transaction
    control included: a batch of tasks costs a few, not a few per task).
    Transfers, as this node committed and runs them (sum over the nodes for a cluster):
    `urlsessiond_tasks_created_total{tenant,kind}`,
    `urlsessiond_tasks_completed_total{tenant,kind,outcome,code}` (`outcome` `success`, `cancelled` or
    `failed`; `code` the NSURLErrorDomain code, 0 on success),
    `urlsessiond_task_bytes_received_total{tenant}`
    and `urlsessiond_task_bytes_sent_total{tenant}` (the bytes of tasks that completed, counted at
    their completion), and the gauges `urlsessiond_transfers_running` and `urlsessiond_transfers_queued`
    (the engine's slots in use, and transfers waiting for one). The `tenant` label takes the first 100
    tenants a node sees; later ones share `other`. Ids never become label values.
    Needs no token unless the server configures a metrics token (`URLSESSIOND_METRICS_TOKEN` or
    `--metrics-token`, at least 16 characters): then `Authorization: Bearer <metrics token>` is
    required (compared in constant time), and anything else, tenant and admin tokens included,
    answers 401.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> Problem | str | None:
    """Prometheus metrics

     Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4; charset=utf-8`): HTTP
    requests by route, method and status with their durations, plus the service's own counters;
    each tenant's quotas as `urlsessiond_tenant_usage{tenant,quota}` and
    `urlsessiond_tenant_quota{tenant,quota}` (0: no limit), the refusals as
    `urlsessiond_quota_exceeded_total{tenant,quota}`, `urlsessiond_event_watcher_wakeups_total`
    (long-polls and event streams woken by a new event of their own session), and
    `urlsessiond_store_statements_total` (every statement this node ran in its database, transaction
    control included: a batch of tasks costs a few, not a few per task).
    Transfers, as this node committed and runs them (sum over the nodes for a cluster):
    `urlsessiond_tasks_created_total{tenant,kind}`,
    `urlsessiond_tasks_completed_total{tenant,kind,outcome,code}` (`outcome` `success`, `cancelled` or
    `failed`; `code` the NSURLErrorDomain code, 0 on success),
    `urlsessiond_task_bytes_received_total{tenant}`
    and `urlsessiond_task_bytes_sent_total{tenant}` (the bytes of tasks that completed, counted at
    their completion), and the gauges `urlsessiond_transfers_running` and `urlsessiond_transfers_queued`
    (the engine's slots in use, and transfers waiting for one). The `tenant` label takes the first 100
    tenants a node sees; later ones share `other`. Ids never become label values.
    Needs no token unless the server configures a metrics token (`URLSESSIOND_METRICS_TOKEN` or
    `--metrics-token`, at least 16 characters): then `Authorization: Bearer <metrics token>` is
    required (compared in constant time), and anything else, tenant and admin tokens included,
    answers 401.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
