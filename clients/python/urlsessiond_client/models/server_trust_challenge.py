from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.server_trust_challenge_certificates_item import ServerTrustChallengeCertificatesItem
    from ..models.server_trust_challenge_evaluation import ServerTrustChallengeEvaluation


T = TypeVar("T", bound="ServerTrustChallenge")


@_attrs_define
class ServerTrustChallenge:
    """A server-trust challenge's `SecTrust`: the chain the server presented (the leaf first) and the
    system's evaluation of it (`SecTrustEvaluateWithError`) — the system trust store,
    `URLSESSIOND_CA_FILE`, the session's `serverTrust.anchors`, and the host name against the leaf's
    subject alternative names. `evaluation.error` is the error the task fails with when the chain is
    not accepted (-1202, -1201, -1203, -1204).

        Attributes:
            host (str):
            certificates (list[ServerTrustChallengeCertificatesItem]):
            evaluation (ServerTrustChallengeEvaluation):
    """

    host: str
    certificates: list[ServerTrustChallengeCertificatesItem]
    evaluation: ServerTrustChallengeEvaluation
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        host = self.host

        certificates = []
        for certificates_item_data in self.certificates:
            certificates_item = certificates_item_data.to_dict()
            certificates.append(certificates_item)

        evaluation = self.evaluation.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "host": host,
                "certificates": certificates,
                "evaluation": evaluation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.server_trust_challenge_certificates_item import ServerTrustChallengeCertificatesItem
        from ..models.server_trust_challenge_evaluation import ServerTrustChallengeEvaluation

        d = dict(src_dict)
        host = d.pop("host")

        certificates = []
        _certificates = d.pop("certificates")
        for certificates_item_data in _certificates:
            certificates_item = ServerTrustChallengeCertificatesItem.from_dict(certificates_item_data)

            certificates.append(certificates_item)

        evaluation = ServerTrustChallengeEvaluation.from_dict(d.pop("evaluation"))

        server_trust_challenge = cls(
            host=host,
            certificates=certificates,
            evaluation=evaluation,
        )

        server_trust_challenge.additional_properties = d
        return server_trust_challenge

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
