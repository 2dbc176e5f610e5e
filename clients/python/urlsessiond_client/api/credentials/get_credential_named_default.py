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
        "url": "/v1/credentials/default",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | None:
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem]:
    """`GET /v1/credentials/{id}` with the id `default` (always 404)

     `default` names the path of `PUT` (choosing a space's default credential), not a credential:
    `GET` here is `GET /v1/credentials/{id}` with the id `default`, which no credential has, so it
    always answers 404 (and the `Allow` of this path lists `PUT`, `GET`, `DELETE` and `HEAD`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | None:
    """`GET /v1/credentials/{id}` with the id `default` (always 404)

     `default` names the path of `PUT` (choosing a space's default credential), not a credential:
    `GET` here is `GET /v1/credentials/{id}` with the id `default`, which no credential has, so it
    always answers 404 (and the `Allow` of this path lists `PUT`, `GET`, `DELETE` and `HEAD`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem]:
    """`GET /v1/credentials/{id}` with the id `default` (always 404)

     `default` names the path of `PUT` (choosing a space's default credential), not a credential:
    `GET` here is `GET /v1/credentials/{id}` with the id `default`, which no credential has, so it
    always answers 404 (and the `Allow` of this path lists `PUT`, `GET`, `DELETE` and `HEAD`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | None:
    """`GET /v1/credentials/{id}` with the id `default` (always 404)

     `default` names the path of `PUT` (choosing a space's default credential), not a credential:
    `GET` here is `GET /v1/credentials/{id}` with the id `default`, which no credential has, so it
    always answers 404 (and the `Allow` of this path lists `PUT`, `GET`, `DELETE` and `HEAD`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
