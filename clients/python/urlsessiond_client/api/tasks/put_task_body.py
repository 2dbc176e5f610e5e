from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: File | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/tasks/{id}/body".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
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
    body: File | Unset = UNSET,
) -> Response[Any | Problem]:
    """The body of uploadTask(withStreamedRequest:)

     The body of a streamed upload (`uploadSource: {"stream": true}`), sent while the task runs:
    chunked or with a `Content-Length`, of any size, any media type. It is passed to the origin as it
    arrives and never stored: at most 4 MiB of it waits in the service, and a slow origin slows this
    request (the service stops reading it) rather than filling memory. The request to the origin
    carries a `Content-Length` when the task's own request header fields set one, and is chunked
    otherwise; `countOfBytesSent` counts the body's bytes.

    Answered 204 once the last byte is passed on (the origin may still be reading the last of it).
    A client that closes the connection before the end fails the task with -1021
    (`requestBodyStreamExhausted`, `reason: bodyStreamFailed`).

    A redirect that keeps the body (307, 308) needs it again from the start: the task sends
    `task.needNewBodyStream` and waits for a new `PUT` of the whole body. An authentication retry
    that would send the body again cannot (it was read once): the task fails with -1021, as
    URLSession's does when its stream cannot be rewound.

    409 `conflict` when the task is not running (resume it first), is not a streamed upload, or
    ended while the body was arriving; 404 for an unknown task or another tenant's.

    Args:
        id (str):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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
    body: File | Unset = UNSET,
) -> Any | Problem | None:
    """The body of uploadTask(withStreamedRequest:)

     The body of a streamed upload (`uploadSource: {"stream": true}`), sent while the task runs:
    chunked or with a `Content-Length`, of any size, any media type. It is passed to the origin as it
    arrives and never stored: at most 4 MiB of it waits in the service, and a slow origin slows this
    request (the service stops reading it) rather than filling memory. The request to the origin
    carries a `Content-Length` when the task's own request header fields set one, and is chunked
    otherwise; `countOfBytesSent` counts the body's bytes.

    Answered 204 once the last byte is passed on (the origin may still be reading the last of it).
    A client that closes the connection before the end fails the task with -1021
    (`requestBodyStreamExhausted`, `reason: bodyStreamFailed`).

    A redirect that keeps the body (307, 308) needs it again from the start: the task sends
    `task.needNewBodyStream` and waits for a new `PUT` of the whole body. An authentication retry
    that would send the body again cannot (it was read once): the task fails with -1021, as
    URLSession's does when its stream cannot be rewound.

    409 `conflict` when the task is not running (resume it first), is not a streamed upload, or
    ended while the body was arriving; 404 for an unknown task or another tenant's.

    Args:
        id (str):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
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
    body: File | Unset = UNSET,
) -> Response[Any | Problem]:
    """The body of uploadTask(withStreamedRequest:)

     The body of a streamed upload (`uploadSource: {"stream": true}`), sent while the task runs:
    chunked or with a `Content-Length`, of any size, any media type. It is passed to the origin as it
    arrives and never stored: at most 4 MiB of it waits in the service, and a slow origin slows this
    request (the service stops reading it) rather than filling memory. The request to the origin
    carries a `Content-Length` when the task's own request header fields set one, and is chunked
    otherwise; `countOfBytesSent` counts the body's bytes.

    Answered 204 once the last byte is passed on (the origin may still be reading the last of it).
    A client that closes the connection before the end fails the task with -1021
    (`requestBodyStreamExhausted`, `reason: bodyStreamFailed`).

    A redirect that keeps the body (307, 308) needs it again from the start: the task sends
    `task.needNewBodyStream` and waits for a new `PUT` of the whole body. An authentication retry
    that would send the body again cannot (it was read once): the task fails with -1021, as
    URLSession's does when its stream cannot be rewound.

    409 `conflict` when the task is not running (resume it first), is not a streamed upload, or
    ended while the body was arriving; 404 for an unknown task or another tenant's.

    Args:
        id (str):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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
    body: File | Unset = UNSET,
) -> Any | Problem | None:
    """The body of uploadTask(withStreamedRequest:)

     The body of a streamed upload (`uploadSource: {"stream": true}`), sent while the task runs:
    chunked or with a `Content-Length`, of any size, any media type. It is passed to the origin as it
    arrives and never stored: at most 4 MiB of it waits in the service, and a slow origin slows this
    request (the service stops reading it) rather than filling memory. The request to the origin
    carries a `Content-Length` when the task's own request header fields set one, and is chunked
    otherwise; `countOfBytesSent` counts the body's bytes.

    Answered 204 once the last byte is passed on (the origin may still be reading the last of it).
    A client that closes the connection before the end fails the task with -1021
    (`requestBodyStreamExhausted`, `reason: bodyStreamFailed`).

    A redirect that keeps the body (307, 308) needs it again from the start: the task sends
    `task.needNewBodyStream` and waits for a new `PUT` of the whole body. An authentication retry
    that would send the body again cannot (it was read once): the task fails with -1021, as
    URLSession's does when its stream cannot be rewound.

    409 `conflict` when the task is not running (resume it first), is not a streamed upload, or
    ended while the body was arriving; 404 for an unknown task or another tenant's.

    Args:
        id (str):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
