from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delegate_delivery_state import DelegateDeliveryState

if TYPE_CHECKING:
    from ..models.delivery_failure import DeliveryFailure


T = TypeVar("T", bound="DelegateDelivery")


@_attrs_define
class DelegateDelivery:
    """The health of the session's delegate: where its queue of events stands and, after failures, why.
    Read from the store each time the session is answered (the dispatcher records what it learns in
    batches, a few milliseconds after each answer of the delegate). `POST /v1/sessions/{id}/redeliver`
    sends what waits now.

        Attributes:
            state (DelegateDeliveryState): `idle`: nothing waits. `delivering`: events wait and no failure is pending.
                `retrying`: the
                head of the queue failed and a retry is scheduled (`nextAttemptAt`). `held`: a background
                session without launch events (`sessionSendsLaunchEvents: false`) found its delegate
                unreachable: nothing is sent until the client re-attaches or `redeliver` is called (`heldAt`).
                `disabled`: the delegate URL answered 410 Gone: nothing is sent to it until a `PATCH` gives a
                new address or `redeliver` is called (`disabledAt`).
            pending_events (int): Events of the session after `deliveredThrough` (its newest event's `sequence` minus the
                cursor). Events the delegate's `events` filter skips are counted until the cursor passes them:
                once the dispatcher has read them, or, behind an event still waiting, once that one is done.
            delivered_through (int): The delegate cursor: every event with a `sequence` up to it is done with (delivered,
                skipped
                by the `events` filter, or given up, like a decision nobody answered).
            last_delivered_at (datetime.datetime | None): The last 2xx acknowledgement of the delegate; null when none yet.
            consecutive_failures (int): Failed attempts to the delegate since its last 2xx.
            last_failure (DeliveryFailure | None): The last failed attempt; null when none yet.
            next_attempt_at (datetime.datetime | None): When the failed head is tried again (`retrying`); null otherwise.
            held_at (datetime.datetime | None): When the queue was held (`held`); null otherwise.
            disabled_at (datetime.datetime | None): When the delegate URL answered 410 Gone (`disabled`); null otherwise.
    """

    state: DelegateDeliveryState
    pending_events: int
    delivered_through: int
    last_delivered_at: datetime.datetime | None
    consecutive_failures: int
    last_failure: DeliveryFailure | None
    next_attempt_at: datetime.datetime | None
    held_at: datetime.datetime | None
    disabled_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_failure import DeliveryFailure

        state = self.state.value

        pending_events = self.pending_events

        delivered_through = self.delivered_through

        last_delivered_at: None | str
        if isinstance(self.last_delivered_at, datetime.datetime):
            last_delivered_at = self.last_delivered_at.isoformat()
        else:
            last_delivered_at = self.last_delivered_at

        consecutive_failures = self.consecutive_failures

        last_failure: dict[str, Any] | None
        if isinstance(self.last_failure, DeliveryFailure):
            last_failure = self.last_failure.to_dict()
        else:
            last_failure = self.last_failure

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        held_at: None | str
        if isinstance(self.held_at, datetime.datetime):
            held_at = self.held_at.isoformat()
        else:
            held_at = self.held_at

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "state": state,
                "pendingEvents": pending_events,
                "deliveredThrough": delivered_through,
                "lastDeliveredAt": last_delivered_at,
                "consecutiveFailures": consecutive_failures,
                "lastFailure": last_failure,
                "nextAttemptAt": next_attempt_at,
                "heldAt": held_at,
                "disabledAt": disabled_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_failure import DeliveryFailure

        d = dict(src_dict)
        state = DelegateDeliveryState(d.pop("state"))

        pending_events = d.pop("pendingEvents")

        delivered_through = d.pop("deliveredThrough")

        def _parse_last_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_delivered_at = _parse_last_delivered_at(d.pop("lastDeliveredAt"))

        consecutive_failures = d.pop("consecutiveFailures")

        def _parse_last_failure(data: object) -> DeliveryFailure | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_failure_type_0 = DeliveryFailure.from_dict(data)

                return last_failure_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryFailure | None, data)

        last_failure = _parse_last_failure(d.pop("lastFailure"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        def _parse_held_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                held_at_type_0 = datetime.datetime.fromisoformat(data)

                return held_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        held_at = _parse_held_at(d.pop("heldAt"))

        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabledAt"))

        delegate_delivery = cls(
            state=state,
            pending_events=pending_events,
            delivered_through=delivered_through,
            last_delivered_at=last_delivered_at,
            consecutive_failures=consecutive_failures,
            last_failure=last_failure,
            next_attempt_at=next_attempt_at,
            held_at=held_at,
            disabled_at=disabled_at,
        )

        delegate_delivery.additional_properties = d
        return delegate_delivery

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
