from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.base_64http_body import Base64HTTPBody
    from ..models.jsonhttp_body import JSONHTTPBody
    from ..models.text_http_body import TextHTTPBody


T = TypeVar("T", bound="DataUploadSource")


@_attrs_define
class DataUploadSource:
    """`uploadTask(with:from:)`: the body is inline.

    Attributes:
        data (Base64HTTPBody | JSONHTTPBody | TextHTTPBody): `URLRequest.httpBody`, in one of three forms: `{"text":
            "..."}` (sent as UTF-8),
            `{"base64": "..."}` (the decoded bytes) or `{"json": ...}` (any JSON value, serialized). Without a
            `Content-Type` in `allHTTPHeaderFields`, `json` is sent as `application/json` and the other two as
            `application/x-www-form-urlencoded`, as URLSession does for a body without a type.
    """

    data: Base64HTTPBody | JSONHTTPBody | TextHTTPBody

    def to_dict(self) -> dict[str, Any]:
        from ..models.base_64http_body import Base64HTTPBody
        from ..models.text_http_body import TextHTTPBody

        data: dict[str, Any]
        if isinstance(self.data, TextHTTPBody) or isinstance(self.data, Base64HTTPBody):
            data = self.data.to_dict()
        else:
            data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.base_64http_body import Base64HTTPBody
        from ..models.jsonhttp_body import JSONHTTPBody
        from ..models.text_http_body import TextHTTPBody

        d = dict(src_dict)

        def _parse_data(data: object) -> Base64HTTPBody | JSONHTTPBody | TextHTTPBody:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_http_body_type_0 = TextHTTPBody.from_dict(data)

                return componentsschemas_http_body_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_http_body_type_1 = Base64HTTPBody.from_dict(data)

                return componentsschemas_http_body_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_http_body_type_2 = JSONHTTPBody.from_dict(data)

            return componentsschemas_http_body_type_2

        data = _parse_data(d.pop("data"))

        data_upload_source = cls(
            data=data,
        )

        return data_upload_source
