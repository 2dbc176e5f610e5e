from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cookie_list import CookieList
from ...models.problem import Problem
from ...models.set_cookies_request import SetCookiesRequest
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: SetCookiesRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{id}/cookies".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CookieList | Problem | None:
    if response.status_code == 200:
        response_200 = CookieList.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CookieList | Problem]:
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
    body: SetCookiesRequest,
) -> Response[CookieList | Problem]:
    """setCookies(_:for:mainDocumentURL:)

     Stores cookies in the session's storage, with its `httpCookieAcceptPolicy`: `never` stores none,
    `onlyFromMainDocumentDomain` only those of the `mainDocumentURL`'s site (all of them without one).
    A cookie without `domain` is for `url`'s host only; a `domain` with a leading dot is sent to its
    subdomains too. A cookie for a public suffix (`co.uk`) is refused. Answers the cookies stored.

    Args:
        id (str):
        body (SetCookiesRequest): The body of `POST /v1/sessions/{id}/cookies`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CookieList | Problem]
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
    body: SetCookiesRequest,
) -> CookieList | Problem | None:
    """setCookies(_:for:mainDocumentURL:)

     Stores cookies in the session's storage, with its `httpCookieAcceptPolicy`: `never` stores none,
    `onlyFromMainDocumentDomain` only those of the `mainDocumentURL`'s site (all of them without one).
    A cookie without `domain` is for `url`'s host only; a `domain` with a leading dot is sent to its
    subdomains too. A cookie for a public suffix (`co.uk`) is refused. Answers the cookies stored.

    Args:
        id (str):
        body (SetCookiesRequest): The body of `POST /v1/sessions/{id}/cookies`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CookieList | Problem
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
    body: SetCookiesRequest,
) -> Response[CookieList | Problem]:
    """setCookies(_:for:mainDocumentURL:)

     Stores cookies in the session's storage, with its `httpCookieAcceptPolicy`: `never` stores none,
    `onlyFromMainDocumentDomain` only those of the `mainDocumentURL`'s site (all of them without one).
    A cookie without `domain` is for `url`'s host only; a `domain` with a leading dot is sent to its
    subdomains too. A cookie for a public suffix (`co.uk`) is refused. Answers the cookies stored.

    Args:
        id (str):
        body (SetCookiesRequest): The body of `POST /v1/sessions/{id}/cookies`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CookieList | Problem]
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
    body: SetCookiesRequest,
) -> CookieList | Problem | None:
    """setCookies(_:for:mainDocumentURL:)

     Stores cookies in the session's storage, with its `httpCookieAcceptPolicy`: `never` stores none,
    `onlyFromMainDocumentDomain` only those of the `mainDocumentURL`'s site (all of them without one).
    A cookie without `domain` is for `url`'s host only; a `domain` with a leading dot is sent to its
    subdomains too. A cookie for a public suffix (`co.uk`) is refused. Answers the cookies stored.

    Args:
        id (str):
        body (SetCookiesRequest): The body of `POST /v1/sessions/{id}/cookies`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CookieList | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
