from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.decision_event_type import DecisionEventType
from ..models.event_type import EventType
from ..types import UNSET, Unset

T = TypeVar("T", bound="DelegateInput")


@_attrs_define
class DelegateInput:
    """The session's delegate as a webhook. Events are POSTed to `url`, signed per Standard Webhooks v1
    with `secret`; the decision events listed in `decisions` wait for the webhook's answer.

    Without `url` (absent or null) the delegate lives in the client process: nothing is POSTed, the
    client reads the events (`GET /v1/sessions/{id}/events`: pages, long-polls, server-sent events)
    and answers the decision events listed in `decisions` with `answerDecision`. `events`,
    `progressInterval`, `progressStep`, `deliverData`, `decisions` and `decisionTimeout` apply as for
    a webhook; it has no `secret` (422 `delegate.secret` when one is given: there is nothing to sign)
    and its session's `delivery` is null.

        Attributes:
            url (None | str | Unset): Null or absent: a delegate in the client (see above). Webhooks pass the egress policy
                as
                transfers do. A URL whose host is an address the policy refuses (an IP literal, or
                `localhost`) is 422 `delegate.url` when given, naming
                `URLSESSIOND_EGRESS_ALLOW`; a host name is judged by the addresses it resolves to when each
                POST is made.
            secret (None | str | Unset): The Standard Webhooks signing secret, `whsec_` + base64 of 24 to 64 bytes. When
                absent the
                service generates one for a webhook delegate and returns it once, in the 201 of the creation.
                Refused (422) for a delegate without `url`.
            events (list[EventType | Literal['*']] | None | Unset): Event types to deliver, or `*` for all (at most 64
                entries).
            decisions (list[DecisionEventType] | None | Unset): The decision events this delegate "implements": for them the
                transfer waits for the webhook's
                answer (see the `delegateEvent` webhook). Others get default handling without asking.
            decision_timeout (float | None | Unset): Seconds to wait for a decision's answer before default handling.
                Default: 10.0.
            progress_interval (float | None | Unset): Minimum seconds between two progress events of one task
                (`task.didSendBodyData`,
                `dataTask.didReceiveData`, `downloadTask.didWriteData`); 0 sends one per report of the transfer.
                Over a network a delegate method called at in-process rates floods the receiver, so progress is
                coalesced by this and `progressStep`. The first event comes as soon as bytes move, and the last
                one before the completion always carries the final totals; deltas add up to the totals. The
                same coalescing applies to the events read by polling or `GET /v1/sessions/{id}/events` (with
                or without a delegate).
                 Default: 0.5.
            progress_step (float | None | Unset): Minimum fraction of a counter's known total (`totalBytesExpectedTo…`)
                between two of its
                progress events, besides `progressInterval`: with the default 0.05 a transfer of known length
                sends at most about 21 per counter however long it takes (a 100 s download: 21, not 200). A
                counter whose total is unknown (-1) is coalesced by `progressInterval` alone. 0 turns the step
                off. Reaching the total always sends.
                 Default: 0.05.
            deliver_data (bool | None | Unset): `dataTask.didReceiveData` carries the bytes themselves (`data`, base64), in
                order, coalesced
                per `progressInterval` and `progressStep`, up to `deliverDataMaxBytes` per task (beyond URLSession's counts-only
                events here; URLSession's own delegate gets the Data). For webSocket tasks it opts in to
                `webSocketTask.didReceiveMessage`, each carrying its message when it is at most
                `deliverDataMaxBytes` long.
                 Default: False.
            deliver_data_max_bytes (int | None | Unset): The most body bytes of one task that `deliverData` puts in events.
                The event that would pass
                it, and every later one, carries `data: null`: the bytes delivered are always a prefix of the
                body (read the rest from `/v1/tasks/{id}/data` with `Range`).
                 Default: 1048576.
    """

    url: None | str | Unset = UNSET
    secret: None | str | Unset = UNSET
    events: list[EventType | Literal["*"]] | None | Unset = UNSET
    decisions: list[DecisionEventType] | None | Unset = UNSET
    decision_timeout: float | None | Unset = 10.0
    progress_interval: float | None | Unset = 0.5
    progress_step: float | None | Unset = 0.05
    deliver_data: bool | None | Unset = False
    deliver_data_max_bytes: int | None | Unset = 1048576

    def to_dict(self) -> dict[str, Any]:
        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        events: list[Literal["*"] | str] | None | Unset
        if isinstance(self.events, Unset):
            events = UNSET
        elif isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item: Literal["*"] | str
                if isinstance(events_type_0_item_data, EventType):
                    events_type_0_item = events_type_0_item_data.value
                else:
                    events_type_0_item = events_type_0_item_data
                events.append(events_type_0_item)

        else:
            events = self.events

        decisions: list[str] | None | Unset
        if isinstance(self.decisions, Unset):
            decisions = UNSET
        elif isinstance(self.decisions, list):
            decisions = []
            for decisions_type_0_item_data in self.decisions:
                decisions_type_0_item = decisions_type_0_item_data.value
                decisions.append(decisions_type_0_item)

        else:
            decisions = self.decisions

        decision_timeout: float | None | Unset
        if isinstance(self.decision_timeout, Unset):
            decision_timeout = UNSET
        else:
            decision_timeout = self.decision_timeout

        progress_interval: float | None | Unset
        if isinstance(self.progress_interval, Unset):
            progress_interval = UNSET
        else:
            progress_interval = self.progress_interval

        progress_step: float | None | Unset
        if isinstance(self.progress_step, Unset):
            progress_step = UNSET
        else:
            progress_step = self.progress_step

        deliver_data: bool | None | Unset
        if isinstance(self.deliver_data, Unset):
            deliver_data = UNSET
        else:
            deliver_data = self.deliver_data

        deliver_data_max_bytes: int | None | Unset
        if isinstance(self.deliver_data_max_bytes, Unset):
            deliver_data_max_bytes = UNSET
        else:
            deliver_data_max_bytes = self.deliver_data_max_bytes

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if secret is not UNSET:
            field_dict["secret"] = secret
        if events is not UNSET:
            field_dict["events"] = events
        if decisions is not UNSET:
            field_dict["decisions"] = decisions
        if decision_timeout is not UNSET:
            field_dict["decisionTimeout"] = decision_timeout
        if progress_interval is not UNSET:
            field_dict["progressInterval"] = progress_interval
        if progress_step is not UNSET:
            field_dict["progressStep"] = progress_step
        if deliver_data is not UNSET:
            field_dict["deliverData"] = deliver_data
        if deliver_data_max_bytes is not UNSET:
            field_dict["deliverDataMaxBytes"] = deliver_data_max_bytes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        def _parse_events(data: object) -> list[EventType | Literal["*"]] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                events_type_0 = []
                _events_type_0 = data
                for events_type_0_item_data in _events_type_0:

                    def _parse_events_type_0_item(data: object) -> EventType | Literal["*"]:
                        try:
                            if not isinstance(data, str):
                                raise TypeError()
                            componentsschemas_event_type_selector_type_0 = EventType(data)

                            return componentsschemas_event_type_selector_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        componentsschemas_event_type_selector_type_1 = cast(Literal["*"], data)
                        if componentsschemas_event_type_selector_type_1 != "*":
                            raise ValueError(
                                f"/components/schemas/EventTypeSelector_type_1 must match const '*', got '{componentsschemas_event_type_selector_type_1}'"
                            )
                        return componentsschemas_event_type_selector_type_1

                    events_type_0_item = _parse_events_type_0_item(events_type_0_item_data)

                    events_type_0.append(events_type_0_item)

                return events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[EventType | Literal["*"]] | None | Unset, data)

        events = _parse_events(d.pop("events", UNSET))

        def _parse_decisions(data: object) -> list[DecisionEventType] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                decisions_type_0 = []
                _decisions_type_0 = data
                for decisions_type_0_item_data in _decisions_type_0:
                    decisions_type_0_item = DecisionEventType(decisions_type_0_item_data)

                    decisions_type_0.append(decisions_type_0_item)

                return decisions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[DecisionEventType] | None | Unset, data)

        decisions = _parse_decisions(d.pop("decisions", UNSET))

        def _parse_decision_timeout(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        decision_timeout = _parse_decision_timeout(d.pop("decisionTimeout", UNSET))

        def _parse_progress_interval(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        progress_interval = _parse_progress_interval(d.pop("progressInterval", UNSET))

        def _parse_progress_step(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        progress_step = _parse_progress_step(d.pop("progressStep", UNSET))

        def _parse_deliver_data(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        deliver_data = _parse_deliver_data(d.pop("deliverData", UNSET))

        def _parse_deliver_data_max_bytes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        deliver_data_max_bytes = _parse_deliver_data_max_bytes(d.pop("deliverDataMaxBytes", UNSET))

        delegate_input = cls(
            url=url,
            secret=secret,
            events=events,
            decisions=decisions,
            decision_timeout=decision_timeout,
            progress_interval=progress_interval,
            progress_step=progress_step,
            deliver_data=deliver_data,
            deliver_data_max_bytes=deliver_data_max_bytes,
        )

        return delegate_input
