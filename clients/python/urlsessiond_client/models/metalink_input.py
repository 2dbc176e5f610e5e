from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MetalinkInput")


@_attrs_define
class MetalinkInput:
    """A Metalink 4 document (RFC 5854) a download task takes its URLs, size and hashes from: exactly one
    of `url` (fetched when the task starts, by the task's own transfer under the session's rules and
    the egress policy; a document that cannot be used fails the task with -1017 `cannotParseResponse`,
    `userInfo.reason = "metalinkInvalid"`) or `blobId` (an uploaded document, read when the task is
    created: 404 `field: metalink.blobId` when the tenant has no such blob, 422 naming
    `metalink.blobId` with the document's element at fault in `detail` when it cannot be used).

    Read: exactly one `<file>` (its `name` is not used: the service names its files), `<size>`,
    `<hash type="sha-256">` (the whole-file digest, checked at the end as `expectedDigest`; a task's
    own `expectedDigest` must equal it, else 422 `field: expectedDigest`; for a `url` document the
    task's own wins), `<pieces length type="sha-256"><hash>…</pieces>` (one hash per piece, `<size>`
    required: each piece is checked as it fills), and the `<url>`s with an http or https URL (others,
    and `<metaurl>`, are skipped), ordered by `priority` (1 first; without one, last; document order
    among equals), the best 16 kept. Hashes of other types, signatures and other elements are
    ignored. The document is at most 4 MiB; external entities are never resolved.

        Attributes:
            url (str | Unset): An absolute `http` or `https` URL (RFC 3986) without spaces or control characters: an
                optional
                `userinfo@`, an ASCII host (a name, punycode for others, or an IPv6 literal in brackets), an
                optional port of up to five digits, then any path, query and fragment.
            blob_id (str | Unset):
    """

    url: str | Unset = UNSET
    blob_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        blob_id = self.blob_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if blob_id is not UNSET:
            field_dict["blobId"] = blob_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        blob_id = d.pop("blobId", UNSET)

        metalink_input = cls(
            url=url,
            blob_id=blob_id,
        )

        return metalink_input
