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
        "url": "/console",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

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
    client: AuthenticatedClient | Client,
) -> Response[Problem | str]:
    """The operator console (a page for browsers)

     A small web console served from the binary (plain HTML, CSS and JavaScript; nothing from elsewhere):
    the tenant's sessions with their delegates' webhook health, a session's tasks with live progress
    (read from the session's server-sent events), a task's request, response, metrics timeline and
    events, the task actions, and for admin tokens the network paths, nodes, usage by tenant and
    `/metrics`. Needs no token: the page asks for one, keeps it in the tab's `sessionStorage` and
    sends it as the bearer token of its API calls; it never puts it in a URL.

    Every console answer carries `Content-Security-Policy: default-src 'none'; script-src 'self';
    style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none';
    frame-ancestors 'none'`, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`,
    `Referrer-Policy: no-referrer` and `Cache-Control: no-cache`.

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
    client: AuthenticatedClient | Client,
) -> Problem | str | None:
    """The operator console (a page for browsers)

     A small web console served from the binary (plain HTML, CSS and JavaScript; nothing from elsewhere):
    the tenant's sessions with their delegates' webhook health, a session's tasks with live progress
    (read from the session's server-sent events), a task's request, response, metrics timeline and
    events, the task actions, and for admin tokens the network paths, nodes, usage by tenant and
    `/metrics`. Needs no token: the page asks for one, keeps it in the tab's `sessionStorage` and
    sends it as the bearer token of its API calls; it never puts it in a URL.

    Every console answer carries `Content-Security-Policy: default-src 'none'; script-src 'self';
    style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none';
    frame-ancestors 'none'`, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`,
    `Referrer-Policy: no-referrer` and `Cache-Control: no-cache`.

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
    client: AuthenticatedClient | Client,
) -> Response[Problem | str]:
    """The operator console (a page for browsers)

     A small web console served from the binary (plain HTML, CSS and JavaScript; nothing from elsewhere):
    the tenant's sessions with their delegates' webhook health, a session's tasks with live progress
    (read from the session's server-sent events), a task's request, response, metrics timeline and
    events, the task actions, and for admin tokens the network paths, nodes, usage by tenant and
    `/metrics`. Needs no token: the page asks for one, keeps it in the tab's `sessionStorage` and
    sends it as the bearer token of its API calls; it never puts it in a URL.

    Every console answer carries `Content-Security-Policy: default-src 'none'; script-src 'self';
    style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none';
    frame-ancestors 'none'`, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`,
    `Referrer-Policy: no-referrer` and `Cache-Control: no-cache`.

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
    client: AuthenticatedClient | Client,
) -> Problem | str | None:
    """The operator console (a page for browsers)

     A small web console served from the binary (plain HTML, CSS and JavaScript; nothing from elsewhere):
    the tenant's sessions with their delegates' webhook health, a session's tasks with live progress
    (read from the session's server-sent events), a task's request, response, metrics timeline and
    events, the task actions, and for admin tokens the network paths, nodes, usage by tenant and
    `/metrics`. Needs no token: the page asks for one, keeps it in the tab's `sessionStorage` and
    sends it as the bearer token of its API calls; it never puts it in a URL.

    Every console answer carries `Content-Security-Policy: default-src 'none'; script-src 'self';
    style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none';
    frame-ancestors 'none'`, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`,
    `Referrer-Policy: no-referrer` and `Cache-Control: no-cache`.

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
