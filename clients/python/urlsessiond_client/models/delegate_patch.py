from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.decision_event_type import DecisionEventType
from ..models.event_type import EventType
from ..types import UNSET, Unset

T = TypeVar("T", bound="DelegatePatch")


@_attrs_define
class DelegatePatch:
    """Members of the delegate to change; left out: unchanged, null: back to the default (for `url`:
    none, a delegate in the client). A `secret` with `url: null` in the same patch is 422
    `delegate.secret` (nothing to sign); a `secret` without `url` for a delegate that has none
    conflicts with the session's state (409).

        Attributes:
            url (None | str | Unset):
            secret (str | Unset): A new signing secret (rotation); left out, the stored one stays.
            events (list[EventType | Literal['*']] | None | Unset):
            decisions (list[DecisionEventType] | None | Unset):
            decision_timeout (float | None | Unset):
            progress_interval (float | None | Unset):
            progress_step (float | None | Unset):
            deliver_data (bool | None | Unset):
            deliver_data_max_bytes (int | None | Unset):
    """

    url: None | str | Unset = UNSET
    secret: str | Unset = UNSET
    events: list[EventType | Literal["*"]] | None | Unset = UNSET
    decisions: list[DecisionEventType] | None | Unset = UNSET
    decision_timeout: float | None | Unset = UNSET
    progress_interval: float | None | Unset = UNSET
    progress_step: float | None | Unset = UNSET
    deliver_data: bool | None | Unset = UNSET
    deliver_data_max_bytes: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

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

        secret = d.pop("secret", UNSET)

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

        delegate_patch = cls(
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

        return delegate_patch
