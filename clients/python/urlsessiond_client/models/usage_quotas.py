from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.quota_usage import QuotaUsage


T = TypeVar("T", bound="UsageQuotas")


@_attrs_define
class UsageQuotas:
    """One entry per quota: `sessions` (not invalidated, the shared one aside), `tasks` (not
    completed), `blobBytes`, `blobCount`, `storedBytes` (kept downloads and bodies, and the URL
    caches on disk) and `streams` (event streams and long-polls open now).

        Attributes:
            sessions (QuotaUsage):
            tasks (QuotaUsage):
            blob_bytes (QuotaUsage):
            blob_count (QuotaUsage):
            stored_bytes (QuotaUsage):
            streams (QuotaUsage):
    """

    sessions: QuotaUsage
    tasks: QuotaUsage
    blob_bytes: QuotaUsage
    blob_count: QuotaUsage
    stored_bytes: QuotaUsage
    streams: QuotaUsage

    def to_dict(self) -> dict[str, Any]:
        sessions = self.sessions.to_dict()

        tasks = self.tasks.to_dict()

        blob_bytes = self.blob_bytes.to_dict()

        blob_count = self.blob_count.to_dict()

        stored_bytes = self.stored_bytes.to_dict()

        streams = self.streams.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "sessions": sessions,
                "tasks": tasks,
                "blobBytes": blob_bytes,
                "blobCount": blob_count,
                "storedBytes": stored_bytes,
                "streams": streams,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.quota_usage import QuotaUsage

        d = dict(src_dict)
        sessions = QuotaUsage.from_dict(d.pop("sessions"))

        tasks = QuotaUsage.from_dict(d.pop("tasks"))

        blob_bytes = QuotaUsage.from_dict(d.pop("blobBytes"))

        blob_count = QuotaUsage.from_dict(d.pop("blobCount"))

        stored_bytes = QuotaUsage.from_dict(d.pop("storedBytes"))

        streams = QuotaUsage.from_dict(d.pop("streams"))

        usage_quotas = cls(
            sessions=sessions,
            tasks=tasks,
            blob_bytes=blob_bytes,
            blob_count=blob_count,
            stored_bytes=stored_bytes,
            streams=streams,
        )

        return usage_quotas
