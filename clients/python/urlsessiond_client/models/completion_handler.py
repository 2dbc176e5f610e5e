from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CompletionHandler")


@_attrs_define
class CompletionHandler:
    """The completion-handler form (`dataTask(with:completionHandler:)`, `downloadTask(with:completionHandler:)`):
    the delegate's response and data events are not sent for this task; on completion one
    `task.completion` event is POSTed to `url`, signed like the delegate's events (see the
    `taskCompletion` webhook).

        Attributes:
            url (str): An absolute `http` or `https` URL (RFC 3986) without spaces or control characters: an optional
                `userinfo@`, an ASCII host (a name, punycode for others, or an IPv6 literal in brackets), an
                optional port of up to five digits, then any path, query and fragment.
            secret (None | str | Unset): Signs the `task.completion` POST (`whsec_` + base64 of 24 to 64 bytes). Absent: the
                session delegate's secret; on a session without one, the service makes a secret and returns
                it once, as the 201's `completionSecret`.
    """

    url: str
    secret: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        completion_handler = cls(
            url=url,
            secret=secret,
        )

        return completion_handler
