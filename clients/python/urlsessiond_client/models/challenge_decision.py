from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.challenge_decision_disposition import ChallengeDecisionDisposition
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.challenge_decision_credential import ChallengeDecisionCredential


T = TypeVar("T", bound="ChallengeDecision")


@_attrs_define
class ChallengeDecision:
    """`task.didReceiveChallenge` / `session.didReceiveChallenge`: `URLSession.AuthChallengeDisposition`
    and its `URLCredential`.

    Routing, as URLSession's: HTTP Basic and Digest challenges (of origins and proxies) are
    task-level: `task.didReceiveChallenge` when the session's `delegate.decisions` lists it, never
    `session.didReceiveChallenge`. The session-wide ones — server trust, client certificates, NTLM,
    Negotiate — go to `session.didReceiveChallenge` when it is listed, else to
    `task.didReceiveChallenge` when that is listed. Neither listed: the default handling, without an
    event. A session that decides TLS challenges (lists either event) verifies chains itself: each new
    connection of its tasks is held after the handshake until the server-trust answer (and, when the
    server asks for a client certificate, the handshake is made once more with the identity chosen);
    reused connections are not challenged again.

    - `useCredential` (needs `credential`): for an HTTP challenge `{user, password}`, the request
      goes again with them; for a client-certificate challenge `{identity}` (an `IdentityInput`, checked
      as when stored; a bad one is the default handling), the handshake presents it; for server trust
      `{serverTrust: true}` (`URLCredential(trust:)`), the chain shown is accepted even when the
      evaluation refused it (a session's `serverTrust.pinnedPublicKeys` must still match). A credential
      of another kind than the challenge's is the default handling. With `credential.persistence`
      `none` (the default, also for an unknown value) it is used for this task only and never stored;
      with `forSession` or `permanent` (`synchronizable` counts as `permanent`) it is also stored in
      the session's credential storage (`urlCredentialStorage`; nothing with `none`) for the
      challenge's protection space, as the space's default when the space has none yet (an accepted
      server trust is stored as a trust exception of its leaf for the host and port); the same
      credential already stored for that space is not stored twice.
    - `performDefaultHandling`, no answer within `decisionTimeout`, a non-2xx or malformed answer, or
      a delegate that does not list the event: the default handling. Basic, Digest and NTLM: the
      default credential stored for the protection space in the session's credential storage (see
      `ProtectionSpace` for which stored spaces cover a challenge) is sent, once (a credential that
      failed is not sent again); when it fails, or there is none, the 401 (407) is the task's response
      with its body. A URL's own `user:password` is sent with the first request already, as URLSession
      does. Negotiate: the service's own Kerberos credentials (its `KRB5CCNAME`), once; a stored
      password is not used for Negotiate. Server trust: the system evaluation (the trust store,
      `URLSESSIOND_CA_FILE`, the session's `serverTrust`), then the trust exceptions stored for the
      host and port; refused, the task fails with the evaluation's error (-1202 and kin). Client
      certificate: the default identity stored for the host and port; none, the handshake goes on
      without one (a server that requires one fails the task with -1206
      `clientCertificateRequired`).
    - `rejectProtectionSpace`: the next authentication method the response offered (e.g. Basic after
      Digest) is challenged in turn; when none is left, the 401 (or 407) is the task's response (no
      stored credential is tried for a rejected space). For the TLS challenges there is no other
      method: the default handling.
    - `cancelAuthenticationChallenge`: the task ends as cancelled (-999 `cancelled`).

        Attributes:
            disposition (ChallengeDecisionDisposition):
            credential (ChallengeDecisionCredential | Unset): `{user, password}`, `{identity}` or `{serverTrust: true}`,
                with an optional `persistence`. A user or password holding NUL (U+0000) cannot be sent (libcurl takes C
                strings): the default handling follows.
    """

    disposition: ChallengeDecisionDisposition
    credential: ChallengeDecisionCredential | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        disposition = self.disposition.value

        credential: dict[str, Any] | Unset = UNSET
        if not isinstance(self.credential, Unset):
            credential = self.credential.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "disposition": disposition,
            }
        )
        if credential is not UNSET:
            field_dict["credential"] = credential

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.challenge_decision_credential import ChallengeDecisionCredential

        d = dict(src_dict)
        disposition = ChallengeDecisionDisposition(d.pop("disposition"))

        _credential = d.pop("credential", UNSET)
        credential: ChallengeDecisionCredential | Unset
        if isinstance(_credential, Unset):
            credential = UNSET
        else:
            credential = ChallengeDecisionCredential.from_dict(_credential)

        challenge_decision = cls(
            disposition=disposition,
            credential=credential,
        )

        return challenge_decision
