from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.redirection_decision_disposition import RedirectionDecisionDisposition
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.request import Request


T = TypeVar("T", bound="RedirectionDecision")


@_attrs_define
class RedirectionDecision:
    """`task.willPerformHTTPRedirection`: `follow` the proposed request, `follow` with a modified
    `request`, or `reject` (the 3xx becomes the final response, with its own body, as
    `completionHandler(nil)`).

        Attributes:
            disposition (RedirectionDecisionDisposition):
            request (Request | Unset): A `URLRequest`. In requests only `url` is required; the other properties default to
                the
                session's configuration (`timeoutInterval` to `timeoutIntervalForRequest`, `cachePolicy` to
                `requestCachePolicy`, `httpShouldHandleCookies` to `httpShouldSetCookies`) or to URLRequest's
                defaults. The `allows*` flags combine with the session's: a path is usable only if both allow it.
                In responses every property but `httpBody` is present with its effective value (the `allows*`
                flags as the request's AND the session's); `httpBody` is present when the request had one, always
                in the `{"base64": ...}` form. A `json` body sent without a `Content-Type` gets
                `Content-Type: application/json` in `allHTTPHeaderFields`. The session's `httpAdditionalHeaders`
                are not shown: they are added at send time under the request's own fields (the request wins).
                Header names are case-insensitive, so a name may appear once. Upload tasks take their body from
                `uploadSource`: an `httpBody` on an upload task is refused (422 `field: request.httpBody`).
    """

    disposition: RedirectionDecisionDisposition
    request: Request | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        disposition = self.disposition.value

        request: dict[str, Any] | Unset = UNSET
        if not isinstance(self.request, Unset):
            request = self.request.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "disposition": disposition,
            }
        )
        if request is not UNSET:
            field_dict["request"] = request

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.request import Request

        d = dict(src_dict)
        disposition = RedirectionDecisionDisposition(d.pop("disposition"))

        _request = d.pop("request", UNSET)
        request: Request | Unset
        if isinstance(_request, Unset):
            request = UNSET
        else:
            request = Request.from_dict(_request)

        redirection_decision = cls(
            disposition=disposition,
            request=request,
        )

        return redirection_decision
