from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decision_event_type import DecisionEventType
from ..models.event_type import EventType
from ..types import UNSET, Unset

T = TypeVar("T", bound="Delegate")


@_attrs_define
class Delegate:
    """The session's delegate as stored (the secret is never returned, except once at creation).

    Attributes:
        url (None | str): Null for a delegate in the client process (no webhooks; decisions answered with
            `answerDecision`).
        events (list[EventType | Literal['*']]):
        decisions (list[DecisionEventType]):
        decision_timeout (float):
        progress_interval (float):
        progress_step (float):
        deliver_data (bool):
        deliver_data_max_bytes (int):
        secret (str | Unset): Returned once, only when the service generated it: in the 201 of creation, the 200 of a
            re-attach whose delegate replaced the stored one, or the answer to the patch that gave the
            session its first delegate.
    """

    url: None | str
    events: list[EventType | Literal["*"]]
    decisions: list[DecisionEventType]
    decision_timeout: float
    progress_interval: float
    progress_step: float
    deliver_data: bool
    deliver_data_max_bytes: int
    secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url: None | str
        url = self.url

        events = []
        for events_item_data in self.events:
            events_item: Literal["*"] | str
            if isinstance(events_item_data, EventType):
                events_item = events_item_data.value
            else:
                events_item = events_item_data
            events.append(events_item)

        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.value
            decisions.append(decisions_item)

        decision_timeout = self.decision_timeout

        progress_interval = self.progress_interval

        progress_step = self.progress_step

        deliver_data = self.deliver_data

        deliver_data_max_bytes = self.deliver_data_max_bytes

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "events": events,
                "decisions": decisions,
                "decisionTimeout": decision_timeout,
                "progressInterval": progress_interval,
                "progressStep": progress_step,
                "deliverData": deliver_data,
                "deliverDataMaxBytes": deliver_data_max_bytes,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:

            def _parse_events_item(data: object) -> EventType | Literal["*"]:
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

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)

        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in _decisions:
            decisions_item = DecisionEventType(decisions_item_data)

            decisions.append(decisions_item)

        decision_timeout = d.pop("decisionTimeout")

        progress_interval = d.pop("progressInterval")

        progress_step = d.pop("progressStep")

        deliver_data = d.pop("deliverData")

        deliver_data_max_bytes = d.pop("deliverDataMaxBytes")

        secret = d.pop("secret", UNSET)

        delegate = cls(
            url=url,
            events=events,
            decisions=decisions,
            decision_timeout=decision_timeout,
            progress_interval=progress_interval,
            progress_step=progress_step,
            deliver_data=deliver_data,
            deliver_data_max_bytes=deliver_data_max_bytes,
            secret=secret,
        )

        delegate.additional_properties = d
        return delegate

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
