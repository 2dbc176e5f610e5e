from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cache_decision import CacheDecision
from ...models.challenge_decision import ChallengeDecision
from ...models.delayed_request_decision import DelayedRequestDecision
from ...models.problem import Problem
from ...models.redirection_decision import RedirectionDecision
from ...models.response_decision import ResponseDecision
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    event_id: str,
    *,
    body: CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision | ResponseDecision,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{id}/events/{event_id}/answer".format(
            id=quote(str(id), safe=""),
            event_id=quote(str(event_id), safe=""),
        ),
    }

    if (
        isinstance(body, RedirectionDecision)
        or isinstance(body, ChallengeDecision)
        or isinstance(body, ResponseDecision)
        or isinstance(body, CacheDecision)
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    event_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision | ResponseDecision,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """Answer a decision event (the delegate method's completion handler)

     Beyond URLSession (whose delegate is in-process): a client that follows its session's events
    (pages, `?wait=` long-polls or server-sent events) answers a decision event the session's
    `delegate.decisions` lists with the body a webhook would answer with (`DecisionAnswer`). It is how
    a delegate without `url` — a delegate in the client process — decides redirects, responses,
    challenges, delayed requests and caching; it works for a webhook delegate too, and the first
    answer wins (the webhook's or this one).

    The transfer waits for the answer from the moment the event is written until the delegate's
    `decisionTimeout` passes. An answer that comes when no transfer waits for it — the event is not a
    decision event the delegate implements, it was answered already, or its time ran out and the
    default handling was applied — is 409 `conflict` and changes nothing. The answer is checked more
    closely than a webhook's: a `disposition` no decision event takes, or a member the disposition
    does not carry, is 422 naming it; an answer of the wrong kind for the question asked (say
    `allow` to a redirect) is taken and means the default handling, as from a webhook.

    With several nodes on one PostgreSQL database the transfer waits on the node that runs its task:
    an answer made on another node is sent to that node, which takes it if its transfer still waits
    and says so (204 or 409 as above); when it does not reply within 3 seconds the answer is 202
    (offered: taken if the transfer still waits; the task's events tell). The offer travels in a
    PostgreSQL `NOTIFY`, so there an answer larger than about 7,900 bytes of JSON is refused with 413.
    A webhook's answer travels the same way, from the node delivering the session's webhooks to the
    node whose transfer waits (its failure too: the default handling at once); one larger than that
    cannot, and that transfer applies the default handling when its `decisionTimeout` passes.

    With an `Idempotency-Key`, a retry of the same answer gets the first one's status (a 204 again,
    not the 409 a second answer would get).

    Args:
        id (str):
        event_id (str):
        idempotency_key (str | Unset):
        body (CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision |
            ResponseDecision): The delegate's answer to a decision event, the value its delegate
            method would pass to the
            completion handler. The form depends on the event type.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        event_id=event_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    event_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision | ResponseDecision,
    idempotency_key: str | Unset = UNSET,
) -> Any | Problem | None:
    """Answer a decision event (the delegate method's completion handler)

     Beyond URLSession (whose delegate is in-process): a client that follows its session's events
    (pages, `?wait=` long-polls or server-sent events) answers a decision event the session's
    `delegate.decisions` lists with the body a webhook would answer with (`DecisionAnswer`). It is how
    a delegate without `url` — a delegate in the client process — decides redirects, responses,
    challenges, delayed requests and caching; it works for a webhook delegate too, and the first
    answer wins (the webhook's or this one).

    The transfer waits for the answer from the moment the event is written until the delegate's
    `decisionTimeout` passes. An answer that comes when no transfer waits for it — the event is not a
    decision event the delegate implements, it was answered already, or its time ran out and the
    default handling was applied — is 409 `conflict` and changes nothing. The answer is checked more
    closely than a webhook's: a `disposition` no decision event takes, or a member the disposition
    does not carry, is 422 naming it; an answer of the wrong kind for the question asked (say
    `allow` to a redirect) is taken and means the default handling, as from a webhook.

    With several nodes on one PostgreSQL database the transfer waits on the node that runs its task:
    an answer made on another node is sent to that node, which takes it if its transfer still waits
    and says so (204 or 409 as above); when it does not reply within 3 seconds the answer is 202
    (offered: taken if the transfer still waits; the task's events tell). The offer travels in a
    PostgreSQL `NOTIFY`, so there an answer larger than about 7,900 bytes of JSON is refused with 413.
    A webhook's answer travels the same way, from the node delivering the session's webhooks to the
    node whose transfer waits (its failure too: the default handling at once); one larger than that
    cannot, and that transfer applies the default handling when its `decisionTimeout` passes.

    With an `Idempotency-Key`, a retry of the same answer gets the first one's status (a 204 again,
    not the 409 a second answer would get).

    Args:
        id (str):
        event_id (str):
        idempotency_key (str | Unset):
        body (CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision |
            ResponseDecision): The delegate's answer to a decision event, the value its delegate
            method would pass to the
            completion handler. The form depends on the event type.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        id=id,
        event_id=event_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    event_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision | ResponseDecision,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """Answer a decision event (the delegate method's completion handler)

     Beyond URLSession (whose delegate is in-process): a client that follows its session's events
    (pages, `?wait=` long-polls or server-sent events) answers a decision event the session's
    `delegate.decisions` lists with the body a webhook would answer with (`DecisionAnswer`). It is how
    a delegate without `url` — a delegate in the client process — decides redirects, responses,
    challenges, delayed requests and caching; it works for a webhook delegate too, and the first
    answer wins (the webhook's or this one).

    The transfer waits for the answer from the moment the event is written until the delegate's
    `decisionTimeout` passes. An answer that comes when no transfer waits for it — the event is not a
    decision event the delegate implements, it was answered already, or its time ran out and the
    default handling was applied — is 409 `conflict` and changes nothing. The answer is checked more
    closely than a webhook's: a `disposition` no decision event takes, or a member the disposition
    does not carry, is 422 naming it; an answer of the wrong kind for the question asked (say
    `allow` to a redirect) is taken and means the default handling, as from a webhook.

    With several nodes on one PostgreSQL database the transfer waits on the node that runs its task:
    an answer made on another node is sent to that node, which takes it if its transfer still waits
    and says so (204 or 409 as above); when it does not reply within 3 seconds the answer is 202
    (offered: taken if the transfer still waits; the task's events tell). The offer travels in a
    PostgreSQL `NOTIFY`, so there an answer larger than about 7,900 bytes of JSON is refused with 413.
    A webhook's answer travels the same way, from the node delivering the session's webhooks to the
    node whose transfer waits (its failure too: the default handling at once); one larger than that
    cannot, and that transfer applies the default handling when its `decisionTimeout` passes.

    With an `Idempotency-Key`, a retry of the same answer gets the first one's status (a 204 again,
    not the 409 a second answer would get).

    Args:
        id (str):
        event_id (str):
        idempotency_key (str | Unset):
        body (CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision |
            ResponseDecision): The delegate's answer to a decision event, the value its delegate
            method would pass to the
            completion handler. The form depends on the event type.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        event_id=event_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    event_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision | ResponseDecision,
    idempotency_key: str | Unset = UNSET,
) -> Any | Problem | None:
    """Answer a decision event (the delegate method's completion handler)

     Beyond URLSession (whose delegate is in-process): a client that follows its session's events
    (pages, `?wait=` long-polls or server-sent events) answers a decision event the session's
    `delegate.decisions` lists with the body a webhook would answer with (`DecisionAnswer`). It is how
    a delegate without `url` — a delegate in the client process — decides redirects, responses,
    challenges, delayed requests and caching; it works for a webhook delegate too, and the first
    answer wins (the webhook's or this one).

    The transfer waits for the answer from the moment the event is written until the delegate's
    `decisionTimeout` passes. An answer that comes when no transfer waits for it — the event is not a
    decision event the delegate implements, it was answered already, or its time ran out and the
    default handling was applied — is 409 `conflict` and changes nothing. The answer is checked more
    closely than a webhook's: a `disposition` no decision event takes, or a member the disposition
    does not carry, is 422 naming it; an answer of the wrong kind for the question asked (say
    `allow` to a redirect) is taken and means the default handling, as from a webhook.

    With several nodes on one PostgreSQL database the transfer waits on the node that runs its task:
    an answer made on another node is sent to that node, which takes it if its transfer still waits
    and says so (204 or 409 as above); when it does not reply within 3 seconds the answer is 202
    (offered: taken if the transfer still waits; the task's events tell). The offer travels in a
    PostgreSQL `NOTIFY`, so there an answer larger than about 7,900 bytes of JSON is refused with 413.
    A webhook's answer travels the same way, from the node delivering the session's webhooks to the
    node whose transfer waits (its failure too: the default handling at once); one larger than that
    cannot, and that transfer applies the default handling when its `decisionTimeout` passes.

    With an `Idempotency-Key`, a retry of the same answer gets the first one's status (a 204 again,
    not the 409 a second answer would get).

    Args:
        id (str):
        event_id (str):
        idempotency_key (str | Unset):
        body (CacheDecision | ChallengeDecision | DelayedRequestDecision | RedirectionDecision |
            ResponseDecision): The delegate's answer to a decision event, the value its delegate
            method would pass to the
            completion handler. The form depends on the event type.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            event_id=event_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
