from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="StreamUploadSource")


@_attrs_define
class StreamUploadSource:
    """`uploadTask(withStreamedRequest:)`: the body comes through `PUT /v1/tasks/{id}/body`.

    Attributes:
        stream (bool): The body comes through `PUT /v1/tasks/{id}/body` while the task runs, passed to the
            origin as it arrives (`countOfBytesExpectedToSend` is -1 until then). Refused in
            background sessions (422 `field: uploadSource.stream`), whose uploads come from files
            (a blob), as URLSession requires.
    """

    stream: bool

    def to_dict(self) -> dict[str, Any]:
        stream = self.stream

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "stream": stream,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        stream = d.pop("stream")

        stream_upload_source = cls(
            stream=stream,
        )

        return stream_upload_source
