from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.transfer_error import TransferError


T = TypeVar("T", bound="StreamReadResult")


@_attrs_define
class StreamReadResult:
    """`readData`'s completion handler: the bytes (base64, possibly none), `atEOF`, and the error (-1001 at the timeout).

    Attributes:
        data (str): Standard base64 (RFC 4648 section 4) with padding.
        at_eof (bool):
        error (None | TransferError):
    """

    data: str
    at_eof: bool
    error: None | TransferError

    def to_dict(self) -> dict[str, Any]:
        from ..models.transfer_error import TransferError

        data = self.data

        at_eof = self.at_eof

        error: dict[str, Any] | None
        if isinstance(self.error, TransferError):
            error = self.error.to_dict()
        else:
            error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "atEOF": at_eof,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transfer_error import TransferError

        d = dict(src_dict)
        data = d.pop("data")

        at_eof = d.pop("atEOF")

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

        stream_read_result = cls(
            data=data,
            at_eof=at_eof,
            error=error,
        )

        return stream_read_result
