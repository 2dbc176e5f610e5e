from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.task_metrics_task_interval import TaskMetricsTaskInterval
    from ..models.transaction_metrics import TransactionMetrics


T = TypeVar("T", bound="TaskMetrics")


@_attrs_define
class TaskMetrics:
    """`URLSessionTaskMetrics`.

    Attributes:
        task_interval (TaskMetricsTaskInterval): `DateInterval` from the task's start to its completion.
        redirect_count (int): The task's own requests after the first (redirects, challenges); a segmented download's
            ranges are not counted.
        transaction_metrics (list[TransactionMetrics]): One entry per request attempt (each redirect, retry or cache
            load), in order of their start;
            a segmented download's range requests too, each on its part's connection, each counting its
            own body bytes in `countOfResponseBodyBytesAfterDecoding`.
    """

    task_interval: TaskMetricsTaskInterval
    redirect_count: int
    transaction_metrics: list[TransactionMetrics]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        task_interval = self.task_interval.to_dict()

        redirect_count = self.redirect_count

        transaction_metrics = []
        for transaction_metrics_item_data in self.transaction_metrics:
            transaction_metrics_item = transaction_metrics_item_data.to_dict()
            transaction_metrics.append(transaction_metrics_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "taskInterval": task_interval,
                "redirectCount": redirect_count,
                "transactionMetrics": transaction_metrics,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task_metrics_task_interval import TaskMetricsTaskInterval
        from ..models.transaction_metrics import TransactionMetrics

        d = dict(src_dict)
        task_interval = TaskMetricsTaskInterval.from_dict(d.pop("taskInterval"))

        redirect_count = d.pop("redirectCount")

        transaction_metrics = []
        _transaction_metrics = d.pop("transactionMetrics")
        for transaction_metrics_item_data in _transaction_metrics:
            transaction_metrics_item = TransactionMetrics.from_dict(transaction_metrics_item_data)

            transaction_metrics.append(transaction_metrics_item)

        task_metrics = cls(
            task_interval=task_interval,
            redirect_count=redirect_count,
            transaction_metrics=transaction_metrics,
        )

        task_metrics.additional_properties = d
        return task_metrics

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
