from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session import Session
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
        "url": "/v1/sessions/{id}/finishTasksAndInvalidate".format(
            id=quote(str(id), safe=""),
        ),
    }

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
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Session]:
    """finishTasksAndInvalidate()

     As `finishTasksAndInvalidate()`: no new tasks may be created (409), running and suspended tasks
    finish normally, then the session becomes `invalidated` and `session.didBecomeInvalidWithError`
    (error null) is sent. The answer is the session: `invalidating` while tasks remain, `invalidated`
    when none did. A `private` cookie storage of the session is discarded (its running tasks keep
    theirs until they end); the tenant's `shared` one stays. The session's connections close once
    its last task is done. Repeating the call is harmless (200, the session as it is). Where the service
    differs: URLSession silently ignores invalidating `URLSession.shared`; here the shared session
    answers 409 `conflict`, because a client that tries has a bug. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
) -> Problem | Session | None:
    """finishTasksAndInvalidate()

     As `finishTasksAndInvalidate()`: no new tasks may be created (409), running and suspended tasks
    finish normally, then the session becomes `invalidated` and `session.didBecomeInvalidWithError`
    (error null) is sent. The answer is the session: `invalidating` while tasks remain, `invalidated`
    when none did. A `private` cookie storage of the session is discarded (its running tasks keep
    theirs until they end); the tenant's `shared` one stays. The session's connections close once
    its last task is done. Repeating the call is harmless (200, the session as it is). Where the service
    differs: URLSession silently ignores invalidating `URLSession.shared`; here the shared session
    answers 409 `conflict`, because a client that tries has a bug. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
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
) -> Response[Problem | Session]:
    """finishTasksAndInvalidate()

     As `finishTasksAndInvalidate()`: no new tasks may be created (409), running and suspended tasks
    finish normally, then the session becomes `invalidated` and `session.didBecomeInvalidWithError`
    (error null) is sent. The answer is the session: `invalidating` while tasks remain, `invalidated`
    when none did. A `private` cookie storage of the session is discarded (its running tasks keep
    theirs until they end); the tenant's `shared` one stays. The session's connections close once
    its last task is done. Repeating the call is harmless (200, the session as it is). Where the service
    differs: URLSession silently ignores invalidating `URLSession.shared`; here the shared session
    answers 409 `conflict`, because a client that tries has a bug. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
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
) -> Problem | Session | None:
    """finishTasksAndInvalidate()

     As `finishTasksAndInvalidate()`: no new tasks may be created (409), running and suspended tasks
    finish normally, then the session becomes `invalidated` and `session.didBecomeInvalidWithError`
    (error null) is sent. The answer is the session: `invalidating` while tasks remain, `invalidated`
    when none did. A `private` cookie storage of the session is discarded (its running tasks keep
    theirs until they end); the tenant's `shared` one stays. The session's connections close once
    its last task is done. Repeating the call is harmless (200, the session as it is). Where the service
    differs: URLSession silently ignores invalidating `URLSession.shared`; here the shared session
    answers 409 `conflict`, because a client that tries has a bug. Takes no body.

    Args:
        id (str):
        idempotency_key (str | Unset):

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
            idempotency_key=idempotency_key,
        )
    ).parsed
