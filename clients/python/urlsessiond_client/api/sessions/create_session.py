from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session import Session
from ...models.session_create_request import SessionCreateRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: SessionCreateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions",
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

    if response.status_code == 201:
        response_201 = Session.from_dict(response.json())

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
    *,
    client: AuthenticatedClient | Client,
    body: SessionCreateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Session]:
    """URLSession(configuration:delegate:delegateQueue:)

     Creates a session, like `URLSession(configuration:delegate:delegateQueue:)`. Every field is
    optional: `configuration` gets URLSession's defaults for its `kind` (see `SessionConfiguration`),
    and without `delegate` the session has the system-provided delegate: no webhooks, events stay
    readable at `/v1/sessions/{id}/events`. The configuration is immutable afterwards (URLSession
    copies its configuration too): create another session to change it. `delegate` and
    `sessionDescription` may change later (`PATCH /v1/sessions/{id}`).

    Answers 201 with the session and `Location: /v1/sessions/{id}`. When the service generated the
    delegate's signing secret (no `delegate.secret` sent), this 201 carries it as `delegate.secret`,
    the only time it is ever returned; keep it to verify webhook signatures.

    Background re-attach: a `background` configuration whose `identifier` belongs to a session of the
    tenant that is not `invalidated` answers 200 with that existing session (its own configuration
    and delegate, not the body's, and never its secret), the equivalent of recreating
    `URLSessionConfiguration.background(withIdentifier:)` after an app relaunch. Its undelivered events
    are then delivered, ending with `session.didFinishEventsForBackgroundURLSession`. When the body's
    `delegate` differs from the stored one, or carries a `secret`, it replaces the stored delegate (a
    client back at another address): the events not delivered yet, those queued for the old address
    included, go to the new URL, signed with the body's secret or, without one, with a new secret the
    service generates and this 200 carries as `delegate.secret` (the only time it is shown). A body
    without `delegate`, or with the same one and no secret, leaves the stored delegate as it is.

    Args:
        idempotency_key (str | Unset):
        body (SessionCreateRequest | Unset): The body of `POST /v1/sessions`; every field is
            optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
    body: SessionCreateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Session | None:
    """URLSession(configuration:delegate:delegateQueue:)

     Creates a session, like `URLSession(configuration:delegate:delegateQueue:)`. Every field is
    optional: `configuration` gets URLSession's defaults for its `kind` (see `SessionConfiguration`),
    and without `delegate` the session has the system-provided delegate: no webhooks, events stay
    readable at `/v1/sessions/{id}/events`. The configuration is immutable afterwards (URLSession
    copies its configuration too): create another session to change it. `delegate` and
    `sessionDescription` may change later (`PATCH /v1/sessions/{id}`).

    Answers 201 with the session and `Location: /v1/sessions/{id}`. When the service generated the
    delegate's signing secret (no `delegate.secret` sent), this 201 carries it as `delegate.secret`,
    the only time it is ever returned; keep it to verify webhook signatures.

    Background re-attach: a `background` configuration whose `identifier` belongs to a session of the
    tenant that is not `invalidated` answers 200 with that existing session (its own configuration
    and delegate, not the body's, and never its secret), the equivalent of recreating
    `URLSessionConfiguration.background(withIdentifier:)` after an app relaunch. Its undelivered events
    are then delivered, ending with `session.didFinishEventsForBackgroundURLSession`. When the body's
    `delegate` differs from the stored one, or carries a `secret`, it replaces the stored delegate (a
    client back at another address): the events not delivered yet, those queued for the old address
    included, go to the new URL, signed with the body's secret or, without one, with a new secret the
    service generates and this 200 carries as `delegate.secret` (the only time it is shown). A body
    without `delegate`, or with the same one and no secret, leaves the stored delegate as it is.

    Args:
        idempotency_key (str | Unset):
        body (SessionCreateRequest | Unset): The body of `POST /v1/sessions`; every field is
            optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SessionCreateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Session]:
    """URLSession(configuration:delegate:delegateQueue:)

     Creates a session, like `URLSession(configuration:delegate:delegateQueue:)`. Every field is
    optional: `configuration` gets URLSession's defaults for its `kind` (see `SessionConfiguration`),
    and without `delegate` the session has the system-provided delegate: no webhooks, events stay
    readable at `/v1/sessions/{id}/events`. The configuration is immutable afterwards (URLSession
    copies its configuration too): create another session to change it. `delegate` and
    `sessionDescription` may change later (`PATCH /v1/sessions/{id}`).

    Answers 201 with the session and `Location: /v1/sessions/{id}`. When the service generated the
    delegate's signing secret (no `delegate.secret` sent), this 201 carries it as `delegate.secret`,
    the only time it is ever returned; keep it to verify webhook signatures.

    Background re-attach: a `background` configuration whose `identifier` belongs to a session of the
    tenant that is not `invalidated` answers 200 with that existing session (its own configuration
    and delegate, not the body's, and never its secret), the equivalent of recreating
    `URLSessionConfiguration.background(withIdentifier:)` after an app relaunch. Its undelivered events
    are then delivered, ending with `session.didFinishEventsForBackgroundURLSession`. When the body's
    `delegate` differs from the stored one, or carries a `secret`, it replaces the stored delegate (a
    client back at another address): the events not delivered yet, those queued for the old address
    included, go to the new URL, signed with the body's secret or, without one, with a new secret the
    service generates and this 200 carries as `delegate.secret` (the only time it is shown). A body
    without `delegate`, or with the same one and no secret, leaves the stored delegate as it is.

    Args:
        idempotency_key (str | Unset):
        body (SessionCreateRequest | Unset): The body of `POST /v1/sessions`; every field is
            optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
    body: SessionCreateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Session | None:
    """URLSession(configuration:delegate:delegateQueue:)

     Creates a session, like `URLSession(configuration:delegate:delegateQueue:)`. Every field is
    optional: `configuration` gets URLSession's defaults for its `kind` (see `SessionConfiguration`),
    and without `delegate` the session has the system-provided delegate: no webhooks, events stay
    readable at `/v1/sessions/{id}/events`. The configuration is immutable afterwards (URLSession
    copies its configuration too): create another session to change it. `delegate` and
    `sessionDescription` may change later (`PATCH /v1/sessions/{id}`).

    Answers 201 with the session and `Location: /v1/sessions/{id}`. When the service generated the
    delegate's signing secret (no `delegate.secret` sent), this 201 carries it as `delegate.secret`,
    the only time it is ever returned; keep it to verify webhook signatures.

    Background re-attach: a `background` configuration whose `identifier` belongs to a session of the
    tenant that is not `invalidated` answers 200 with that existing session (its own configuration
    and delegate, not the body's, and never its secret), the equivalent of recreating
    `URLSessionConfiguration.background(withIdentifier:)` after an app relaunch. Its undelivered events
    are then delivered, ending with `session.didFinishEventsForBackgroundURLSession`. When the body's
    `delegate` differs from the stored one, or carries a `secret`, it replaces the stored delegate (a
    client back at another address): the events not delivered yet, those queued for the old address
    included, go to the new URL, signed with the body's secret or, without one, with a new secret the
    service generates and this 200 carries as `delegate.secret` (the only time it is shown). A body
    without `delegate`, or with the same one and no secret, leaves the stored delegate as it is.

    Args:
        idempotency_key (str | Unset):
        body (SessionCreateRequest | Unset): The body of `POST /v1/sessions`; every field is
            optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
