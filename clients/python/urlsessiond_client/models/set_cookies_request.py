from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cookie_input import CookieInput


T = TypeVar("T", bound="SetCookiesRequest")


@_attrs_define
class SetCookiesRequest:
    """The body of `POST /v1/sessions/{id}/cookies`.

    Attributes:
        cookies (list[CookieInput]):
        url (None | str | Unset):
        main_document_url (None | str | Unset):
    """

    cookies: list[CookieInput]
    url: None | str | Unset = UNSET
    main_document_url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        cookies = []
        for cookies_item_data in self.cookies:
            cookies_item = cookies_item_data.to_dict()
            cookies.append(cookies_item)

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        main_document_url: None | str | Unset
        if isinstance(self.main_document_url, Unset):
            main_document_url = UNSET
        else:
            main_document_url = self.main_document_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cookies": cookies,
            }
        )
        if url is not UNSET:
            field_dict["url"] = url
        if main_document_url is not UNSET:
            field_dict["mainDocumentURL"] = main_document_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cookie_input import CookieInput

        d = dict(src_dict)
        cookies = []
        _cookies = d.pop("cookies")
        for cookies_item_data in _cookies:
            cookies_item = CookieInput.from_dict(cookies_item_data)

            cookies.append(cookies_item)

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_main_document_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        main_document_url = _parse_main_document_url(d.pop("mainDocumentURL", UNSET))

        set_cookies_request = cls(
            cookies=cookies,
            url=url,
            main_document_url=main_document_url,
        )

        return set_cookies_request
