from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.task import Task


T = TypeVar("T", bound="CancelResponse")


@_attrs_define
class CancelResponse:
    """
    Attributes:
        task (Task): A `URLSessionTask`. A data task whose delegate answered `becomeDownload` keeps its id and
            becomes `kind: download` (URLSession makes a new download task object instead). The properties
            of `URLSessionTask` are on every task (null when absent); those of one subclass are on its kind
            only, as the classes have them: `location` and `segments` on a download task,
            `protocols`, `maximumMessageSize`, `closeCode` and `closeReason` on a webSocket task, `hostName`
            and `port` on a stream task; `rateLimit` (beyond URLSession) on data, download and upload tasks.
        resume_data (None | str): Opaque data for `downloadTask(withResumeData:)`; null when not asked for or when the
            download cannot be resumed.
    """

    task: Task
    resume_data: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        task = self.task.to_dict()

        resume_data: None | str
        resume_data = self.resume_data

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "task": task,
                "resumeData": resume_data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task import Task

        d = dict(src_dict)
        task = Task.from_dict(d.pop("task"))

        def _parse_resume_data(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resume_data = _parse_resume_data(d.pop("resumeData"))

        cancel_response = cls(
            task=task,
            resume_data=resume_data,
        )

        cancel_response.additional_properties = d
        return cancel_response

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
