from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ServerTrustConfiguration")


@_attrs_define
class ServerTrustConfiguration:
    """Declarative server trust for every TLS connection of the session, so it costs no challenge round
    trip (at least one of the two; neither is a 422 naming `configuration.serverTrust`):
    - `pinnedPublicKeys`: public-key pins the connection must match, checked by libcurl after the
      chain's evaluation (`CURLOPT_PINNEDPUBLICKEY`): each is `sha256//` and the base64 of the SHA-256
      of a certificate's DER SubjectPublicKeyInfo (what `openssl x509 -pubkey | openssl pkey -pubin
      -outform der | openssl dgst -sha256 -binary | base64` prints). A connection whose server key
      matches none fails with -1202 `serverCertificateUntrusted`.
    - `anchors`: PEM certificates this session trusts besides the system store and
      `URLSESSIOND_CA_FILE` (other sessions do not).
    Both also hold under a delegate that answers the server-trust challenge: the evaluation a
    challenge shows (`ServerTrustChallenge.evaluation`) counts the anchors, and an accepted chain
    must still match a pin. An invalid entry is a 422 naming it (`configuration.serverTrust.pinnedPublicKeys[i]`,
    `…anchors[i]`).
    Trust applies to connections: a response served from a URL cache makes none, so a session that
    pins should not share the tenant's cache with sessions that do not (give it a private cache or
    `urlCache: null`).

        Attributes:
            pinned_public_keys (list[str] | None | Unset):
            anchors (list[str] | None | Unset):
    """

    pinned_public_keys: list[str] | None | Unset = UNSET
    anchors: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pinned_public_keys: list[str] | None | Unset
        if isinstance(self.pinned_public_keys, Unset):
            pinned_public_keys = UNSET
        elif isinstance(self.pinned_public_keys, list):
            pinned_public_keys = self.pinned_public_keys

        else:
            pinned_public_keys = self.pinned_public_keys

        anchors: list[str] | None | Unset
        if isinstance(self.anchors, Unset):
            anchors = UNSET
        elif isinstance(self.anchors, list):
            anchors = self.anchors

        else:
            anchors = self.anchors

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if pinned_public_keys is not UNSET:
            field_dict["pinnedPublicKeys"] = pinned_public_keys
        if anchors is not UNSET:
            field_dict["anchors"] = anchors

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_pinned_public_keys(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                pinned_public_keys_type_0 = cast(list[str], data)

                return pinned_public_keys_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        pinned_public_keys = _parse_pinned_public_keys(d.pop("pinnedPublicKeys", UNSET))

        def _parse_anchors(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                anchors_type_0 = cast(list[str], data)

                return anchors_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        anchors = _parse_anchors(d.pop("anchors", UNSET))

        server_trust_configuration = cls(
            pinned_public_keys=pinned_public_keys,
            anchors=anchors,
        )

        return server_trust_configuration
