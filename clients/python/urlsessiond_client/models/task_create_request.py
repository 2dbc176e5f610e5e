from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.task_kind import TaskKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.blob_upload_source import BlobUploadSource
    from ..models.completion_handler import CompletionHandler
    from ..models.data_upload_source import DataUploadSource
    from ..models.metalink_input import MetalinkInput
    from ..models.rate_limit import RateLimit
    from ..models.request import Request
    from ..models.segments_input import SegmentsInput
    from ..models.stream_upload_source import StreamUploadSource


T = TypeVar("T", bound="TaskCreateRequest")


@_attrs_define
class TaskCreateRequest:
    """The body of `POST /v1/sessions/{id}/tasks`. `request` is required except for a download created
    from `resumeData`, which takes its request from the resume data and so must not carry one (422
    `field: request`); `uploadSource` is required for, and only allowed on, upload tasks;
    `resumeData` and `segments` only on download tasks; `protocols` and `maximumMessageSize` only on
    webSocket tasks; `rateLimit` only on data, download and upload tasks.

    A webSocket task (`webSocketTask(with:protocols:)`) takes a `ws` or `wss` URL (and no other kind
    does: 422 `field: request.url`), a GET without a body (422 `request.httpMethod`,
    `request.httpBody`), no `completion` or `expectedDigest`, and is refused in background sessions
    as URLSession refuses it (422 `field: kind`). It runs while its connection is open and completes
    when it closes (see `Task.closeCode`).

    A stream task (`streamTask(withHostName:port:)`) takes `hostName` and `port` (required: 422
    `missing-field`) and no `request` (422 `field: request`), no `completion` or `expectedDigest`;
    `hostName` and `port` belong to stream tasks only. It is refused in background sessions, as
    URLSession refuses it (422 `field: kind`). Its connection is plain TCP (TLS begins with
    `startSecureConnection`); reads and writes go through `/v1/tasks/{id}/read` and `/write`; it
    completes once both sides are closed (see `streamTaskRead`).

    A download may name other URLs of its file (beyond URLSession; see `Mirrors`): `mirrors`, the
    request's URL first (422 `field: mirrors[0]` otherwise), with an optional `expectedLength`; or a
    Metalink 4 document (RFC 5854) as `metalink` instead of `request.url` (`request` may then be
    absent; when given, without `url`: 422 `field: request.url`). `mirrors`, `expectedLength` and
    `metalink` are for download tasks only and never with `resumeData` (422 naming the field);
    `expectedLength` needs `mirrors` or `metalink`; `mirrors` and `metalink` exclude each other (422
    `field: mirrors`).

    These rules across fields are also in `x-rules`, as JSON Schema.

        Attributes:
            kind (TaskKind): `URLSessionDataTask`, `URLSessionDownloadTask`, `URLSessionUploadTask`,
                `URLSessionWebSocketTask` or
                `URLSessionStreamTask`.
            request (None | Request | Unset):
            upload_source (BlobUploadSource | DataUploadSource | None | StreamUploadSource | Unset):
            resume_data (None | str | Unset): `downloadTask(withResumeData:)`: the `resumeData` of a cancel, or an error's
                `NSURLSessionDownloadTaskResumeData`. The token is sealed (AES-256-GCM: it shows nothing) and
                serves only the tenant it was made for; an altered one, another tenant's, or one made before
                tokens were sealed answers 422 `invalid-value` with `field: resumeData`.
            task_description (None | str | Unset): `URLSessionTask.taskDescription`.
            priority (float | None | Unset): `URLSessionTask.priority`: 0.0 to 1.0; `lowPriority` 0.25, `defaultPriority`
                0.5, `highPriority` 0.75. It orders the tenant's own tasks waiting for a transfer slot; slots go in turn to the
                tenants with waiting tasks (each up to `URLSESSIOND_TENANT_MAX_TRANSFERS` at once), so a priority never takes a
                slot another tenant is waiting for. Default: 0.5.
            earliest_begin_date (datetime.datetime | None | Unset): The task does not start before this time
                (`task.willBeginDelayedRequest` is sent then).
            count_of_bytes_client_expects_to_send (int | None | Unset): A hint for scheduling; -1 is
                `NSURLSessionTransferSizeUnknown`. Default: -1.
            count_of_bytes_client_expects_to_receive (int | None | Unset): A hint for scheduling; -1 is
                `NSURLSessionTransferSizeUnknown`. Default: -1.
            completion (CompletionHandler | None | Unset):
            expected_digest (None | str | Unset): Verify the received body against this RFC 9530 sha-256 digest. On a
                mismatch the task
                completes with error -1011 `badServerResponse` and `userInfo.reason = "digestMismatch"`.
            resume (bool | None | Unset): Start at once, as calling `resume()` right after creation. Tasks start suspended
                otherwise. Default: False.
            segments (None | SegmentsInput | Unset): Beyond URLSession, download tasks only (422 `field: segments` on
                another kind): fetch the
                download over up to `max` connections when its origin allows (see `Segments`). Absent or
                null: the session's `configuration.segments`. `{"max": 1}` keeps a task of a segmented
                session on one connection.
            rate_limit (None | RateLimit | Unset): Beyond URLSession, data, download and upload tasks only (422 `field:
                rateLimit` on a webSocket
                or stream task): the task's own bandwidth limit (see "Bandwidth limits" above). The lowest of
                it, its session's, its tenant's and the service's holds. Absent or null: none of its own.
                Changed while the task runs with `PATCH /v1/tasks/{id}`.
            protocols (list[str] | None | Unset): webSocket tasks: the subprotocols offered (`Sec-WebSocket-Protocol`), in
                order of preference;
                each a token (RFC 6455 §4.1), unique (422 `field: protocols[n]`).
            maximum_message_size (int | None | Unset): webSocket tasks: `maximumMessageSize`, the largest message received
                (default 1 MiB, as
                URLSession's; at most 64 MiB). A larger one fails the task (see `Task.closeCode`); a message
                to send larger than it is refused with 413.
            host_name (None | str | Unset): stream tasks: the host to connect to, a DNS name (ASCII: punycode for others) or
                an IP address
                (an IPv6 one with or without brackets); anything else is a 422 naming `hostName`. TLS, once
                started, sends it as SNI (a name only) and checks the certificate against it.
            port (int | None | Unset): stream tasks, the TCP port.
            mirrors (list[str] | None | Unset):
            expected_length (int | None | Unset): With `mirrors` or `metalink`: the file's length in bytes. A mirror
                announcing another length is
                dropped (`task.didDropMirror`); without it, the first mirror's length is the one the others
                must match. A metalink's `<size>` counts as it (a different one is a 422).
            metalink (MetalinkInput | None | Unset):
    """

    kind: TaskKind
    request: None | Request | Unset = UNSET
    upload_source: BlobUploadSource | DataUploadSource | None | StreamUploadSource | Unset = UNSET
    resume_data: None | str | Unset = UNSET
    task_description: None | str | Unset = UNSET
    priority: float | None | Unset = 0.5
    earliest_begin_date: datetime.datetime | None | Unset = UNSET
    count_of_bytes_client_expects_to_send: int | None | Unset = -1
    count_of_bytes_client_expects_to_receive: int | None | Unset = -1
    completion: CompletionHandler | None | Unset = UNSET
    expected_digest: None | str | Unset = UNSET
    resume: bool | None | Unset = False
    segments: None | SegmentsInput | Unset = UNSET
    rate_limit: None | RateLimit | Unset = UNSET
    protocols: list[str] | None | Unset = UNSET
    maximum_message_size: int | None | Unset = UNSET
    host_name: None | str | Unset = UNSET
    port: int | None | Unset = UNSET
    mirrors: list[str] | None | Unset = UNSET
    expected_length: int | None | Unset = UNSET
    metalink: MetalinkInput | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.blob_upload_source import BlobUploadSource
        from ..models.completion_handler import CompletionHandler
        from ..models.data_upload_source import DataUploadSource
        from ..models.metalink_input import MetalinkInput
        from ..models.rate_limit import RateLimit
        from ..models.request import Request
        from ..models.segments_input import SegmentsInput
        from ..models.stream_upload_source import StreamUploadSource

        kind = self.kind.value

        request: dict[str, Any] | None | Unset
        if isinstance(self.request, Unset):
            request = UNSET
        elif isinstance(self.request, Request):
            request = self.request.to_dict()
        else:
            request = self.request

        upload_source: dict[str, Any] | None | Unset
        if isinstance(self.upload_source, Unset):
            upload_source = UNSET
        elif (
            isinstance(self.upload_source, StreamUploadSource)
            or isinstance(self.upload_source, BlobUploadSource)
            or isinstance(self.upload_source, DataUploadSource)
        ):
            upload_source = self.upload_source.to_dict()
        else:
            upload_source = self.upload_source

        resume_data: None | str | Unset
        if isinstance(self.resume_data, Unset):
            resume_data = UNSET
        else:
            resume_data = self.resume_data

        task_description: None | str | Unset
        if isinstance(self.task_description, Unset):
            task_description = UNSET
        else:
            task_description = self.task_description

        priority: float | None | Unset
        if isinstance(self.priority, Unset):
            priority = UNSET
        else:
            priority = self.priority

        earliest_begin_date: None | str | Unset
        if isinstance(self.earliest_begin_date, Unset):
            earliest_begin_date = UNSET
        elif isinstance(self.earliest_begin_date, datetime.datetime):
            earliest_begin_date = self.earliest_begin_date.isoformat()
        else:
            earliest_begin_date = self.earliest_begin_date

        count_of_bytes_client_expects_to_send: int | None | Unset
        if isinstance(self.count_of_bytes_client_expects_to_send, Unset):
            count_of_bytes_client_expects_to_send = UNSET
        else:
            count_of_bytes_client_expects_to_send = self.count_of_bytes_client_expects_to_send

        count_of_bytes_client_expects_to_receive: int | None | Unset
        if isinstance(self.count_of_bytes_client_expects_to_receive, Unset):
            count_of_bytes_client_expects_to_receive = UNSET
        else:
            count_of_bytes_client_expects_to_receive = self.count_of_bytes_client_expects_to_receive

        completion: dict[str, Any] | None | Unset
        if isinstance(self.completion, Unset):
            completion = UNSET
        elif isinstance(self.completion, CompletionHandler):
            completion = self.completion.to_dict()
        else:
            completion = self.completion

        expected_digest: None | str | Unset
        if isinstance(self.expected_digest, Unset):
            expected_digest = UNSET
        else:
            expected_digest = self.expected_digest

        resume: bool | None | Unset
        if isinstance(self.resume, Unset):
            resume = UNSET
        else:
            resume = self.resume

        segments: dict[str, Any] | None | Unset
        if isinstance(self.segments, Unset):
            segments = UNSET
        elif isinstance(self.segments, SegmentsInput):
            segments = self.segments.to_dict()
        else:
            segments = self.segments

        rate_limit: dict[str, Any] | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        elif isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        protocols: list[str] | None | Unset
        if isinstance(self.protocols, Unset):
            protocols = UNSET
        elif isinstance(self.protocols, list):
            protocols = self.protocols

        else:
            protocols = self.protocols

        maximum_message_size: int | None | Unset
        if isinstance(self.maximum_message_size, Unset):
            maximum_message_size = UNSET
        else:
            maximum_message_size = self.maximum_message_size

        host_name: None | str | Unset
        if isinstance(self.host_name, Unset):
            host_name = UNSET
        else:
            host_name = self.host_name

        port: int | None | Unset
        if isinstance(self.port, Unset):
            port = UNSET
        else:
            port = self.port

        mirrors: list[str] | None | Unset
        if isinstance(self.mirrors, Unset):
            mirrors = UNSET
        elif isinstance(self.mirrors, list):
            mirrors = self.mirrors

        else:
            mirrors = self.mirrors

        expected_length: int | None | Unset
        if isinstance(self.expected_length, Unset):
            expected_length = UNSET
        else:
            expected_length = self.expected_length

        metalink: dict[str, Any] | None | Unset
        if isinstance(self.metalink, Unset):
            metalink = UNSET
        elif isinstance(self.metalink, MetalinkInput):
            metalink = self.metalink.to_dict()
        else:
            metalink = self.metalink

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if request is not UNSET:
            field_dict["request"] = request
        if upload_source is not UNSET:
            field_dict["uploadSource"] = upload_source
        if resume_data is not UNSET:
            field_dict["resumeData"] = resume_data
        if task_description is not UNSET:
            field_dict["taskDescription"] = task_description
        if priority is not UNSET:
            field_dict["priority"] = priority
        if earliest_begin_date is not UNSET:
            field_dict["earliestBeginDate"] = earliest_begin_date
        if count_of_bytes_client_expects_to_send is not UNSET:
            field_dict["countOfBytesClientExpectsToSend"] = count_of_bytes_client_expects_to_send
        if count_of_bytes_client_expects_to_receive is not UNSET:
            field_dict["countOfBytesClientExpectsToReceive"] = count_of_bytes_client_expects_to_receive
        if completion is not UNSET:
            field_dict["completion"] = completion
        if expected_digest is not UNSET:
            field_dict["expectedDigest"] = expected_digest
        if resume is not UNSET:
            field_dict["resume"] = resume
        if segments is not UNSET:
            field_dict["segments"] = segments
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit
        if protocols is not UNSET:
            field_dict["protocols"] = protocols
        if maximum_message_size is not UNSET:
            field_dict["maximumMessageSize"] = maximum_message_size
        if host_name is not UNSET:
            field_dict["hostName"] = host_name
        if port is not UNSET:
            field_dict["port"] = port
        if mirrors is not UNSET:
            field_dict["mirrors"] = mirrors
        if expected_length is not UNSET:
            field_dict["expectedLength"] = expected_length
        if metalink is not UNSET:
            field_dict["metalink"] = metalink

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.blob_upload_source import BlobUploadSource
        from ..models.completion_handler import CompletionHandler
        from ..models.data_upload_source import DataUploadSource
        from ..models.metalink_input import MetalinkInput
        from ..models.rate_limit import RateLimit
        from ..models.request import Request
        from ..models.segments_input import SegmentsInput
        from ..models.stream_upload_source import StreamUploadSource

        d = dict(src_dict)
        kind = TaskKind(d.pop("kind"))

        def _parse_request(data: object) -> None | Request | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                request_type_0 = Request.from_dict(data)

                return request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Request | Unset, data)

        request = _parse_request(d.pop("request", UNSET))

        def _parse_upload_source(
            data: object,
        ) -> BlobUploadSource | DataUploadSource | None | StreamUploadSource | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_upload_source_type_0 = StreamUploadSource.from_dict(data)

                return componentsschemas_upload_source_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_upload_source_type_1 = BlobUploadSource.from_dict(data)

                return componentsschemas_upload_source_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_upload_source_type_2 = DataUploadSource.from_dict(data)

                return componentsschemas_upload_source_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BlobUploadSource | DataUploadSource | None | StreamUploadSource | Unset, data)

        upload_source = _parse_upload_source(d.pop("uploadSource", UNSET))

        def _parse_resume_data(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        resume_data = _parse_resume_data(d.pop("resumeData", UNSET))

        def _parse_task_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        task_description = _parse_task_description(d.pop("taskDescription", UNSET))

        def _parse_priority(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        priority = _parse_priority(d.pop("priority", UNSET))

        def _parse_earliest_begin_date(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                earliest_begin_date_type_0 = datetime.datetime.fromisoformat(data)

                return earliest_begin_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        earliest_begin_date = _parse_earliest_begin_date(d.pop("earliestBeginDate", UNSET))

        def _parse_count_of_bytes_client_expects_to_send(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        count_of_bytes_client_expects_to_send = _parse_count_of_bytes_client_expects_to_send(
            d.pop("countOfBytesClientExpectsToSend", UNSET)
        )

        def _parse_count_of_bytes_client_expects_to_receive(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        count_of_bytes_client_expects_to_receive = _parse_count_of_bytes_client_expects_to_receive(
            d.pop("countOfBytesClientExpectsToReceive", UNSET)
        )

        def _parse_completion(data: object) -> CompletionHandler | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                completion_type_0 = CompletionHandler.from_dict(data)

                return completion_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompletionHandler | None | Unset, data)

        completion = _parse_completion(d.pop("completion", UNSET))

        def _parse_expected_digest(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expected_digest = _parse_expected_digest(d.pop("expectedDigest", UNSET))

        def _parse_resume(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        resume = _parse_resume(d.pop("resume", UNSET))

        def _parse_segments(data: object) -> None | SegmentsInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                segments_type_0 = SegmentsInput.from_dict(data)

                return segments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SegmentsInput | Unset, data)

        segments = _parse_segments(d.pop("segments", UNSET))

        def _parse_rate_limit(data: object) -> None | RateLimit | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_0 = RateLimit.from_dict(data)

                return rate_limit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit", UNSET))

        def _parse_protocols(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                protocols_type_0 = cast(list[str], data)

                return protocols_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        protocols = _parse_protocols(d.pop("protocols", UNSET))

        def _parse_maximum_message_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        maximum_message_size = _parse_maximum_message_size(d.pop("maximumMessageSize", UNSET))

        def _parse_host_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        host_name = _parse_host_name(d.pop("hostName", UNSET))

        def _parse_port(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        port = _parse_port(d.pop("port", UNSET))

        def _parse_mirrors(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                mirrors_type_0 = cast(list[str], data)

                return mirrors_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        mirrors = _parse_mirrors(d.pop("mirrors", UNSET))

        def _parse_expected_length(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_length = _parse_expected_length(d.pop("expectedLength", UNSET))

        def _parse_metalink(data: object) -> MetalinkInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metalink_type_0 = MetalinkInput.from_dict(data)

                return metalink_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MetalinkInput | None | Unset, data)

        metalink = _parse_metalink(d.pop("metalink", UNSET))

        task_create_request = cls(
            kind=kind,
            request=request,
            upload_source=upload_source,
            resume_data=resume_data,
            task_description=task_description,
            priority=priority,
            earliest_begin_date=earliest_begin_date,
            count_of_bytes_client_expects_to_send=count_of_bytes_client_expects_to_send,
            count_of_bytes_client_expects_to_receive=count_of_bytes_client_expects_to_receive,
            completion=completion,
            expected_digest=expected_digest,
            resume=resume,
            segments=segments,
            rate_limit=rate_limit,
            protocols=protocols,
            maximum_message_size=maximum_message_size,
            host_name=host_name,
            port=port,
            mirrors=mirrors,
            expected_length=expected_length,
            metalink=metalink,
        )

        return task_create_request
