from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session import Session
from ...models.session_update_request import SessionUpdateRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: SessionUpdateRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/sessions/{id}".format(
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
    body: SessionUpdateRequest | Unset = UNSET,
) -> Response[Problem | Session]:
    """URLSession.sessionDescription, and a new delegate address

     A JSON merge patch (RFC 7396) of the session's `delegate` and `sessionDescription`: a member left
    out stays as it is, `null` removes it, a value replaces it. Inside `delegate` the same holds per
    member: `{"delegate": {"url": "..."}}` moves the webhooks and keeps the secret, events, decisions
    and intervals; `null` restores a member's default (`secret` cannot be removed: 422).
    `{"delegate": {"url": null}}` moves the delegate into the client (no more webhooks, its secret is
    dropped; its decisions are answered with `answerDecision`); a `url` given to a delegate in the
    client makes it a webhook again with a new secret (the one given, or a generated one returned in
    this answer only); a `secret` for a delegate left without `url` is 422 `delegate.secret`.
    `delegate: null` removes the delegate (no more webhooks; events stay readable). The session's
    other members (`id`, `configuration`, `state`, `createdAt`) cannot change: 422 `invalid-value`
    naming the member; unknown members are 400 `unknown-field`. A delegate object for a session that
    has none makes one from the patch (without `url`: a delegate in the client). A delegate for the
    shared session (which has none) conflicts with its state: 409. A refused patch changes nothing.

    A new delegate takes the events not delivered yet, those queued for the old address included,
    from the first one on: retry waits, holds and a 410 of the old address are forgotten. Decisions a
    running task asks for follow the delegate it started with. A delegate given to a session that had
    none, without a `secret`, gets a generated one, returned in this answer only.

    Args:
        id (str):
        body (SessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/{id}`, a merge patch:
            absent = unchanged, null = removed. Other
            members of the session object are refused by name (422).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
    body: SessionUpdateRequest | Unset = UNSET,
) -> Problem | Session | None:
    """URLSession.sessionDescription, and a new delegate address

     A JSON merge patch (RFC 7396) of the session's `delegate` and `sessionDescription`: a member left
    out stays as it is, `null` removes it, a value replaces it. Inside `delegate` the same holds per
    member: `{"delegate": {"url": "..."}}` moves the webhooks and keeps the secret, events, decisions
    and intervals; `null` restores a member's default (`secret` cannot be removed: 422).
    `{"delegate": {"url": null}}` moves the delegate into the client (no more webhooks, its secret is
    dropped; its decisions are answered with `answerDecision`); a `url` given to a delegate in the
    client makes it a webhook again with a new secret (the one given, or a generated one returned in
    this answer only); a `secret` for a delegate left without `url` is 422 `delegate.secret`.
    `delegate: null` removes the delegate (no more webhooks; events stay readable). The session's
    other members (`id`, `configuration`, `state`, `createdAt`) cannot change: 422 `invalid-value`
    naming the member; unknown members are 400 `unknown-field`. A delegate object for a session that
    has none makes one from the patch (without `url`: a delegate in the client). A delegate for the
    shared session (which has none) conflicts with its state: 409. A refused patch changes nothing.

    A new delegate takes the events not delivered yet, those queued for the old address included,
    from the first one on: retry waits, holds and a 410 of the old address are forgotten. Decisions a
    running task asks for follow the delegate it started with. A delegate given to a session that had
    none, without a `secret`, gets a generated one, returned in this answer only.

    Args:
        id (str):
        body (SessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/{id}`, a merge patch:
            absent = unchanged, null = removed. Other
            members of the session object are refused by name (422).

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
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionUpdateRequest | Unset = UNSET,
) -> Response[Problem | Session]:
    """URLSession.sessionDescription, and a new delegate address

     A JSON merge patch (RFC 7396) of the session's `delegate` and `sessionDescription`: a member left
    out stays as it is, `null` removes it, a value replaces it. Inside `delegate` the same holds per
    member: `{"delegate": {"url": "..."}}` moves the webhooks and keeps the secret, events, decisions
    and intervals; `null` restores a member's default (`secret` cannot be removed: 422).
    `{"delegate": {"url": null}}` moves the delegate into the client (no more webhooks, its secret is
    dropped; its decisions are answered with `answerDecision`); a `url` given to a delegate in the
    client makes it a webhook again with a new secret (the one given, or a generated one returned in
    this answer only); a `secret` for a delegate left without `url` is 422 `delegate.secret`.
    `delegate: null` removes the delegate (no more webhooks; events stay readable). The session's
    other members (`id`, `configuration`, `state`, `createdAt`) cannot change: 422 `invalid-value`
    naming the member; unknown members are 400 `unknown-field`. A delegate object for a session that
    has none makes one from the patch (without `url`: a delegate in the client). A delegate for the
    shared session (which has none) conflicts with its state: 409. A refused patch changes nothing.

    A new delegate takes the events not delivered yet, those queued for the old address included,
    from the first one on: retry waits, holds and a 410 of the old address are forgotten. Decisions a
    running task asks for follow the delegate it started with. A delegate given to a session that had
    none, without a `secret`, gets a generated one, returned in this answer only.

    Args:
        id (str):
        body (SessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/{id}`, a merge patch:
            absent = unchanged, null = removed. Other
            members of the session object are refused by name (422).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
    body: SessionUpdateRequest | Unset = UNSET,
) -> Problem | Session | None:
    """URLSession.sessionDescription, and a new delegate address

     A JSON merge patch (RFC 7396) of the session's `delegate` and `sessionDescription`: a member left
    out stays as it is, `null` removes it, a value replaces it. Inside `delegate` the same holds per
    member: `{"delegate": {"url": "..."}}` moves the webhooks and keeps the secret, events, decisions
    and intervals; `null` restores a member's default (`secret` cannot be removed: 422).
    `{"delegate": {"url": null}}` moves the delegate into the client (no more webhooks, its secret is
    dropped; its decisions are answered with `answerDecision`); a `url` given to a delegate in the
    client makes it a webhook again with a new secret (the one given, or a generated one returned in
    this answer only); a `secret` for a delegate left without `url` is 422 `delegate.secret`.
    `delegate: null` removes the delegate (no more webhooks; events stay readable). The session's
    other members (`id`, `configuration`, `state`, `createdAt`) cannot change: 422 `invalid-value`
    naming the member; unknown members are 400 `unknown-field`. A delegate object for a session that
    has none makes one from the patch (without `url`: a delegate in the client). A delegate for the
    shared session (which has none) conflicts with its state: 409. A refused patch changes nothing.

    A new delegate takes the events not delivered yet, those queued for the old address included,
    from the first one on: retry waits, holds and a 410 of the old address are forgotten. Decisions a
    running task asks for follow the delegate it started with. A delegate given to a session that had
    none, without a `secret`, gets a generated one, returned in this answer only.

    Args:
        id (str):
        body (SessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/{id}`, a merge patch:
            absent = unchanged, null = removed. Other
            members of the session object are refused by name (422).

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
        )
    ).parsed
