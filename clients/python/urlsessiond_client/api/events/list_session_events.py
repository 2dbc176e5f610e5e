from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_list import EventList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sessions/{id}/events".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | EventList | Problem | None:
    if response.status_code == 200:
        response_200 = EventList.from_dict(response.json())

        return response_200

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

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | EventList | Problem]:
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
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Response[Any | EventList | Problem]:
    """URLSessionDelegate events of the session

     Every event of the session in `sequence` order, whether or not it was delivered to the delegate
    URL, so a client without a public URL gets the same stream (events of the system-provided
    delegate included). `?after=SEQ` returns the events whose `sequence` is greater than SEQ; a page
    holds at most `limit` events, and `nextCursor` (the last `sequence`, as a string) is set when more
    are already stored. Sequences start at 1 and have no gaps, so a client that remembers the last
    `sequence` it handled never misses or repeats one.

    **Long-poll.** With `?wait=SECONDS` the answer is held until at least one event exists after
    `after`, then answered at once; when the time is up, when the session is invalidated with nothing
    left after `after`, or when the service shuts down, the (possibly empty) page is answered.

    **Server-sent events.** With `Accept: text/event-stream` (listed at least as highly as
    `application/json`; `*/*` gets the JSON page) the answer is a stream that stays open: each event
    is sent as `id: <sequence>`, `event: <type>`, `data: <the Event as JSON on one line>` and a blank
    line, first the stored ones after `after` (or after `Last-Event-ID` when an `EventSource`
    reconnects), then each new one as it is committed. A comment line (`: keep-alive`) is sent when
    nothing else was for 15 seconds. The stream ends cleanly once the session is invalidated and its
    last event (`session.didBecomeInvalidWithError`) is sent, and when the service shuts down (the
    client reconnects with `Last-Event-ID` and misses nothing). Reconnecting to an invalidated
    session whose events were all sent answers 204, which tells an `EventSource` to stop. `limit` and
    `wait` do not apply to the stream (they are still checked).

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EventList | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        limit=limit,
        wait=wait,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Any | EventList | Problem | None:
    """URLSessionDelegate events of the session

     Every event of the session in `sequence` order, whether or not it was delivered to the delegate
    URL, so a client without a public URL gets the same stream (events of the system-provided
    delegate included). `?after=SEQ` returns the events whose `sequence` is greater than SEQ; a page
    holds at most `limit` events, and `nextCursor` (the last `sequence`, as a string) is set when more
    are already stored. Sequences start at 1 and have no gaps, so a client that remembers the last
    `sequence` it handled never misses or repeats one.

    **Long-poll.** With `?wait=SECONDS` the answer is held until at least one event exists after
    `after`, then answered at once; when the time is up, when the session is invalidated with nothing
    left after `after`, or when the service shuts down, the (possibly empty) page is answered.

    **Server-sent events.** With `Accept: text/event-stream` (listed at least as highly as
    `application/json`; `*/*` gets the JSON page) the answer is a stream that stays open: each event
    is sent as `id: <sequence>`, `event: <type>`, `data: <the Event as JSON on one line>` and a blank
    line, first the stored ones after `after` (or after `Last-Event-ID` when an `EventSource`
    reconnects), then each new one as it is committed. A comment line (`: keep-alive`) is sent when
    nothing else was for 15 seconds. The stream ends cleanly once the session is invalidated and its
    last event (`session.didBecomeInvalidWithError`) is sent, and when the service shuts down (the
    client reconnects with `Last-Event-ID` and misses nothing). Reconnecting to an invalidated
    session whose events were all sent answers 204, which tells an `EventSource` to stop. `limit` and
    `wait` do not apply to the stream (they are still checked).

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EventList | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        after=after,
        limit=limit,
        wait=wait,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Response[Any | EventList | Problem]:
    """URLSessionDelegate events of the session

     Every event of the session in `sequence` order, whether or not it was delivered to the delegate
    URL, so a client without a public URL gets the same stream (events of the system-provided
    delegate included). `?after=SEQ` returns the events whose `sequence` is greater than SEQ; a page
    holds at most `limit` events, and `nextCursor` (the last `sequence`, as a string) is set when more
    are already stored. Sequences start at 1 and have no gaps, so a client that remembers the last
    `sequence` it handled never misses or repeats one.

    **Long-poll.** With `?wait=SECONDS` the answer is held until at least one event exists after
    `after`, then answered at once; when the time is up, when the session is invalidated with nothing
    left after `after`, or when the service shuts down, the (possibly empty) page is answered.

    **Server-sent events.** With `Accept: text/event-stream` (listed at least as highly as
    `application/json`; `*/*` gets the JSON page) the answer is a stream that stays open: each event
    is sent as `id: <sequence>`, `event: <type>`, `data: <the Event as JSON on one line>` and a blank
    line, first the stored ones after `after` (or after `Last-Event-ID` when an `EventSource`
    reconnects), then each new one as it is committed. A comment line (`: keep-alive`) is sent when
    nothing else was for 15 seconds. The stream ends cleanly once the session is invalidated and its
    last event (`session.didBecomeInvalidWithError`) is sent, and when the service shuts down (the
    client reconnects with `Last-Event-ID` and misses nothing). Reconnecting to an invalidated
    session whose events were all sent answers 204, which tells an `EventSource` to stop. `limit` and
    `wait` do not apply to the stream (they are still checked).

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EventList | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        limit=limit,
        wait=wait,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Any | EventList | Problem | None:
    """URLSessionDelegate events of the session

     Every event of the session in `sequence` order, whether or not it was delivered to the delegate
    URL, so a client without a public URL gets the same stream (events of the system-provided
    delegate included). `?after=SEQ` returns the events whose `sequence` is greater than SEQ; a page
    holds at most `limit` events, and `nextCursor` (the last `sequence`, as a string) is set when more
    are already stored. Sequences start at 1 and have no gaps, so a client that remembers the last
    `sequence` it handled never misses or repeats one.

    **Long-poll.** With `?wait=SECONDS` the answer is held until at least one event exists after
    `after`, then answered at once; when the time is up, when the session is invalidated with nothing
    left after `after`, or when the service shuts down, the (possibly empty) page is answered.

    **Server-sent events.** With `Accept: text/event-stream` (listed at least as highly as
    `application/json`; `*/*` gets the JSON page) the answer is a stream that stays open: each event
    is sent as `id: <sequence>`, `event: <type>`, `data: <the Event as JSON on one line>` and a blank
    line, first the stored ones after `after` (or after `Last-Event-ID` when an `EventSource`
    reconnects), then each new one as it is committed. A comment line (`: keep-alive`) is sent when
    nothing else was for 15 seconds. The stream ends cleanly once the session is invalidated and its
    last event (`session.didBecomeInvalidWithError`) is sent, and when the service shuts down (the
    client reconnects with `Last-Event-ID` and misses nothing). Reconnecting to an invalidated
    session whose events were all sent answers 204, which tells an `EventSource` to stop. `limit` and
    `wait` do not apply to the stream (they are still checked).

    Args:
        id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EventList | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            after=after,
            limit=limit,
            wait=wait,
            last_event_id=last_event_id,
        )
    ).parsed
