from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.transfer_error import TransferError


T = TypeVar("T", bound="ServerTrustChallengeEvaluation")


@_attrs_define
class ServerTrustChallengeEvaluation:
    """
    Attributes:
        trusted (bool):
        error (None | TransferError):
    """

    trusted: bool
    error: None | TransferError
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.transfer_error import TransferError

        trusted = self.trusted

        error: dict[str, Any] | None
        if isinstance(self.error, TransferError):
            error = self.error.to_dict()
        else:
            error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "trusted": trusted,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transfer_error import TransferError

        d = dict(src_dict)
        trusted = d.pop("trusted")

        def _parse_error(data: object) -> None | TransferError:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = TransferError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransferError, data)

        error = _parse_error(d.pop("error"))

        server_trust_challenge_evaluation = cls(
            trusted=trusted,
            error=error,
        )

        server_trust_challenge_evaluation.additional_properties = d
        return server_trust_challenge_evaluation

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
