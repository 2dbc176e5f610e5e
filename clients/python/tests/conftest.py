"""What the tests share: a client of the service under test, the origin's URL, and a webhook receiver.

They run against a real service: `make test` starts one with a fixture origin (PythonClientTests) and
names them in URLSESSIOND_URL, URLSESSIOND_TOKEN and URLSESSIOND_TEST_ORIGIN.
"""

import http.server
import os
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from urlsessiond_client import AuthenticatedClient


def environment(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        pytest.fail(
            f"{name} is not set: these tests run against a service (`make test`: PythonClientTests)", pytrace=False
        )
    return value


@pytest.fixture
def client() -> Iterator[AuthenticatedClient]:
    # Loopback only: no proxy from the environment.
    with AuthenticatedClient(
        base_url=environment("URLSESSIOND_URL"),
        token=environment("URLSESSIOND_TOKEN"),
        timeout=httpx.Timeout(30.0),
        httpx_args={"trust_env": False},
        raise_on_unexpected_status=True,
    ) as client:
        yield client


@pytest.fixture
def origin() -> str:
    return environment("URLSESSIOND_TEST_ORIGIN").rstrip("/")


@dataclass
class Delivery:
    headers: dict[str, str]
    body: bytes


class WebhookReceiver:
    """A delegate URL on 127.0.0.1 (a port from the OS) that acknowledges every POST and keeps it."""

    def __init__(self) -> None:
        deliveries: queue.Queue[Delivery] = queue.Queue()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                deliveries.put(Delivery({name.lower(): value for name, value in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.deliveries = deliveries
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def next(self, timeout: float) -> Delivery:
        return self.deliveries.get(timeout=timeout)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    receiver = WebhookReceiver()
    yield receiver
    receiver.close()
