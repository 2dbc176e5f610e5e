from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cookie_list import CookieList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    url_query: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["url"] = url_query

    params["limit"] = limit

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sessions/{id}/cookies".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

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
    url_query: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[CookieList | Problem]:
    """cookies / cookies(for:)

     The cookies of the storage this session uses (`httpCookieStorage`: the tenant's for `shared`, the
    session's own for `private`, none for `none`), by domain, name and path. With `?url=`, the cookies
    a request to that URL would send, in the `Cookie` header's order (`cookies(for:)`).

    Args:
        id (str):
        url_query (str | Unset): An absolute `http` or `https` URL (RFC 3986) without spaces or
            control characters: an optional
            `userinfo@`, an ASCII host (a name, punycode for others, or an IPv6 literal in brackets),
            an
            optional port of up to five digits, then any path, query and fragment.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CookieList | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        url_query=url_query,
        limit=limit,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    url_query: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> CookieList | Problem | None:
    """cookies / cookies(for:)

     The cookies of the storage this session uses (`httpCookieStorage`: the tenant's for `shared`, the
    session's own for `private`, none for `none`), by domain, name and path. With `?url=`, the cookies
    a request to that URL would send, in the `Cookie` header's order (`cookies(for:)`).

    Args:
        id (str):
        url_query (str | Unset): An absolute `http` or `https` URL (RFC 3986) without spaces or
            control characters: an optional
            `userinfo@`, an ASCII host (a name, punycode for others, or an IPv6 literal in brackets),
            an
            optional port of up to five digits, then any path, query and fragment.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CookieList | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        url_query=url_query,
        limit=limit,
        after=after,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    url_query: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[CookieList | Problem]:
    """cookies / cookies(for:)

     The cookies of the storage this session uses (`httpCookieStorage`: the tenant's for `shared`, the
    session's own for `private`, none for `none`), by domain, name and path. With `?url=`, the cookies
    a request to that URL would send, in the `Cookie` header's order (`cookies(for:)`).

    Args:
        id (str):
        url_query (str | Unset): An absolute `http` or `https` URL (RFC 3986) without spaces or
            control characters: an optional
            `userinfo@`, an ASCII host (a name, punycode for others, or an IPv6 literal in brackets),
            an
            optional port of up to five digits, then any path, query and fragment.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CookieList | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        url_query=url_query,
        limit=limit,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    url_query: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> CookieList | Problem | None:
    """cookies / cookies(for:)

     The cookies of the storage this session uses (`httpCookieStorage`: the tenant's for `shared`, the
    session's own for `private`, none for `none`), by domain, name and path. With `?url=`, the cookies
    a request to that URL would send, in the `Cookie` header's order (`cookies(for:)`).

    Args:
        id (str):
        url_query (str | Unset): An absolute `http` or `https` URL (RFC 3986) without spaces or
            control characters: an optional
            `userinfo@`, an ASCII host (a name, punycode for others, or an IPv6 literal in brackets),
            an
            optional port of up to five digits, then any path, query and fragment.
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

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
            url_query=url_query,
            limit=limit,
            after=after,
        )
    ).parsed
