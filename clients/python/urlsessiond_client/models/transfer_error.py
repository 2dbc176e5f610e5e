from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.transfer_error_domain import TransferErrorDomain

if TYPE_CHECKING:
    from ..models.transfer_error_user_info import TransferErrorUserInfo
    from ..models.underlying_error import UnderlyingError


T = TypeVar("T", bound="TransferError")


@_attrs_define
class TransferError:
    """An NSError in `NSURLErrorDomain`: how a task that failed completes (`task.didCompleteWithError`,
    the task's `error`). `code` is Apple's (NSURLError.h) and `name` the Swift `URLError.Code` case:

    | code | name |
    |---|---|
    | -999 | cancelled |
    | -1000 | badURL |
    | -1001 | timedOut |
    | -1002 | unsupportedURL |
    | -1003 | cannotFindHost |
    | -1004 | cannotConnectToHost |
    | -1005 | networkConnectionLost |
    | -1007 | httpTooManyRedirects |
    | -1009 | notConnectedToInternet |
    | -1011 | badServerResponse |
    | -1012 | userCancelledAuthentication |
    | -1013 | userAuthenticationRequired |
    | -1014 | zeroByteResource |
    | -1016 | cannotDecodeContentData |
    | -1103 | dataLengthExceedsMaximum (a body past `URLSESSIOND_MAX_DOWNLOAD_SIZE`; no bytes or resume data are kept) |
    | -1200 | secureConnectionFailed |
    | -1201 | serverCertificateHasBadDate (expired) |
    | -1202 | serverCertificateUntrusted (a self-signed certificate, another host's name, a key no pin or accepted trust
    matches, a revoked or badly signed certificate) |
    | -1203 | serverCertificateHasUnknownRoot (a chain that ends at, or lacks, a root the trust store does not hold) |
    | -1204 | serverCertificateNotYetValid |
    | -1205 | clientCertificateRejected |
    | -1206 | clientCertificateRequired |
    | -2000 | cannotLoadFromNetwork |
    | -3000 | cannotCreateFile |
    | -3001 | cannotOpenFile |
    | -3002 | cannotCloseFile |
    | -3003 | cannotWriteToFile |
    | -3004 | cannotRemoveFile |
    | -3005 | cannotMoveFile |
    | -3006 | downloadDecodingFailedMidStream |
    | -3007 | downloadDecodingFailedToComplete |

    A request the egress policy forbids fails with -1004 and `userInfo.reason = "egressPolicy"`,
    without ever reaching the forbidden address; the error's message names the range that matched and
    the `URLSESSIOND_EGRESS_ALLOW` value that would allow it. Every address a transfer connects to is checked;
    through a proxy, the target the proxy would reach is checked too (an address as written, a name
    by every address the service resolves it to), so an allowed proxy is no way around the policy.
    Cloud metadata services (169.254.169.254, 169.254.170.2, Azure's WireServer 168.63.129.16,
    100.100.100.200, 192.0.0.192, 169.254.0.23, fd00:ec2::254) are denied even inside an allowed
    range, unless `URLSESSIOND_EGRESS_ALLOW` lists the address itself. A body that does not match `expectedDigest` fails
    with -1011 and `userInfo.reason = "digestMismatch"`. No usable network path without
    `waitsForConnectivity` fails with -1009 and `NSURLErrorNetworkUnavailableReasonKey`.

        Attributes:
            domain (TransferErrorDomain): `NSURLErrorDomain`, or `NSPOSIXErrorDomain` for the one failure URLSession reports
                so: a WebSocket message over `maximumMessageSize` (code 40, `EMSGSIZE`).
            code (int): An NSURLError code (at most -999), or 40 in `NSPOSIXErrorDomain`.
            name (str): The `URLError.Code` case name (see the table).
            localized_description (str):
            user_info (TransferErrorUserInfo): The error's `userInfo` with its string keys.
            underlying (None | UnderlyingError): The cause below URLSession (libcurl, the file system), for diagnosis; null
                when none.
    """

    domain: TransferErrorDomain
    code: int
    name: str
    localized_description: str
    user_info: TransferErrorUserInfo
    underlying: None | UnderlyingError
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.underlying_error import UnderlyingError

        domain = self.domain.value

        code = self.code

        name = self.name

        localized_description = self.localized_description

        user_info = self.user_info.to_dict()

        underlying: dict[str, Any] | None
        if isinstance(self.underlying, UnderlyingError):
            underlying = self.underlying.to_dict()
        else:
            underlying = self.underlying

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "domain": domain,
                "code": code,
                "name": name,
                "localizedDescription": localized_description,
                "userInfo": user_info,
                "underlying": underlying,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transfer_error_user_info import TransferErrorUserInfo
        from ..models.underlying_error import UnderlyingError

        d = dict(src_dict)
        domain = TransferErrorDomain(d.pop("domain"))

        code = d.pop("code")

        name = d.pop("name")

        localized_description = d.pop("localizedDescription")

        user_info = TransferErrorUserInfo.from_dict(d.pop("userInfo"))

        def _parse_underlying(data: object) -> None | UnderlyingError:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                underlying_type_0 = UnderlyingError.from_dict(data)

                return underlying_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UnderlyingError, data)

        underlying = _parse_underlying(d.pop("underlying"))

        transfer_error = cls(
            domain=domain,
            code=code,
            name=name,
            localized_description=localized_description,
            user_info=user_info,
            underlying=underlying,
        )

        transfer_error.additional_properties = d
        return transfer_error

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
