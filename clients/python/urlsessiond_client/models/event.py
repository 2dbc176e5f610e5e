from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type import EventType

if TYPE_CHECKING:
    from ..models.event_data import EventData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """One delegate callback. `sequence` starts at 1 for a new session and grows by one with no gaps;
    delivery is at least once, in `sequence` order per session (`id` stays the same across retries).
    An event becomes readable only once every event of its session with a lower `sequence` is: a
    session's events are numbered under its row's lock and committed in that order, by however many
    nodes and in however large batches they are written, so following `?after=` the last `sequence`
    seen never skips one. Order across sessions is not defined.
    `data` holds the delegate method's parameters under their Swift argument names, plus `task`
    (a `TaskSummary`) on every task event:

    | type | data |
    |---|---|
    | session.didBecomeInvalidWithError | `error` (TransferError or null) |
    | session.didReceiveChallenge | `challenge` (AuthenticationChallenge), without `task` (the event's `taskId` names
    the task that met it): the session-wide challenges — server trust, client certificates, NTLM, Negotiate — when
    `session.didReceiveChallenge` is listed in `delegate.decisions`; HTTP Basic and Digest challenges (of origins and
    proxies) never come here |
    | session.didFinishEventsForBackgroundURLSession | (nothing) |
    | task.didCreateTask | `task` |
    | task.willBeginDelayedRequest | `request` |
    | task.taskIsWaitingForConnectivity | `task` |
    | task.needNewBodyStream | `task`: a streamed upload's redirect (307, 308) needs the body again; `PUT
    /v1/tasks/{id}/body` sends it from the start |
    | task.willPerformHTTPRedirection | `response` (the 3xx), `request` (the proposed new request) |
    | task.didReceiveChallenge | `challenge` (AuthenticationChallenge): `protectionSpace` {`host`, `port`, `protocol`,
    `realm`, `authenticationMethod`, `isProxy`}, `previousFailureCount`, `failureResponse` (the 401 or 407; null for the
    TLS challenges), `proposedCredential` (the stored credential the default handling would use, never its secret; null
    when none), `serverTrust` (server-trust challenges only: the chain and its evaluation); sent only when listed in
    `delegate.decisions`: for HTTP Basic and Digest challenges (of origins and proxies), and for the session-wide ones
    when `session.didReceiveChallenge` is not listed |
    | task.didSendBodyData | `bytesSent`, `totalBytesSent`, `totalBytesExpectedToSend` |
    | task.didReceiveInformationalResponse | `response` (the 1xx) |
    | task.didFinishCollectingMetrics | `metrics` (TaskMetrics) |
    | task.didCompleteWithError | `error` (TransferError, null on success) |
    | dataTask.didReceiveResponse | `response` |
    | dataTask.didBecomeDownloadTask | `downloadTask` (TaskSummary: the same task, now `download`) |
    | dataTask.didReceiveData | `length` (bytes received since the previous such event), `totalBytesReceived`,
    `totalBytesExpectedToReceive` (-1: unknown); `data`: those `length` bytes as base64 when the delegate sets
    `deliverData` and they fit its `deliverDataMaxBytes` (the bytes delivered are a prefix of the body), else null: the
    bytes are at `/v1/tasks/{id}/data`, while the task runs or once it completes |
    | dataTask.willCacheResponse | `proposedResponse` (CachedResponse: `response`, `storagePolicy` — `allowed` when the
    response fits the disk tier, else `allowedInMemoryOnly` —, `userInfo` null, `storedAt` null, `dataLength`, `data`);
    sent only for data tasks (not downloads, not the completion-handler form) with a storable response, and only when
    listed in `delegate.decisions`: after the task's final `dataTask.didReceiveData`, before `task.didCompleteWithError`
    |
    | downloadTask.didWriteData | `bytesWritten`, `totalBytesWritten`, `totalBytesExpectedToWrite` |
    | downloadTask.didResumeAtOffset | `fileOffset`, `expectedTotalBytes` |
    | downloadTask.didFinishDownloadingTo | `location` (the `/v1/tasks/{id}/file` path) |
    | webSocketTask.didOpenWithProtocol | `protocol`: the subprotocol the server chose, or null |
    | webSocketTask.didCloseWith | `closeCode`, `reason` (null when none): before `task.didCompleteWithError`, whenever
    the connection had opened or a close was asked for |
    | webSocketTask.didReceiveMessage | beyond URLSession (whose `receive` is a call), only for a delegate with
    `deliverData`: `sequence`, `length`, `message` (`{"sequence", "string"}` or `{"sequence", "data"}` in base64; null
    when `length` is over `deliverDataMaxBytes`: read it from `/v1/tasks/{id}/messages`) |
    | streamTask.readClosed | `task`: the peer ended its side (its EOF, or TLS's close_notify, was read); reads then get
    what is buffered, then `atEOF` |
    | streamTask.writeClosed | `task`: `closeWrite` is done (TLS's close_notify and TCP's FIN sent).
    `streamTask.betterRouteDiscovered` is never sent: the service has no better route to offer |
    | task.didDropMirror | beyond URLSession, downloads with `mirrors` or `metalink`: `url` (the mirror), `reason` (why
    it is no longer used: `status 503`, `length 1001, other mirrors 1000`, `length 1000, expected 999`, `answered a
    range request with the whole file`, `piece 4 failed its sha-256`, or the connection's failure); once per mirror and
    attempt |
    | task.didRejectPiece | beyond URLSession, downloads with Metalink piece hashes: `index` (the piece, from 0) and
    `mirror` (the URL that served it) — its SHA-256 did not match; the piece is fetched again from another mirror |
    | task.completion | `response`, `error`, and `data` (data and upload tasks: the body as base64 up to 64 KiB, else
    null and `dataLocation`) or `location` (downloads) |

    Progress events (`task.didSendBodyData`, `dataTask.didReceiveData`, `downloadTask.didWriteData`)
    are coalesced by `delegate.progressInterval` (0.5 s) and `delegate.progressStep` (0.05 of a
    known total), also without a delegate; deltas add up to the totals, and the last one before
    completion is always sent, with the final totals. Background sessions follow redirects without
    a `task.willPerformHTTPRedirection`.

    Redirects followed: 301, 302, 303, 307 and 308 (a 301, 302 or 303 to a POST becomes a GET
    without its body; 303 turns every method but HEAD into GET; 307 and 308 keep the method and
    the body). 300, 304, 305 and 306 are final responses: 305 `Use Proxy` is deprecated because an
    origin must not choose the client's proxy (RFC 9110 §15.4.6) and 306 is reserved (§15.4.7), so
    neither is followed, as Apple's URLSession does not document following them
    (swift-corelibs-foundation follows both keeping the method; this service does not).

    A task whose `httpMethod` is GET and whose body is not empty completes with -1103
    `dataLengthExceedsMaximum` before anything is sent, as URLSession's; a body without a
    `Content-Type` of its own is sent as `application/x-www-form-urlencoded`, as URLSession sends
    it. A malformed answer (no status line, an unknown HTTP version, a status code that is not three
    digits) is -1011 `badServerResponse`.

    A data or upload task's `multipart/x-mixed-replace` response is read as URLSession reads it:
    each part is a `dataTask.didReceiveResponse` of its own (the part's header fields as
    `allHeaderFields`, the status and URL of the response), and the part's bytes follow as
    `dataTask.didReceiveData` before the next part's response (all of them: the coalescing stops at
    a part's end). A delegate that lists `dataTask.didReceiveResponse` decides about every part
    (`cancel` ends the task there). Each part's data replaces the previous one's: the task's
    `response` and `/v1/tasks/{id}/data` are the last part's, while `countOfBytesReceived` counts
    every part's bytes and `countOfBytesExpectedToReceive` stays -1.

        Example:
            {'id': 'evt_0123456789ABCDEFGHIJKL', 'type': 'downloadTask.didWriteData', 'sequence': 17, 'timestamp':
                '2026-11-22T03:16:52.123Z', 'sessionId': 'ses_0123456789ABCDEFGHIJKL', 'taskId': 'tsk_0123456789ABCDEFGHIJKL',
                'data': {'task': {'id': 'tsk_0123456789ABCDEFGHIJKL', 'taskIdentifier': 3, 'kind': 'download', 'state':
                'running', 'taskDescription': None}, 'bytesWritten': 65536, 'totalBytesWritten': 131072,
                'totalBytesExpectedToWrite': 1048576}}

        Attributes:
            id (str): Stable across delivery attempts (the `webhook-id`).
            type_ (EventType): Delegate methods as `<protocol>.<method>`, plus `task.completion` (the completion-handler
                form).
                Decision events (`DecisionEventType`) wait for the delegate's answer when listed in
                `delegate.decisions`.
            sequence (int):
            timestamp (datetime.datetime):
            session_id (str):
            task_id (None | str): Null for session events.
            data (EventData): The delegate method's parameters (see the table).
    """

    id: str
    type_: EventType
    sequence: int
    timestamp: datetime.datetime
    session_id: str
    task_id: None | str
    data: EventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        sequence = self.sequence

        timestamp = self.timestamp.isoformat()

        session_id = self.session_id

        task_id: None | str
        task_id = self.task_id

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "sequence": sequence,
                "timestamp": timestamp,
                "sessionId": session_id,
                "taskId": task_id,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_data import EventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = EventType(d.pop("type"))

        sequence = d.pop("sequence")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        session_id = d.pop("sessionId")

        def _parse_task_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task_id = _parse_task_id(d.pop("taskId"))

        data = EventData.from_dict(d.pop("data"))

        event = cls(
            id=id,
            type_=type_,
            sequence=sequence,
            timestamp=timestamp,
            session_id=session_id,
            task_id=task_id,
            data=data,
        )

        event.additional_properties = d
        return event

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
