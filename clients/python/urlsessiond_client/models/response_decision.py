from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.response_decision_disposition import ResponseDecisionDisposition

T = TypeVar("T", bound="ResponseDecision")


@_attrs_define
class ResponseDecision:
    """`dataTask.didReceiveResponse`: `URLSession.ResponseDisposition`.

    Attributes:
        disposition (ResponseDecisionDisposition):
    """

    disposition: ResponseDecisionDisposition

    def to_dict(self) -> dict[str, Any]:
        disposition = self.disposition.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "disposition": disposition,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        disposition = ResponseDecisionDisposition(d.pop("disposition"))

        response_decision = cls(
            disposition=disposition,
        )

        return response_decision
