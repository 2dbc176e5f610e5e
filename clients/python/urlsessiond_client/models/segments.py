from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Segments")


@_attrs_define
class Segments:
    """A segmented download (beyond URLSession). When the first response of a download shows an origin
    that serves ranges (`Accept-Ranges: bytes`), a strong validator (a strong `ETag`, or a
    `Last-Modified` at least a second before the response's `Date`), a `Content-Length` of at least
    two `minSize` parts and no content coding, the download is fetched as up to `max` ranged parts
    on parallel connections into one file: the first response goes on as the first part (and is cut
    where it ends), the others ask for ranges with `If-Range`. Each connection asks for a bounded
    range at a time (what it moves in 20 round trips at its last rate, at least a second's worth and
    `minSize`, at most 64 MiB), so a connection that runs out of work takes half of what no request
    asks for yet (work stealing) without closing anyone's connection; the first response, cut anyway,
    can be shortened anywhere. Part connections go to the final URL (after redirects)
    with the credentials and TLS decisions the first request settled, on the session's connection
    cache and network path, under its egress policy and timeouts; each counts against
    `httpMaximumConnectionsPerHost` (and the engine's and the tenant's transfer slots), opens only
    while its host has room and no queued task waits for that host, and gives its slot up between
    two ranges when one does. Over HTTP/2 the parts are streams of the session's connection.

    - Progress: `countOfBytesReceived` and the progress events count every part; the task's
      `response` is the first one (200). `expectedDigest` is checked on the whole file.
    - A range answered `200` (the representation changed: `If-Range` failed) stops every part; the
      download starts again from 0 with its request (`downloadTask.didResumeAtOffset` with
      `fileOffset` 0), segmented again the first time, on one connection after that. An origin
      without ranges, a weak validator, an unknown or short length: one connection, as without
      `segments`.
    - A connection that fails (network, timeout) while others work leaves its range to them; the
      last connection's failure fails the task as a single download's would.
    - Durability: a journal beside the partial file records each part's progress about once a
      second, written after the file's bytes are synced. After a restart (or kill -9) a background
      download continues every unfinished part by `Range` + `If-Range` where the journal says
      (`downloadTask.didResumeAtOffset`'s `fileOffset` is the bytes kept, summed over the parts);
      resume data (a cancel's, or an error's) of a segmented download resumes it segmented, as a
      task made from it does, with the task's own `segments` or else those it ran with.
    - Metrics: every request is a transaction (the ranges too, each counting its own body bytes);
      `redirectCount` counts only the task's own requests.
    - Mirrors (`mirrors`, `metalink`): the parts spread over the mirrors that agree on the length,
      no strong validator is needed, and a failing part goes on from another mirror (see `Mirrors`).

        Attributes:
            max_ (int):
            min_size (int):
    """

    max_: int
    min_size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_

        min_size = self.min_size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "max": max_,
                "minSize": min_size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        max_ = d.pop("max")

        min_size = d.pop("minSize")

        segments = cls(
            max_=max_,
            min_size=min_size,
        )

        segments.additional_properties = d
        return segments

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
