from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session import Session
from ...models.shared_session_update_request import SharedSessionUpdateRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: SharedSessionUpdateRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/sessions/shared",
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
    *,
    client: AuthenticatedClient | Client,
    body: SharedSessionUpdateRequest | Unset = UNSET,
) -> Response[Problem | Session]:
    """URLSession.shared.sessionDescription

     `PATCH /v1/sessions/{id}` for the shared session: only `sessionDescription` may change
    (`URLSession.shared` has no delegate: `delegate: null` changes nothing, a delegate object is 409).

    Args:
        body (SharedSessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/shared`, a
            merge patch of `sessionDescription`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: SharedSessionUpdateRequest | Unset = UNSET,
) -> Problem | Session | None:
    """URLSession.shared.sessionDescription

     `PATCH /v1/sessions/{id}` for the shared session: only `sessionDescription` may change
    (`URLSession.shared` has no delegate: `delegate: null` changes nothing, a delegate object is 409).

    Args:
        body (SharedSessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/shared`, a
            merge patch of `sessionDescription`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SharedSessionUpdateRequest | Unset = UNSET,
) -> Response[Problem | Session]:
    """URLSession.shared.sessionDescription

     `PATCH /v1/sessions/{id}` for the shared session: only `sessionDescription` may change
    (`URLSession.shared` has no delegate: `delegate: null` changes nothing, a delegate object is 409).

    Args:
        body (SharedSessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/shared`, a
            merge patch of `sessionDescription`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SharedSessionUpdateRequest | Unset = UNSET,
) -> Problem | Session | None:
    """URLSession.shared.sessionDescription

     `PATCH /v1/sessions/{id}` for the shared session: only `sessionDescription` may change
    (`URLSession.shared` has no delegate: `delegate: null` changes nothing, a delegate object is 409).

    Args:
        body (SharedSessionUpdateRequest | Unset): The body of `PATCH /v1/sessions/shared`, a
            merge patch of `sessionDescription`.

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
        )
    ).parsed
