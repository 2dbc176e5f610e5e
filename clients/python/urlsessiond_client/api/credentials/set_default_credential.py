from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.credential import Credential
from ...models.default_credential_request import DefaultCredentialRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: DefaultCredentialRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/credentials/default",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Credential | Problem | None:
    if response.status_code == 200:
        response_200 = Credential.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Credential | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DefaultCredentialRequest,
) -> Response[Credential | Problem]:
    """URLCredentialStorage.setDefaultCredential(_:for:)

     Makes the tenant's stored credential `id` the default of its protection space (in its own
    storage); the space's other credentials are no longer the default. Answers the credential (404
    for another tenant's or an unknown id). Setting the current default again is harmless.

    Args:
        body (DefaultCredentialRequest): The body of `PUT /v1/credentials/default`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Credential | Problem]
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
    body: DefaultCredentialRequest,
) -> Credential | Problem | None:
    """URLCredentialStorage.setDefaultCredential(_:for:)

     Makes the tenant's stored credential `id` the default of its protection space (in its own
    storage); the space's other credentials are no longer the default. Answers the credential (404
    for another tenant's or an unknown id). Setting the current default again is harmless.

    Args:
        body (DefaultCredentialRequest): The body of `PUT /v1/credentials/default`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Credential | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DefaultCredentialRequest,
) -> Response[Credential | Problem]:
    """URLCredentialStorage.setDefaultCredential(_:for:)

     Makes the tenant's stored credential `id` the default of its protection space (in its own
    storage); the space's other credentials are no longer the default. Answers the credential (404
    for another tenant's or an unknown id). Setting the current default again is harmless.

    Args:
        body (DefaultCredentialRequest): The body of `PUT /v1/credentials/default`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Credential | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: DefaultCredentialRequest,
) -> Credential | Problem | None:
    """URLCredentialStorage.setDefaultCredential(_:for:)

     Makes the tenant's stored credential `id` the default of its protection space (in its own
    storage); the space's other credentials are no longer the default. Answers the credential (404
    for another tenant's or an unknown id). Setting the current default again is harmless.

    Args:
        body (DefaultCredentialRequest): The body of `PUT /v1/credentials/default`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Credential | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
