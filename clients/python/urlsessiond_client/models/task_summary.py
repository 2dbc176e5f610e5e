from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.task_kind import TaskKind
from ..models.task_state import TaskState

T = TypeVar("T", bound="TaskSummary")


@_attrs_define
class TaskSummary:
    """The task fields carried by every task event.

    Attributes:
        id (str):
        task_identifier (int):
        kind (TaskKind): `URLSessionDataTask`, `URLSessionDownloadTask`, `URLSessionUploadTask`,
            `URLSessionWebSocketTask` or
            `URLSessionStreamTask`.
        state (TaskState): `URLSessionTask.State`.
        task_description (None | str):
    """

    id: str
    task_identifier: int
    kind: TaskKind
    state: TaskState
    task_description: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        task_identifier = self.task_identifier

        kind = self.kind.value

        state = self.state.value

        task_description: None | str
        task_description = self.task_description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "taskIdentifier": task_identifier,
                "kind": kind,
                "state": state,
                "taskDescription": task_description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        task_identifier = d.pop("taskIdentifier")

        kind = TaskKind(d.pop("kind"))

        state = TaskState(d.pop("state"))

        def _parse_task_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task_description = _parse_task_description(d.pop("taskDescription"))

        task_summary = cls(
            id=id,
            task_identifier=task_identifier,
            kind=kind,
            state=state,
            task_description=task_description,
        )

        task_summary.additional_properties = d
        return task_summary

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
