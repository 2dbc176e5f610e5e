from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.transfer_error_user_info_nsurl_error_network_unavailable_reason_key import (
    TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey,
)
from ..models.transfer_error_user_info_reason import TransferErrorUserInfoReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="TransferErrorUserInfo")


@_attrs_define
class TransferErrorUserInfo:
    """The error's `userInfo` with its string keys.

    Attributes:
        ns_error_failing_url_string_key (str | Unset):
        nsurl_session_download_task_resume_data (str | Unset): Download tasks that can be resumed, for
            `downloadTask(withResumeData:)`.
        nsurl_error_network_unavailable_reason_key (TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey | Unset):
            Why no network path was usable (`NSURLErrorNetworkUnavailableReason`).
        reason (TransferErrorUserInfoReason | Unset): The service's own cause, when URLSession has no key for it:
            `egressPolicy` (-1004, the
            address is forbidden), `digestMismatch` (-1011, `expectedDigest`), `serviceRestarted` (-1005,
            running when the service stopped), `networkPathLost` (-1005 or -1009, its network path went
            down), `timeoutIntervalForResource` (-1001 while waiting for connectivity), `blobMissing`
            (-1100, the upload's blob is gone), `resumeDataInvalid` (-3003), `outsideFileRoot` and
            `fileWriteRefused` (`file:` URLs), `bodyStreamFailed` (-1021, the client left a streamed
            upload mid-body), `needNewBodyStream` (-1021, a redirect needed a streamed body that was
            already read), `webSocketHandshake`, `webSocketProtocol` and `maximumMessageSize` (webSocket
            tasks), `mirrorRefused` (-1011, the last of a download's mirrors answered with an error status, a
            length other than the others' or `expectedLength`, or not the range asked for) and
            `metalinkInvalid` (-1017, a `metalink.url` document that is not a Metalink 4 document the
            service reads, or not answered with 200).
    """

    ns_error_failing_url_string_key: str | Unset = UNSET
    nsurl_session_download_task_resume_data: str | Unset = UNSET
    nsurl_error_network_unavailable_reason_key: TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey | Unset = (
        UNSET
    )
    reason: TransferErrorUserInfoReason | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ns_error_failing_url_string_key = self.ns_error_failing_url_string_key

        nsurl_session_download_task_resume_data = self.nsurl_session_download_task_resume_data

        nsurl_error_network_unavailable_reason_key: str | Unset = UNSET
        if not isinstance(self.nsurl_error_network_unavailable_reason_key, Unset):
            nsurl_error_network_unavailable_reason_key = self.nsurl_error_network_unavailable_reason_key.value

        reason: str | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if ns_error_failing_url_string_key is not UNSET:
            field_dict["NSErrorFailingURLStringKey"] = ns_error_failing_url_string_key
        if nsurl_session_download_task_resume_data is not UNSET:
            field_dict["NSURLSessionDownloadTaskResumeData"] = nsurl_session_download_task_resume_data
        if nsurl_error_network_unavailable_reason_key is not UNSET:
            field_dict["NSURLErrorNetworkUnavailableReasonKey"] = nsurl_error_network_unavailable_reason_key
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ns_error_failing_url_string_key = d.pop("NSErrorFailingURLStringKey", UNSET)

        nsurl_session_download_task_resume_data = d.pop("NSURLSessionDownloadTaskResumeData", UNSET)

        _nsurl_error_network_unavailable_reason_key = d.pop("NSURLErrorNetworkUnavailableReasonKey", UNSET)
        nsurl_error_network_unavailable_reason_key: TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey | Unset
        if isinstance(_nsurl_error_network_unavailable_reason_key, Unset):
            nsurl_error_network_unavailable_reason_key = UNSET
        else:
            nsurl_error_network_unavailable_reason_key = TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey(
                _nsurl_error_network_unavailable_reason_key
            )

        _reason = d.pop("reason", UNSET)
        reason: TransferErrorUserInfoReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = TransferErrorUserInfoReason(_reason)

        transfer_error_user_info = cls(
            ns_error_failing_url_string_key=ns_error_failing_url_string_key,
            nsurl_session_download_task_resume_data=nsurl_session_download_task_resume_data,
            nsurl_error_network_unavailable_reason_key=nsurl_error_network_unavailable_reason_key,
            reason=reason,
        )

        transfer_error_user_info.additional_properties = d
        return transfer_error_user_info

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
