"""A session's events as server-sent events (`GET /v1/sessions/{id}/events`, `Accept: text/event-stream`)."""

import json
import time
from collections.abc import Iterable, Iterator
from urllib.parse import quote

import httpx

from urlsessiond_client import AuthenticatedClient
from urlsessiond_client.models import Event


def follow_events(
    client: AuthenticatedClient,
    session_id: str,
    *,
    after: int = 0,
    read_timeout: float = 60.0,
    reconnect_delay: float = 1.0,
) -> Iterator[Event]:
    """Yields the session's events after `after`, in `sequence` order, as they are committed.

    The stream is reopened with `Last-Event-ID` whenever it ends or breaks (a service restart, a network
    failure), so no event is missed or repeated. It stops when the service answers 204: the session is
    invalidated and its last event was sent. The service sends a keep-alive every 15 s, so a read that
    waits longer than `read_timeout` means a broken connection, and reconnects.
    """
    last = after
    http = client.get_httpx_client()
    path = f"/v1/sessions/{quote(session_id, safe='')}/events"
    while True:
        headers = {"Accept": "text/event-stream"}
        if last > 0:
            headers["Last-Event-ID"] = str(last)
        try:
            with http.stream(
                "GET", path, params={"after": last}, headers=headers, timeout=httpx.Timeout(10.0, read=read_timeout)
            ) as response:
                if response.status_code == 204:
                    return
                if response.status_code != 200:
                    response.read()
                    response.raise_for_status()
                for event in parse_event_stream(response.iter_lines()):
                    last = event.sequence
                    yield event
        except httpx.TransportError:
            pass  # reconnect below, from the last event handed over
        time.sleep(reconnect_delay)


def parse_event_stream(lines: Iterable[str]) -> Iterator[Event]:
    """The events of a `text/event-stream` body, by the WHATWG rules the service's stream needs: `data`
    lines joined, comment lines (`: keep-alive`) skipped, a blank line ending each event."""
    data: list[str] = []
    for line in lines:
        if line == "":
            if data:
                yield Event.from_dict(json.loads("\n".join(data)))
            data = []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            if field == "data":
                data.append(value.removeprefix(" "))
