from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.authentication_challenge_protection_space import AuthenticationChallengeProtectionSpace
    from ..models.proposed_credential import ProposedCredential
    from ..models.response import Response
    from ..models.server_trust_challenge import ServerTrustChallenge


T = TypeVar("T", bound="AuthenticationChallenge")


@_attrs_define
class AuthenticationChallenge:
    """The `challenge` of `task.didReceiveChallenge` and `session.didReceiveChallenge`
    (`URLAuthenticationChallenge`), one of:
    - an HTTP challenge — Basic, Digest, NTLM or Negotiate: a 401 with `WWW-Authenticate` or (`isProxy`)
      the 407 of the session's proxy with `Proxy-Authenticate`, whose space is the proxy's host and
      port. When a response offers several methods the strongest not yet rejected is challenged
      (Negotiate, NTLM, Digest, Basic, as CFNetwork orders them). `failureResponse` is that 401 or 407;
    - `NSURLAuthenticationMethodServerTrust`: the server's certificate chain is being evaluated, once
      per new connection (`serverTrust` carries the chain and the system's evaluation);
      `failureResponse` is null;
    - `NSURLAuthenticationMethodClientCertificate`: the server asked for a client certificate during
      the TLS handshake; `failureResponse` is null.
    `proposedCredential` is the stored credential the default handling would use (the default
    credential of the space, or the identity stored for the host and port) in the session's credential
    storage, without its secret; null when there is none (or the session's storage is `none`).

        Attributes:
            protection_space (AuthenticationChallengeProtectionSpace):
            previous_failure_count (int): How many credentials this task already sent for the challenge without success.
            failure_response (None | Response): The 401 (or the proxy's 407) that carried an HTTP challenge; null for the
                TLS ones.
            proposed_credential (None | ProposedCredential):
            server_trust (ServerTrustChallenge | Unset): A server-trust challenge's `SecTrust`: the chain the server
                presented (the leaf first) and the
                system's evaluation of it (`SecTrustEvaluateWithError`) — the system trust store,
                `URLSESSIOND_CA_FILE`, the session's `serverTrust.anchors`, and the host name against the leaf's
                subject alternative names. `evaluation.error` is the error the task fails with when the chain is
                not accepted (-1202, -1201, -1203, -1204).
    """

    protection_space: AuthenticationChallengeProtectionSpace
    previous_failure_count: int
    failure_response: None | Response
    proposed_credential: None | ProposedCredential
    server_trust: ServerTrustChallenge | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.proposed_credential import ProposedCredential
        from ..models.response import Response

        protection_space = self.protection_space.to_dict()

        previous_failure_count = self.previous_failure_count

        failure_response: dict[str, Any] | None
        if isinstance(self.failure_response, Response):
            failure_response = self.failure_response.to_dict()
        else:
            failure_response = self.failure_response

        proposed_credential: dict[str, Any] | None
        if isinstance(self.proposed_credential, ProposedCredential):
            proposed_credential = self.proposed_credential.to_dict()
        else:
            proposed_credential = self.proposed_credential

        server_trust: dict[str, Any] | Unset = UNSET
        if not isinstance(self.server_trust, Unset):
            server_trust = self.server_trust.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "protectionSpace": protection_space,
                "previousFailureCount": previous_failure_count,
                "failureResponse": failure_response,
                "proposedCredential": proposed_credential,
            }
        )
        if server_trust is not UNSET:
            field_dict["serverTrust"] = server_trust

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.authentication_challenge_protection_space import AuthenticationChallengeProtectionSpace
        from ..models.proposed_credential import ProposedCredential
        from ..models.response import Response
        from ..models.server_trust_challenge import ServerTrustChallenge

        d = dict(src_dict)
        protection_space = AuthenticationChallengeProtectionSpace.from_dict(d.pop("protectionSpace"))

        previous_failure_count = d.pop("previousFailureCount")

        def _parse_failure_response(data: object) -> None | Response:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failure_response_type_0 = Response.from_dict(data)

                return failure_response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Response, data)

        failure_response = _parse_failure_response(d.pop("failureResponse"))

        def _parse_proposed_credential(data: object) -> None | ProposedCredential:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proposed_credential_type_0 = ProposedCredential.from_dict(data)

                return proposed_credential_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProposedCredential, data)

        proposed_credential = _parse_proposed_credential(d.pop("proposedCredential"))

        _server_trust = d.pop("serverTrust", UNSET)
        server_trust: ServerTrustChallenge | Unset
        if isinstance(_server_trust, Unset):
            server_trust = UNSET
        else:
            server_trust = ServerTrustChallenge.from_dict(_server_trust)

        authentication_challenge = cls(
            protection_space=protection_space,
            previous_failure_count=previous_failure_count,
            failure_response=failure_response,
            proposed_credential=proposed_credential,
            server_trust=server_trust,
        )

        authentication_challenge.additional_properties = d
        return authentication_challenge

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
