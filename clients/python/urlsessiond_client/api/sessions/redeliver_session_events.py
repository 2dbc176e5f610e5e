from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.redeliver_request import RedeliverRequest
from ...models.session import Session
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: RedeliverRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{id}/redeliver".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Session | None:
    if response.status_code == 200:
        response_200 = Session.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Session]:
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
    body: RedeliverRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Session]:
    """Re-send the delegate's undelivered events now

     Beyond URLSession (whose delegate is in-process): the delegate's events not delivered yet go to
    it again now, in `sequence` order from the first one after `delivery.deliveredThrough`. What the
    delegate's address earned is forgotten, as when a `PATCH` gives the delegate a new address: the
    wait before a retry (`retrying`), a hold (`held`, a background session without launch events
    whose client could not be reached; re-attaching lifts it too) and a 410 Gone (`disabled`); the
    events' attempt counts start afresh. The health it recorded stays (`lastDeliveredAt`,
    `consecutiveFailures`, `lastFailure`) until the next answer. With several nodes on one PostgreSQL
    database the node delivering the session's webhooks does it, whichever node receives the call.
    The answer is the session, its `delivery` as it stands once the queue was restarted (`delivering`,
    or `idle` when nothing waits). A session without a delegate, and the shared session, answer 409
    `conflict`. The body is optional: none, or `{}`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (RedeliverRequest | Unset): The optional body of `redeliver`, which takes no member.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
    body: RedeliverRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Session | None:
    """Re-send the delegate's undelivered events now

     Beyond URLSession (whose delegate is in-process): the delegate's events not delivered yet go to
    it again now, in `sequence` order from the first one after `delivery.deliveredThrough`. What the
    delegate's address earned is forgotten, as when a `PATCH` gives the delegate a new address: the
    wait before a retry (`retrying`), a hold (`held`, a background session without launch events
    whose client could not be reached; re-attaching lifts it too) and a 410 Gone (`disabled`); the
    events' attempt counts start afresh. The health it recorded stays (`lastDeliveredAt`,
    `consecutiveFailures`, `lastFailure`) until the next answer. With several nodes on one PostgreSQL
    database the node delivering the session's webhooks does it, whichever node receives the call.
    The answer is the session, its `delivery` as it stands once the queue was restarted (`delivering`,
    or `idle` when nothing waits). A session without a delegate, and the shared session, answer 409
    `conflict`. The body is optional: none, or `{}`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (RedeliverRequest | Unset): The optional body of `redeliver`, which takes no member.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
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
    body: RedeliverRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Session]:
    """Re-send the delegate's undelivered events now

     Beyond URLSession (whose delegate is in-process): the delegate's events not delivered yet go to
    it again now, in `sequence` order from the first one after `delivery.deliveredThrough`. What the
    delegate's address earned is forgotten, as when a `PATCH` gives the delegate a new address: the
    wait before a retry (`retrying`), a hold (`held`, a background session without launch events
    whose client could not be reached; re-attaching lifts it too) and a 410 Gone (`disabled`); the
    events' attempt counts start afresh. The health it recorded stays (`lastDeliveredAt`,
    `consecutiveFailures`, `lastFailure`) until the next answer. With several nodes on one PostgreSQL
    database the node delivering the session's webhooks does it, whichever node receives the call.
    The answer is the session, its `delivery` as it stands once the queue was restarted (`delivering`,
    or `idle` when nothing waits). A session without a delegate, and the shared session, answer 409
    `conflict`. The body is optional: none, or `{}`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (RedeliverRequest | Unset): The optional body of `redeliver`, which takes no member.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
    body: RedeliverRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Session | None:
    """Re-send the delegate's undelivered events now

     Beyond URLSession (whose delegate is in-process): the delegate's events not delivered yet go to
    it again now, in `sequence` order from the first one after `delivery.deliveredThrough`. What the
    delegate's address earned is forgotten, as when a `PATCH` gives the delegate a new address: the
    wait before a retry (`retrying`), a hold (`held`, a background session without launch events
    whose client could not be reached; re-attaching lifts it too) and a 410 Gone (`disabled`); the
    events' attempt counts start afresh. The health it recorded stays (`lastDeliveredAt`,
    `consecutiveFailures`, `lastFailure`) until the next answer. With several nodes on one PostgreSQL
    database the node delivering the session's webhooks does it, whichever node receives the call.
    The answer is the session, its `delivery` as it stands once the queue was restarted (`delivering`,
    or `idle` when nothing waits). A session without a delegate, and the shared session, answer 409
    `conflict`. The body is optional: none, or `{}`.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (RedeliverRequest | Unset): The optional body of `redeliver`, which takes no member.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
