from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.response import Response
    from ..models.task_summary import TaskSummary
    from ..models.transfer_error import TransferError


T = TypeVar("T", bound="TaskCompletionData")


@_attrs_define
class TaskCompletionData:
    """The completion handler's arguments: `{"task", "response", "error", "data"}` for data and upload
    tasks (`dataLocation` too when the body is not inline), `{"task", "response", "error", "location"}`
    for downloads.

        Attributes:
            task (TaskSummary): The task fields carried by every task event.
            response (None | Response):
            error (None | TransferError):
            data (None | str | Unset): Data and upload tasks, the body as base64; null when there is none or it is larger
                than the configured limit.
            data_location (str | Unset): Data and upload tasks whose body is not inline, `/v1/tasks/{id}/data`.
            location (None | str | Unset): Downloads, the `/v1/tasks/{id}/file` path of the file; null when there is none.
    """

    task: TaskSummary
    response: None | Response
    error: None | TransferError
    data: None | str | Unset = UNSET
    data_location: str | Unset = UNSET
    location: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.response import Response
        from ..models.transfer_error import TransferError

        task = self.task.to_dict()

        response: dict[str, Any] | None
        if isinstance(self.response, Response):
            response = self.response.to_dict()
        else:
            response = self.response

        error: dict[str, Any] | None
        if isinstance(self.error, TransferError):
            error = self.error.to_dict()
        else:
            error = self.error

        data: None | str | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        else:
            data = self.data

        data_location = self.data_location

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "task": task,
                "response": response,
                "error": error,
            }
        )
        if data is not UNSET:
            field_dict["data"] = data
        if data_location is not UNSET:
            field_dict["dataLocation"] = data_location
        if location is not UNSET:
            field_dict["location"] = location

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.response import Response
        from ..models.task_summary import TaskSummary
        from ..models.transfer_error import TransferError

        d = dict(src_dict)
        task = TaskSummary.from_dict(d.pop("task"))

        def _parse_response(data: object) -> None | Response:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_type_0 = Response.from_dict(data)

                return response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Response, data)

        response = _parse_response(d.pop("response"))

        def _parse_error(data: object) -> None | TransferError:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = TransferError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransferError, data)

        error = _parse_error(d.pop("error"))

        def _parse_data(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        data = _parse_data(d.pop("data", UNSET))

        data_location = d.pop("dataLocation", UNSET)

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        task_completion_data = cls(
            task=task,
            response=response,
            error=error,
            data=data,
            data_location=data_location,
            location=location,
        )

        task_completion_data.additional_properties = d
        return task_completion_data

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
