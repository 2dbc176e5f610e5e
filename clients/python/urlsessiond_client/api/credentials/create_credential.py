from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.credential import Credential
from ...models.credential_create_request import CredentialCreateRequest
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CredentialCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/credentials",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Credential | Problem | None:
    if response.status_code == 201:
        response_201 = Credential.from_dict(response.json())

        return response_201

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
    body: CredentialCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Credential | Problem]:
    """URLCredentialStorage.set(_:for:)

     Stores a credential for a protection space, as `URLCredentialStorage.set(_:for:)` (with
    `isDefault: true`, `setDefaultCredential(_:for:)`). Without `sessionId` it goes to the
    tenant's shared storage (`URLCredentialStorage.shared`, the one sessions configured with
    `urlCredentialStorage: shared` use); with it, to that session's private storage. A session of
    another tenant, or an unknown one, answers 404 (before the body's values are checked); a session
    whose `urlCredentialStorage` is not `private` (`shared` or `none`: it has no storage of its own)
    conflicts with its configuration: 409.

    Three kinds of `URLCredential`, by the space's `authenticationMethod`:
    - `URLCredential(user:password:persistence:)` — `credential.user` and `credential.password` — for
      `NSURLAuthenticationMethodHTTPBasic`, `…HTTPDigest`, `…NTLM` (user `DOMAIN\\user`),
      `…Negotiate` and `…Default` (Basic or Digest), of servers and (`isProxy`) proxies;
    - `URLCredential(identity:certificates:persistence:)` — `credential.identity` — for
      `NSURLAuthenticationMethodClientCertificate` (https servers only, not proxies): a PEM
      certificate chain (leaf first) and its PEM private key, or a PKCS#12 bundle (`.p12`, `.pfx`) in
      base64, never both, each with an optional `passphrase`. It is checked with OpenSSL when stored:
      a PKCS#12 bundle that does not open (wrong passphrase, not PKCS#12) is a 422 naming
      `credential.identity.pkcs12`; a PEM key that does not open or is not the key of the first
      certificate, a 422 naming `credential.identity.privateKey`. A PKCS#12 bundle is kept as PEM
      (its passphrase is not kept). The server of the space's host and port is shown it when it asks
      for a client certificate;
    - `URLCredential(trust:)` kept as a trust exception — `credential.serverTrust` — for
      `NSURLAuthenticationMethodServerTrust` (https servers only, not proxies): "trust this
      certificate (or this key) at this host and port", by the SHA-256 of the leaf certificate
      (`certificateSha256`, hex) and/or of its public key (`spkiSha256`, base64). A chain the system
      evaluation refuses (self-signed, unknown root, expired, another host's name) is then accepted
      when its leaf matches either digest.

    Each call stores a new credential with a new id (201 with `Location`); storing the same user
    again for the same space adds another one. The credential becomes the default of its protection
    space (the exact same host, port, protocol, realm, method and proxy-ness) when `isDefault` is
    true, and also when the space has no default yet; making it the default clears the space's
    previous one. Tasks of the sessions using the storage answer HTTP Basic, Digest and NTLM
    challenges with the space's default credential, and client-certificate requests with the default
    identity of the host and port, when the delegate does not decide (see `ChallengeDecision`); every
    trust exception of a host and port applies, default or not.

    Validation (422 naming the field, checked in this order):
    `protectionSpace.host` 1 to 253 characters without `/`, space or `@` (kept lowercased);
    `protectionSpace.port` 1 to 65535; `protectionSpace.protocol` `http` or `https` (any case, kept
    lowercased); `protectionSpace.realm` at most 1024 characters; `protectionSpace.authenticationMethod`
    one of the `ProtectionSpace` methods. Then, by method: for a client certificate or server trust,
    `protectionSpace.protocol` `https`, `protectionSpace.isProxy` false, no `user` nor `password`
    (422 naming `credential`), no credential of the other kind (`credential.identity`,
    `credential.serverTrust`), and its own one present: `credential.identity` (`passphrase` at most
    1024 characters; `pkcs12` base64 of at most 96 KiB, 131072 characters; else `certificateChain`,
    PEM certificates of at most 64 KiB, and `privateKey`, a PEM private key of at most 16 KiB) or
    `credential.serverTrust` (at least one digest; `certificateSha256` 64 hex digits, colons allowed,
    kept lowercase without colons; `spkiSha256` the base64 of 32 bytes, a `sha256//` prefix accepted
    and dropped); for the other methods, no `identity` nor `serverTrust`, `credential.user` 1 to 1024
    characters, `credential.password` present, at most 4096. Last `credential.persistence` not
    `none` (a `none` credential keeps nothing: give it in a challenge answer, `useCredential`,
    instead), and the identity's OpenSSL check.

    Persistence (default `permanent`): `permanent` credentials are written to the store when they are
    stored, their secret (password, private key, passphrase) sealed (AES-GCM with the service's key),
    and outlive restarts; `forSession` ones are kept in memory for the storage's life (the service's
    run for the shared storage, the session's for a private one); `synchronizable` is stored as
    `permanent` (there is no keychain to synchronise with). An ephemeral session's private storage
    keeps everything in memory: a `permanent` credential stored there is shown as `forSession`. The
    password and the private key are never returned by any endpoint or event, and never logged; an
    identity shows its leaf certificate (`identity`), a trust exception its digests (`serverTrust`).

    Args:
        idempotency_key (str | Unset):
        body (CredentialCreateRequest): The body of `POST /v1/credentials`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Credential | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CredentialCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Credential | Problem | None:
    """URLCredentialStorage.set(_:for:)

     Stores a credential for a protection space, as `URLCredentialStorage.set(_:for:)` (with
    `isDefault: true`, `setDefaultCredential(_:for:)`). Without `sessionId` it goes to the
    tenant's shared storage (`URLCredentialStorage.shared`, the one sessions configured with
    `urlCredentialStorage: shared` use); with it, to that session's private storage. A session of
    another tenant, or an unknown one, answers 404 (before the body's values are checked); a session
    whose `urlCredentialStorage` is not `private` (`shared` or `none`: it has no storage of its own)
    conflicts with its configuration: 409.

    Three kinds of `URLCredential`, by the space's `authenticationMethod`:
    - `URLCredential(user:password:persistence:)` — `credential.user` and `credential.password` — for
      `NSURLAuthenticationMethodHTTPBasic`, `…HTTPDigest`, `…NTLM` (user `DOMAIN\\user`),
      `…Negotiate` and `…Default` (Basic or Digest), of servers and (`isProxy`) proxies;
    - `URLCredential(identity:certificates:persistence:)` — `credential.identity` — for
      `NSURLAuthenticationMethodClientCertificate` (https servers only, not proxies): a PEM
      certificate chain (leaf first) and its PEM private key, or a PKCS#12 bundle (`.p12`, `.pfx`) in
      base64, never both, each with an optional `passphrase`. It is checked with OpenSSL when stored:
      a PKCS#12 bundle that does not open (wrong passphrase, not PKCS#12) is a 422 naming
      `credential.identity.pkcs12`; a PEM key that does not open or is not the key of the first
      certificate, a 422 naming `credential.identity.privateKey`. A PKCS#12 bundle is kept as PEM
      (its passphrase is not kept). The server of the space's host and port is shown it when it asks
      for a client certificate;
    - `URLCredential(trust:)` kept as a trust exception — `credential.serverTrust` — for
      `NSURLAuthenticationMethodServerTrust` (https servers only, not proxies): "trust this
      certificate (or this key) at this host and port", by the SHA-256 of the leaf certificate
      (`certificateSha256`, hex) and/or of its public key (`spkiSha256`, base64). A chain the system
      evaluation refuses (self-signed, unknown root, expired, another host's name) is then accepted
      when its leaf matches either digest.

    Each call stores a new credential with a new id (201 with `Location`); storing the same user
    again for the same space adds another one. The credential becomes the default of its protection
    space (the exact same host, port, protocol, realm, method and proxy-ness) when `isDefault` is
    true, and also when the space has no default yet; making it the default clears the space's
    previous one. Tasks of the sessions using the storage answer HTTP Basic, Digest and NTLM
    challenges with the space's default credential, and client-certificate requests with the default
    identity of the host and port, when the delegate does not decide (see `ChallengeDecision`); every
    trust exception of a host and port applies, default or not.

    Validation (422 naming the field, checked in this order):
    `protectionSpace.host` 1 to 253 characters without `/`, space or `@` (kept lowercased);
    `protectionSpace.port` 1 to 65535; `protectionSpace.protocol` `http` or `https` (any case, kept
    lowercased); `protectionSpace.realm` at most 1024 characters; `protectionSpace.authenticationMethod`
    one of the `ProtectionSpace` methods. Then, by method: for a client certificate or server trust,
    `protectionSpace.protocol` `https`, `protectionSpace.isProxy` false, no `user` nor `password`
    (422 naming `credential`), no credential of the other kind (`credential.identity`,
    `credential.serverTrust`), and its own one present: `credential.identity` (`passphrase` at most
    1024 characters; `pkcs12` base64 of at most 96 KiB, 131072 characters; else `certificateChain`,
    PEM certificates of at most 64 KiB, and `privateKey`, a PEM private key of at most 16 KiB) or
    `credential.serverTrust` (at least one digest; `certificateSha256` 64 hex digits, colons allowed,
    kept lowercase without colons; `spkiSha256` the base64 of 32 bytes, a `sha256//` prefix accepted
    and dropped); for the other methods, no `identity` nor `serverTrust`, `credential.user` 1 to 1024
    characters, `credential.password` present, at most 4096. Last `credential.persistence` not
    `none` (a `none` credential keeps nothing: give it in a challenge answer, `useCredential`,
    instead), and the identity's OpenSSL check.

    Persistence (default `permanent`): `permanent` credentials are written to the store when they are
    stored, their secret (password, private key, passphrase) sealed (AES-GCM with the service's key),
    and outlive restarts; `forSession` ones are kept in memory for the storage's life (the service's
    run for the shared storage, the session's for a private one); `synchronizable` is stored as
    `permanent` (there is no keychain to synchronise with). An ephemeral session's private storage
    keeps everything in memory: a `permanent` credential stored there is shown as `forSession`. The
    password and the private key are never returned by any endpoint or event, and never logged; an
    identity shows its leaf certificate (`identity`), a trust exception its digests (`serverTrust`).

    Args:
        idempotency_key (str | Unset):
        body (CredentialCreateRequest): The body of `POST /v1/credentials`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Credential | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CredentialCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Credential | Problem]:
    """URLCredentialStorage.set(_:for:)

     Stores a credential for a protection space, as `URLCredentialStorage.set(_:for:)` (with
    `isDefault: true`, `setDefaultCredential(_:for:)`). Without `sessionId` it goes to the
    tenant's shared storage (`URLCredentialStorage.shared`, the one sessions configured with
    `urlCredentialStorage: shared` use); with it, to that session's private storage. A session of
    another tenant, or an unknown one, answers 404 (before the body's values are checked); a session
    whose `urlCredentialStorage` is not `private` (`shared` or `none`: it has no storage of its own)
    conflicts with its configuration: 409.

    Three kinds of `URLCredential`, by the space's `authenticationMethod`:
    - `URLCredential(user:password:persistence:)` — `credential.user` and `credential.password` — for
      `NSURLAuthenticationMethodHTTPBasic`, `…HTTPDigest`, `…NTLM` (user `DOMAIN\\user`),
      `…Negotiate` and `…Default` (Basic or Digest), of servers and (`isProxy`) proxies;
    - `URLCredential(identity:certificates:persistence:)` — `credential.identity` — for
      `NSURLAuthenticationMethodClientCertificate` (https servers only, not proxies): a PEM
      certificate chain (leaf first) and its PEM private key, or a PKCS#12 bundle (`.p12`, `.pfx`) in
      base64, never both, each with an optional `passphrase`. It is checked with OpenSSL when stored:
      a PKCS#12 bundle that does not open (wrong passphrase, not PKCS#12) is a 422 naming
      `credential.identity.pkcs12`; a PEM key that does not open or is not the key of the first
      certificate, a 422 naming `credential.identity.privateKey`. A PKCS#12 bundle is kept as PEM
      (its passphrase is not kept). The server of the space's host and port is shown it when it asks
      for a client certificate;
    - `URLCredential(trust:)` kept as a trust exception — `credential.serverTrust` — for
      `NSURLAuthenticationMethodServerTrust` (https servers only, not proxies): "trust this
      certificate (or this key) at this host and port", by the SHA-256 of the leaf certificate
      (`certificateSha256`, hex) and/or of its public key (`spkiSha256`, base64). A chain the system
      evaluation refuses (self-signed, unknown root, expired, another host's name) is then accepted
      when its leaf matches either digest.

    Each call stores a new credential with a new id (201 with `Location`); storing the same user
    again for the same space adds another one. The credential becomes the default of its protection
    space (the exact same host, port, protocol, realm, method and proxy-ness) when `isDefault` is
    true, and also when the space has no default yet; making it the default clears the space's
    previous one. Tasks of the sessions using the storage answer HTTP Basic, Digest and NTLM
    challenges with the space's default credential, and client-certificate requests with the default
    identity of the host and port, when the delegate does not decide (see `ChallengeDecision`); every
    trust exception of a host and port applies, default or not.

    Validation (422 naming the field, checked in this order):
    `protectionSpace.host` 1 to 253 characters without `/`, space or `@` (kept lowercased);
    `protectionSpace.port` 1 to 65535; `protectionSpace.protocol` `http` or `https` (any case, kept
    lowercased); `protectionSpace.realm` at most 1024 characters; `protectionSpace.authenticationMethod`
    one of the `ProtectionSpace` methods. Then, by method: for a client certificate or server trust,
    `protectionSpace.protocol` `https`, `protectionSpace.isProxy` false, no `user` nor `password`
    (422 naming `credential`), no credential of the other kind (`credential.identity`,
    `credential.serverTrust`), and its own one present: `credential.identity` (`passphrase` at most
    1024 characters; `pkcs12` base64 of at most 96 KiB, 131072 characters; else `certificateChain`,
    PEM certificates of at most 64 KiB, and `privateKey`, a PEM private key of at most 16 KiB) or
    `credential.serverTrust` (at least one digest; `certificateSha256` 64 hex digits, colons allowed,
    kept lowercase without colons; `spkiSha256` the base64 of 32 bytes, a `sha256//` prefix accepted
    and dropped); for the other methods, no `identity` nor `serverTrust`, `credential.user` 1 to 1024
    characters, `credential.password` present, at most 4096. Last `credential.persistence` not
    `none` (a `none` credential keeps nothing: give it in a challenge answer, `useCredential`,
    instead), and the identity's OpenSSL check.

    Persistence (default `permanent`): `permanent` credentials are written to the store when they are
    stored, their secret (password, private key, passphrase) sealed (AES-GCM with the service's key),
    and outlive restarts; `forSession` ones are kept in memory for the storage's life (the service's
    run for the shared storage, the session's for a private one); `synchronizable` is stored as
    `permanent` (there is no keychain to synchronise with). An ephemeral session's private storage
    keeps everything in memory: a `permanent` credential stored there is shown as `forSession`. The
    password and the private key are never returned by any endpoint or event, and never logged; an
    identity shows its leaf certificate (`identity`), a trust exception its digests (`serverTrust`).

    Args:
        idempotency_key (str | Unset):
        body (CredentialCreateRequest): The body of `POST /v1/credentials`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Credential | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CredentialCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Credential | Problem | None:
    """URLCredentialStorage.set(_:for:)

     Stores a credential for a protection space, as `URLCredentialStorage.set(_:for:)` (with
    `isDefault: true`, `setDefaultCredential(_:for:)`). Without `sessionId` it goes to the
    tenant's shared storage (`URLCredentialStorage.shared`, the one sessions configured with
    `urlCredentialStorage: shared` use); with it, to that session's private storage. A session of
    another tenant, or an unknown one, answers 404 (before the body's values are checked); a session
    whose `urlCredentialStorage` is not `private` (`shared` or `none`: it has no storage of its own)
    conflicts with its configuration: 409.

    Three kinds of `URLCredential`, by the space's `authenticationMethod`:
    - `URLCredential(user:password:persistence:)` — `credential.user` and `credential.password` — for
      `NSURLAuthenticationMethodHTTPBasic`, `…HTTPDigest`, `…NTLM` (user `DOMAIN\\user`),
      `…Negotiate` and `…Default` (Basic or Digest), of servers and (`isProxy`) proxies;
    - `URLCredential(identity:certificates:persistence:)` — `credential.identity` — for
      `NSURLAuthenticationMethodClientCertificate` (https servers only, not proxies): a PEM
      certificate chain (leaf first) and its PEM private key, or a PKCS#12 bundle (`.p12`, `.pfx`) in
      base64, never both, each with an optional `passphrase`. It is checked with OpenSSL when stored:
      a PKCS#12 bundle that does not open (wrong passphrase, not PKCS#12) is a 422 naming
      `credential.identity.pkcs12`; a PEM key that does not open or is not the key of the first
      certificate, a 422 naming `credential.identity.privateKey`. A PKCS#12 bundle is kept as PEM
      (its passphrase is not kept). The server of the space's host and port is shown it when it asks
      for a client certificate;
    - `URLCredential(trust:)` kept as a trust exception — `credential.serverTrust` — for
      `NSURLAuthenticationMethodServerTrust` (https servers only, not proxies): "trust this
      certificate (or this key) at this host and port", by the SHA-256 of the leaf certificate
      (`certificateSha256`, hex) and/or of its public key (`spkiSha256`, base64). A chain the system
      evaluation refuses (self-signed, unknown root, expired, another host's name) is then accepted
      when its leaf matches either digest.

    Each call stores a new credential with a new id (201 with `Location`); storing the same user
    again for the same space adds another one. The credential becomes the default of its protection
    space (the exact same host, port, protocol, realm, method and proxy-ness) when `isDefault` is
    true, and also when the space has no default yet; making it the default clears the space's
    previous one. Tasks of the sessions using the storage answer HTTP Basic, Digest and NTLM
    challenges with the space's default credential, and client-certificate requests with the default
    identity of the host and port, when the delegate does not decide (see `ChallengeDecision`); every
    trust exception of a host and port applies, default or not.

    Validation (422 naming the field, checked in this order):
    `protectionSpace.host` 1 to 253 characters without `/`, space or `@` (kept lowercased);
    `protectionSpace.port` 1 to 65535; `protectionSpace.protocol` `http` or `https` (any case, kept
    lowercased); `protectionSpace.realm` at most 1024 characters; `protectionSpace.authenticationMethod`
    one of the `ProtectionSpace` methods. Then, by method: for a client certificate or server trust,
    `protectionSpace.protocol` `https`, `protectionSpace.isProxy` false, no `user` nor `password`
    (422 naming `credential`), no credential of the other kind (`credential.identity`,
    `credential.serverTrust`), and its own one present: `credential.identity` (`passphrase` at most
    1024 characters; `pkcs12` base64 of at most 96 KiB, 131072 characters; else `certificateChain`,
    PEM certificates of at most 64 KiB, and `privateKey`, a PEM private key of at most 16 KiB) or
    `credential.serverTrust` (at least one digest; `certificateSha256` 64 hex digits, colons allowed,
    kept lowercase without colons; `spkiSha256` the base64 of 32 bytes, a `sha256//` prefix accepted
    and dropped); for the other methods, no `identity` nor `serverTrust`, `credential.user` 1 to 1024
    characters, `credential.password` present, at most 4096. Last `credential.persistence` not
    `none` (a `none` credential keeps nothing: give it in a challenge answer, `useCredential`,
    instead), and the identity's OpenSSL check.

    Persistence (default `permanent`): `permanent` credentials are written to the store when they are
    stored, their secret (password, private key, passphrase) sealed (AES-GCM with the service's key),
    and outlive restarts; `forSession` ones are kept in memory for the storage's life (the service's
    run for the shared storage, the session's for a private one); `synchronizable` is stored as
    `permanent` (there is no keychain to synchronise with). An ephemeral session's private storage
    keeps everything in memory: a `permanent` credential stored there is shown as `forSession`. The
    password and the private key are never returned by any endpoint or event, and never logged; an
    identity shows its leaf certificate (`identity`), a trust exception its digests (`serverTrust`).

    Args:
        idempotency_key (str | Unset):
        body (CredentialCreateRequest): The body of `POST /v1/credentials`.

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
            idempotency_key=idempotency_key,
        )
    ).parsed
