from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.task import Task
    from ..models.task_batch_problem import TaskBatchProblem


T = TypeVar("T", bound="TaskBatchResponse")


@_attrs_define
class TaskBatchResponse:
    """One item per member of the batch, in the members' order.

    Attributes:
        items (list[Task | TaskBatchProblem]):
    """

    items: list[Task | TaskBatchProblem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.task import Task

        items = []
        for items_item_data in self.items:
            items_item: dict[str, Any]
            if isinstance(items_item_data, Task):
                items_item = items_item_data.to_dict()
            else:
                items_item = items_item_data.to_dict()

            items.append(items_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task import Task
        from ..models.task_batch_problem import TaskBatchProblem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:

            def _parse_items_item(data: object) -> Task | TaskBatchProblem:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_task_batch_item_type_0 = Task.from_dict(data)

                    return componentsschemas_task_batch_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_task_batch_item_type_1 = TaskBatchProblem.from_dict(data)

                return componentsschemas_task_batch_item_type_1

            items_item = _parse_items_item(items_item_data)

            items.append(items_item)

        task_batch_response = cls(
            items=items,
        )

        task_batch_response.additional_properties = d
        return task_batch_response

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
