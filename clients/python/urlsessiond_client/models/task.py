from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.task_kind import TaskKind
from ..models.task_state import TaskState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metalink_input import MetalinkInput
    from ..models.progress import Progress
    from ..models.rate_limit import RateLimit
    from ..models.request import Request
    from ..models.response import Response
    from ..models.segments import Segments
    from ..models.transfer_error import TransferError


T = TypeVar("T", bound="Task")


@_attrs_define
class Task:
    """A `URLSessionTask`. A data task whose delegate answered `becomeDownload` keeps its id and
    becomes `kind: download` (URLSession makes a new download task object instead). The properties
    of `URLSessionTask` are on every task (null when absent); those of one subclass are on its kind
    only, as the classes have them: `location` and `segments` on a download task,
    `protocols`, `maximumMessageSize`, `closeCode` and `closeReason` on a webSocket task, `hostName`
    and `port` on a stream task; `rateLimit` (beyond URLSession) on data, download and upload tasks.

        Attributes:
            id (str):
            session_id (str):
            task_identifier (int): `URLSessionTask.taskIdentifier`: unique within the session, in creation order.
            kind (TaskKind): `URLSessionDataTask`, `URLSessionDownloadTask`, `URLSessionUploadTask`,
                `URLSessionWebSocketTask` or
                `URLSessionStreamTask`.
            state (TaskState): `URLSessionTask.State`.
            priority (float):
            task_description (None | str):
            earliest_begin_date (datetime.datetime | None):
            original_request (None | Request): The request as created; null for a download created from `resumeData` (its
                request is in the resume data).
            current_request (None | Request): The request being sent (after redirects); null before the task starts.
            response (None | Response): The final (or latest) response; null until headers arrive.
            count_of_bytes_sent (int):
            count_of_bytes_expected_to_send (int): -1 when unknown.
            count_of_bytes_received (int):
            count_of_bytes_expected_to_receive (int): -1 when unknown.
            progress (Progress): The task's `progress` (a `Progress` object) with the transfer rate.
            error (None | TransferError): Set when the task completed with an error; null otherwise.
            created_at (datetime.datetime):
            started_at (datetime.datetime | None):
            completed_at (datetime.datetime | None):
            rate_limit (None | RateLimit | Unset): Data, download and upload tasks only (always there): while the task runs
                on the node answering,
                the bandwidth limit in force now — the lowest of its own, its session's, its tenant's and the
                service's, timetables evaluated, as flat rates; null when none applies. Otherwise (not running,
                or its transfer waiting for a slot) the task's own `rateLimit` as set, a timetable included; null
                when it has none. Its rate is `progress.throughput`.
            location (None | str | Unset): Download tasks only (always there, null until the file exists): once finished and
                until the
                file is deleted or expires, the path of the file (`/v1/tasks/{id}/file`).
            segments (None | Segments | Unset): Download tasks only: the `segments` the download runs with (its own, or its
                session's default
                when it was created); null for one connection.
            protocols (list[str] | None | Unset): webSocket tasks only, the subprotocols offered.
            maximum_message_size (int | None | Unset): webSocket tasks only, `maximumMessageSize`.
            close_code (int | None | Unset): webSocket tasks, `closeCode`: 0 (`invalid`) until the connection ended; then
                the close code of
                the close handshake (the one `cancel` sent with `closeCode`, else the server's), 1005 when the
                server's close frame had none, 1006 (`abnormalClosure`) when the connection ended without a
                close frame, 1009 (`messageTooBig`) after a message over `maximumMessageSize`, 1001 after a
                plain `cancel`. On webSocket tasks only.

                How a webSocket task completes: `error` null after a close handshake (either side's); -1005
                `networkConnectionLost` when the connection dropped without one (and for a task running when
                the service stopped, at its next start); -1011 `badServerResponse` when the server refused the
                upgrade (its response is the task's `response`, e.g. 404) or broke RFC 6455
                (`userInfo.reason` `webSocketHandshake` or `webSocketProtocol`); `NSPOSIXErrorDomain` 40
                (`EMSGSIZE`, "Message too long"), as URLSession reports it, for a message over
                `maximumMessageSize` (the server gets a 1009 close frame); -999 after a plain `cancel`; and
                as any task for the connection itself (-1004 with `reason: egressPolicy`, -1003, -1001 when
                the connection and handshake take longer than `timeoutIntervalForRequest`, -1009, TLS errors).
            close_reason (None | str | Unset): webSocket tasks, `closeReason`: the close frame's reason as text (RFC 6455
                requires UTF-8, which
                is checked on receipt, so nothing is lost where URLSession has `Data`); null when there was none.
                On webSocket tasks only.
            host_name (None | str | Unset): stream tasks only, the host connected to.
            port (int | None | Unset): stream tasks only, the port connected to.
            mirrors (list[str] | Unset): A download's mirrors (beyond URLSession): every URL of one file, the request's URL
                first, then the
                others in order of preference. Absolute http or https URLs (422 `field: mirrors[n]`), distinct, 1
                to 16. On a task, present only for a download created with `mirrors` or `metalink` (a metalink's
                URLs, best first; absent for a `metalink.url` task, whose document each attempt fetches anew).

                - Every mirror is a URL like the request's: the session's proxy, network path, credentials, TLS
                  rules and the egress policy apply to each (a mirror the policy refuses is dropped like one
                  that refuses connections).
                - Failover: when the mirror a request goes to fails — no connection, a timeout, an error status,
                  a length other than `expectedLength` (or the first mirror's), an answer that is not the range
                  asked for, a piece that fails its hash — it is dropped for the rest of the attempt
                  (`task.didDropMirror` with `url` and `reason`) and the download goes on from the next one
                  instead of failing. Once every mirror is dropped the task fails with the last cause
                  (`userInfo.reason = "mirrorRefused"` when it was an answer).
                - Ranges: a download with mirrors whose first answer serves ranges (`Accept-Ranges: bytes`, a
                  `Content-Length`, no content coding) is fetched in ranges (as a segmented one, see
                  `Segments`; on one connection without `segments`), so a mirror failing mid-file costs only
                  its range: the next mirror is asked for it with `Range`. Without ranges the download starts
                  again from 0 on the next mirror (`downloadTask.didResumeAtOffset` with `fileOffset` 0 when
                  bytes had arrived).
                - Agreement: mirrors agree on the length (`Content-Range`'s complete length equal to the first
                  answer's and to `expectedLength`), and on the bytes through the piece hashes and the whole-file
                  digest when given. Entity tags are not compared across mirrors (strong ETags of different
                  servers differ for the same bytes): `If-Range` goes only to the mirror whose response gave the
                  validator, and no strong validator is needed to fetch a mirrored download in ranges.
                - With `segments`, part connections spread over the live mirrors (the fewest connections first,
                  the preferred mirror among equals), each counting against `httpMaximumConnectionsPerHost` of its
                  own host.
                - Piece hashes (a metalink's `<pieces>`): parts are cut at piece boundaries; a piece is hashed as
                  its last byte is written, wherever its bytes came from; one that fails is fetched again from
                  another mirror (`task.didRejectPiece` with `index` and `mirror`; `countOfBytesReceived` goes
                  back by its length), and the mirror that served it is dropped (of several, those with an earlier
                  bad piece). A piece is read back and hashed on the engine's thread (SHA-256 runs at about
                  1.8 GB/s on the reference host, `openssl speed -evp sha256`: 0.15 ms per 256 KiB piece).
                - The task's `response` is the first mirror answer that was not refused; its `currentRequest` the
                  last mirror asked.
            expected_length (int | Unset): Download tasks created with it (or with a metalink `<size>`) only.
            metalink (MetalinkInput | Unset): A Metalink 4 document (RFC 5854) a download task takes its URLs, size and
                hashes from: exactly one
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
            completion_secret (str | Unset): Only in the 201 of a task created with `completion.url` but without
                `completion.secret`, on a
                session that has no delegate secret to sign with: the secret the service made to sign the
                `task.completion` POST (`whsec_…`). Shown once, never again.
    """

    id: str
    session_id: str
    task_identifier: int
    kind: TaskKind
    state: TaskState
    priority: float
    task_description: None | str
    earliest_begin_date: datetime.datetime | None
    original_request: None | Request
    current_request: None | Request
    response: None | Response
    count_of_bytes_sent: int
    count_of_bytes_expected_to_send: int
    count_of_bytes_received: int
    count_of_bytes_expected_to_receive: int
    progress: Progress
    error: None | TransferError
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    rate_limit: None | RateLimit | Unset = UNSET
    location: None | str | Unset = UNSET
    segments: None | Segments | Unset = UNSET
    protocols: list[str] | None | Unset = UNSET
    maximum_message_size: int | None | Unset = UNSET
    close_code: int | None | Unset = UNSET
    close_reason: None | str | Unset = UNSET
    host_name: None | str | Unset = UNSET
    port: int | None | Unset = UNSET
    mirrors: list[str] | Unset = UNSET
    expected_length: int | Unset = UNSET
    metalink: MetalinkInput | Unset = UNSET
    completion_secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.rate_limit import RateLimit
        from ..models.request import Request
        from ..models.response import Response
        from ..models.segments import Segments
        from ..models.transfer_error import TransferError

        id = self.id

        session_id = self.session_id

        task_identifier = self.task_identifier

        kind = self.kind.value

        state = self.state.value

        priority = self.priority

        task_description: None | str
        task_description = self.task_description

        earliest_begin_date: None | str
        if isinstance(self.earliest_begin_date, datetime.datetime):
            earliest_begin_date = self.earliest_begin_date.isoformat()
        else:
            earliest_begin_date = self.earliest_begin_date

        original_request: dict[str, Any] | None
        if isinstance(self.original_request, Request):
            original_request = self.original_request.to_dict()
        else:
            original_request = self.original_request

        current_request: dict[str, Any] | None
        if isinstance(self.current_request, Request):
            current_request = self.current_request.to_dict()
        else:
            current_request = self.current_request

        response: dict[str, Any] | None
        if isinstance(self.response, Response):
            response = self.response.to_dict()
        else:
            response = self.response

        count_of_bytes_sent = self.count_of_bytes_sent

        count_of_bytes_expected_to_send = self.count_of_bytes_expected_to_send

        count_of_bytes_received = self.count_of_bytes_received

        count_of_bytes_expected_to_receive = self.count_of_bytes_expected_to_receive

        progress = self.progress.to_dict()

        error: dict[str, Any] | None
        if isinstance(self.error, TransferError):
            error = self.error.to_dict()
        else:
            error = self.error

        created_at = self.created_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        rate_limit: dict[str, Any] | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        elif isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        segments: dict[str, Any] | None | Unset
        if isinstance(self.segments, Unset):
            segments = UNSET
        elif isinstance(self.segments, Segments):
            segments = self.segments.to_dict()
        else:
            segments = self.segments

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

        close_code: int | None | Unset
        if isinstance(self.close_code, Unset):
            close_code = UNSET
        else:
            close_code = self.close_code

        close_reason: None | str | Unset
        if isinstance(self.close_reason, Unset):
            close_reason = UNSET
        else:
            close_reason = self.close_reason

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

        mirrors: list[str] | Unset = UNSET
        if not isinstance(self.mirrors, Unset):
            mirrors = self.mirrors

        expected_length = self.expected_length

        metalink: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metalink, Unset):
            metalink = self.metalink.to_dict()

        completion_secret = self.completion_secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "sessionId": session_id,
                "taskIdentifier": task_identifier,
                "kind": kind,
                "state": state,
                "priority": priority,
                "taskDescription": task_description,
                "earliestBeginDate": earliest_begin_date,
                "originalRequest": original_request,
                "currentRequest": current_request,
                "response": response,
                "countOfBytesSent": count_of_bytes_sent,
                "countOfBytesExpectedToSend": count_of_bytes_expected_to_send,
                "countOfBytesReceived": count_of_bytes_received,
                "countOfBytesExpectedToReceive": count_of_bytes_expected_to_receive,
                "progress": progress,
                "error": error,
                "createdAt": created_at,
                "startedAt": started_at,
                "completedAt": completed_at,
            }
        )
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit
        if location is not UNSET:
            field_dict["location"] = location
        if segments is not UNSET:
            field_dict["segments"] = segments
        if protocols is not UNSET:
            field_dict["protocols"] = protocols
        if maximum_message_size is not UNSET:
            field_dict["maximumMessageSize"] = maximum_message_size
        if close_code is not UNSET:
            field_dict["closeCode"] = close_code
        if close_reason is not UNSET:
            field_dict["closeReason"] = close_reason
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
        if completion_secret is not UNSET:
            field_dict["completionSecret"] = completion_secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.metalink_input import MetalinkInput
        from ..models.progress import Progress
        from ..models.rate_limit import RateLimit
        from ..models.request import Request
        from ..models.response import Response
        from ..models.segments import Segments
        from ..models.transfer_error import TransferError

        d = dict(src_dict)
        id = d.pop("id")

        session_id = d.pop("sessionId")

        task_identifier = d.pop("taskIdentifier")

        kind = TaskKind(d.pop("kind"))

        state = TaskState(d.pop("state"))

        priority = d.pop("priority")

        def _parse_task_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task_description = _parse_task_description(d.pop("taskDescription"))

        def _parse_earliest_begin_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                earliest_begin_date_type_0 = datetime.datetime.fromisoformat(data)

                return earliest_begin_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        earliest_begin_date = _parse_earliest_begin_date(d.pop("earliestBeginDate"))

        def _parse_original_request(data: object) -> None | Request:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                original_request_type_0 = Request.from_dict(data)

                return original_request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Request, data)

        original_request = _parse_original_request(d.pop("originalRequest"))

        def _parse_current_request(data: object) -> None | Request:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                current_request_type_0 = Request.from_dict(data)

                return current_request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Request, data)

        current_request = _parse_current_request(d.pop("currentRequest"))

        def _parse_response(data: object) -> None | Response:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_type_0 = Response.from_dict(data)

                return response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Response, data)

        response = _parse_response(d.pop("response"))

        count_of_bytes_sent = d.pop("countOfBytesSent")

        count_of_bytes_expected_to_send = d.pop("countOfBytesExpectedToSend")

        count_of_bytes_received = d.pop("countOfBytesReceived")

        count_of_bytes_expected_to_receive = d.pop("countOfBytesExpectedToReceive")

        progress = Progress.from_dict(d.pop("progress"))

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

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

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

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        def _parse_segments(data: object) -> None | Segments | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                segments_type_0 = Segments.from_dict(data)

                return segments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Segments | Unset, data)

        segments = _parse_segments(d.pop("segments", UNSET))

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

        def _parse_close_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        close_code = _parse_close_code(d.pop("closeCode", UNSET))

        def _parse_close_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        close_reason = _parse_close_reason(d.pop("closeReason", UNSET))

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

        mirrors = cast(list[str], d.pop("mirrors", UNSET))

        expected_length = d.pop("expectedLength", UNSET)

        _metalink = d.pop("metalink", UNSET)
        metalink: MetalinkInput | Unset
        if isinstance(_metalink, Unset):
            metalink = UNSET
        else:
            metalink = MetalinkInput.from_dict(_metalink)

        completion_secret = d.pop("completionSecret", UNSET)

        task = cls(
            id=id,
            session_id=session_id,
            task_identifier=task_identifier,
            kind=kind,
            state=state,
            priority=priority,
            task_description=task_description,
            earliest_begin_date=earliest_begin_date,
            original_request=original_request,
            current_request=current_request,
            response=response,
            count_of_bytes_sent=count_of_bytes_sent,
            count_of_bytes_expected_to_send=count_of_bytes_expected_to_send,
            count_of_bytes_received=count_of_bytes_received,
            count_of_bytes_expected_to_receive=count_of_bytes_expected_to_receive,
            progress=progress,
            error=error,
            created_at=created_at,
            started_at=started_at,
            completed_at=completed_at,
            rate_limit=rate_limit,
            location=location,
            segments=segments,
            protocols=protocols,
            maximum_message_size=maximum_message_size,
            close_code=close_code,
            close_reason=close_reason,
            host_name=host_name,
            port=port,
            mirrors=mirrors,
            expected_length=expected_length,
            metalink=metalink,
            completion_secret=completion_secret,
        )

        task.additional_properties = d
        return task

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
