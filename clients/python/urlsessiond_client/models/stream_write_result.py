from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.transfer_error import TransferError


T = TypeVar("T", bound="StreamWriteResult")


@_attrs_define
class StreamWriteResult:
    """`write`'s completion handler: `error` null once every byte is written, else -1001 at the timeout.

    Attributes:
        error (None | TransferError):
    """

    error: None | TransferError

    def to_dict(self) -> dict[str, Any]:
        from ..models.transfer_error import TransferError

        error: dict[str, Any] | None
        if isinstance(self.error, TransferError):
            error = self.error.to_dict()
        else:
            error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transfer_error import TransferError

        d = dict(src_dict)

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

        stream_write_result = cls(
            error=error,
        )

        return stream_write_result
