from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="TaskBatchRequest")


@_attrs_define
class TaskBatchRequest:
    """The body of `POST /v1/sessions/{id}/tasks/batch`: 1 to 1,000 task bodies, each checked alone as
    `POST /v1/sessions/{id}/tasks` checks its body. Only this shape is the batch's own: a member that
    is not a valid `TaskCreateRequest` is answered in its slot (`TaskBatchMember`).

        Attributes:
            tasks (list[Any]):
    """

    tasks: list[Any]

    def to_dict(self) -> dict[str, Any]:
        tasks = self.tasks

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tasks": tasks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tasks = cast(list[Any], d.pop("tasks"))

        task_batch_request = cls(
            tasks=tasks,
        )

        return task_batch_request
