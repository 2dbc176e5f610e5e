from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.credential_list import CredentialList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    session_id: str | Unset = UNSET,
    host: str | Unset = UNSET,
    port: int | Unset = UNSET,
    protocol: str | Unset = UNSET,
    realm: str | Unset = UNSET,
    authentication_method: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["sessionId"] = session_id

    params["host"] = host

    params["port"] = port

    params["protocol"] = protocol

    params["realm"] = realm

    params["authenticationMethod"] = authentication_method

    params["limit"] = limit

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/credentials",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CredentialList | Problem | None:
    if response.status_code == 200:
        response_200 = CredentialList.from_dict(response.json())

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
) -> Response[CredentialList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    session_id: str | Unset = UNSET,
    host: str | Unset = UNSET,
    port: int | Unset = UNSET,
    protocol: str | Unset = UNSET,
    realm: str | Unset = UNSET,
    authentication_method: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[CredentialList | Problem]:
    """URLCredentialStorage.allCredentials

     The credentials of the tenant's shared storage or, with `sessionId`, those that session uses: its
    private storage, the tenant's shared one (`urlCredentialStorage: shared`), or none (`none`: an
    empty list); 404 for another tenant's or an unknown session. Oldest first, without passwords or
    private keys. The other
    parameters keep only the credentials whose stored protection space has exactly that value
    (`host` and `protocol` compared without case).

    Args:
        session_id (str | Unset):
        host (str | Unset):
        port (int | Unset):
        protocol (str | Unset):
        realm (str | Unset):
        authentication_method (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CredentialList | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        host=host,
        port=port,
        protocol=protocol,
        realm=realm,
        authentication_method=authentication_method,
        limit=limit,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    session_id: str | Unset = UNSET,
    host: str | Unset = UNSET,
    port: int | Unset = UNSET,
    protocol: str | Unset = UNSET,
    realm: str | Unset = UNSET,
    authentication_method: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> CredentialList | Problem | None:
    """URLCredentialStorage.allCredentials

     The credentials of the tenant's shared storage or, with `sessionId`, those that session uses: its
    private storage, the tenant's shared one (`urlCredentialStorage: shared`), or none (`none`: an
    empty list); 404 for another tenant's or an unknown session. Oldest first, without passwords or
    private keys. The other
    parameters keep only the credentials whose stored protection space has exactly that value
    (`host` and `protocol` compared without case).

    Args:
        session_id (str | Unset):
        host (str | Unset):
        port (int | Unset):
        protocol (str | Unset):
        realm (str | Unset):
        authentication_method (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CredentialList | Problem
    """

    return sync_detailed(
        client=client,
        session_id=session_id,
        host=host,
        port=port,
        protocol=protocol,
        realm=realm,
        authentication_method=authentication_method,
        limit=limit,
        after=after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    session_id: str | Unset = UNSET,
    host: str | Unset = UNSET,
    port: int | Unset = UNSET,
    protocol: str | Unset = UNSET,
    realm: str | Unset = UNSET,
    authentication_method: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[CredentialList | Problem]:
    """URLCredentialStorage.allCredentials

     The credentials of the tenant's shared storage or, with `sessionId`, those that session uses: its
    private storage, the tenant's shared one (`urlCredentialStorage: shared`), or none (`none`: an
    empty list); 404 for another tenant's or an unknown session. Oldest first, without passwords or
    private keys. The other
    parameters keep only the credentials whose stored protection space has exactly that value
    (`host` and `protocol` compared without case).

    Args:
        session_id (str | Unset):
        host (str | Unset):
        port (int | Unset):
        protocol (str | Unset):
        realm (str | Unset):
        authentication_method (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CredentialList | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        host=host,
        port=port,
        protocol=protocol,
        realm=realm,
        authentication_method=authentication_method,
        limit=limit,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    session_id: str | Unset = UNSET,
    host: str | Unset = UNSET,
    port: int | Unset = UNSET,
    protocol: str | Unset = UNSET,
    realm: str | Unset = UNSET,
    authentication_method: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> CredentialList | Problem | None:
    """URLCredentialStorage.allCredentials

     The credentials of the tenant's shared storage or, with `sessionId`, those that session uses: its
    private storage, the tenant's shared one (`urlCredentialStorage: shared`), or none (`none`: an
    empty list); 404 for another tenant's or an unknown session. Oldest first, without passwords or
    private keys. The other
    parameters keep only the credentials whose stored protection space has exactly that value
    (`host` and `protocol` compared without case).

    Args:
        session_id (str | Unset):
        host (str | Unset):
        port (int | Unset):
        protocol (str | Unset):
        realm (str | Unset):
        authentication_method (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset): A list cursor: opaque, base64url of a 12-byte nonce, the sealed
            position (AES-256-GCM) and its
            16-byte tag. It opens only for the tenant and the list (path) it was given for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CredentialList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            session_id=session_id,
            host=host,
            port=port,
            protocol=protocol,
            realm=realm,
            authentication_method=authentication_method,
            limit=limit,
            after=after,
        )
    ).parsed
