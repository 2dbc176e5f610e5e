from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.task_completion_data import TaskCompletionData


T = TypeVar("T", bound="TaskCompletionEvent")


@_attrs_define
class TaskCompletionEvent:
    """The body of the `taskCompletion` webhook: an `Event` of type `task.completion`, POSTed once to the
    task's `completion.url` (it is also in the session's events).

        Attributes:
            id (str): Stable across delivery attempts (the `webhook-id`).
            type_ (Literal['task.completion']):
            sequence (int):
            timestamp (datetime.datetime):
            session_id (str):
            task_id (str):
            data (TaskCompletionData): The completion handler's arguments: `{"task", "response", "error", "data"}` for data
                and upload
                tasks (`dataLocation` too when the body is not inline), `{"task", "response", "error", "location"}`
                for downloads.
    """

    id: str
    type_: Literal["task.completion"]
    sequence: int
    timestamp: datetime.datetime
    session_id: str
    task_id: str
    data: TaskCompletionData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        sequence = self.sequence

        timestamp = self.timestamp.isoformat()

        session_id = self.session_id

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
        from ..models.task_completion_data import TaskCompletionData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["task.completion"], d.pop("type"))
        if type_ != "task.completion":
            raise ValueError(f"type must match const 'task.completion', got '{type_}'")

        sequence = d.pop("sequence")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        session_id = d.pop("sessionId")

        task_id = d.pop("taskId")

        data = TaskCompletionData.from_dict(d.pop("data"))

        task_completion_event = cls(
            id=id,
            type_=type_,
            sequence=sequence,
            timestamp=timestamp,
            session_id=session_id,
            task_id=task_id,
            data=data,
        )

        task_completion_event.additional_properties = d
        return task_completion_event

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
