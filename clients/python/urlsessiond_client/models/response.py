from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.response_all_header_fields import ResponseAllHeaderFields


T = TypeVar("T", bound="Response")


@_attrs_define
class Response:
    """An `HTTPURLResponse`. `mimeType` and `textEncodingName` are absent when they would be null.

    Attributes:
        url (str):
        status_code (int):
        all_header_fields (ResponseAllHeaderFields): The response's header fields, names as received; repeated fields
            (names compared without
            case) are joined with `, ` under the first spelling, as URLSession does.
        expected_content_length (int): `Content-Length`, or -1 (`NSURLResponseUnknownLength`) when unknown.
        suggested_filename (None | str): The `Content-Disposition` `filename*` or `filename` (directory parts dropped),
            else the URL's
            last path component, else its host, else `Unknown`.
        mime_type (None | str | Unset): The `Content-Type`'s type/subtype, lowercased; absent without a `Content-Type`.
        text_encoding_name (None | str | Unset): The `Content-Type`'s `charset` parameter, lowercased; absent without
            one.
    """

    url: str
    status_code: int
    all_header_fields: ResponseAllHeaderFields
    expected_content_length: int
    suggested_filename: None | str
    mime_type: None | str | Unset = UNSET
    text_encoding_name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        status_code = self.status_code

        all_header_fields = self.all_header_fields.to_dict()

        expected_content_length = self.expected_content_length

        suggested_filename: None | str
        suggested_filename = self.suggested_filename

        mime_type: None | str | Unset
        if isinstance(self.mime_type, Unset):
            mime_type = UNSET
        else:
            mime_type = self.mime_type

        text_encoding_name: None | str | Unset
        if isinstance(self.text_encoding_name, Unset):
            text_encoding_name = UNSET
        else:
            text_encoding_name = self.text_encoding_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "statusCode": status_code,
                "allHeaderFields": all_header_fields,
                "expectedContentLength": expected_content_length,
                "suggestedFilename": suggested_filename,
            }
        )
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type
        if text_encoding_name is not UNSET:
            field_dict["textEncodingName"] = text_encoding_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.response_all_header_fields import ResponseAllHeaderFields

        d = dict(src_dict)
        url = d.pop("url")

        status_code = d.pop("statusCode")

        all_header_fields = ResponseAllHeaderFields.from_dict(d.pop("allHeaderFields"))

        expected_content_length = d.pop("expectedContentLength")

        def _parse_suggested_filename(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        suggested_filename = _parse_suggested_filename(d.pop("suggestedFilename"))

        def _parse_mime_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mime_type = _parse_mime_type(d.pop("mimeType", UNSET))

        def _parse_text_encoding_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text_encoding_name = _parse_text_encoding_name(d.pop("textEncodingName", UNSET))

        response = cls(
            url=url,
            status_code=status_code,
            all_header_fields=all_header_fields,
            expected_content_length=expected_content_length,
            suggested_filename=suggested_filename,
            mime_type=mime_type,
            text_encoding_name=text_encoding_name,
        )

        response.additional_properties = d
        return response

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
