from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.network_type import NetworkType

T = TypeVar("T", bound="Network")


@_attrs_define
class Network:
    """A network path of the server configuration, its flags and its state.

    Attributes:
        name (str):
        type_ (NetworkType): The interface type (`NWInterface.InterfaceType`); `cellular` paths need
            `allowsCellularAccess`.
        interface (None | str): The interface its connections are bound to (`CURLOPT_INTERFACE` `if!NAME`); null for the
            others.
        source_address (None | str): The local address its connections are bound to, for a path configured by address;
            null otherwise.
        expensive (bool): Usable only with `allowsExpensiveNetworkAccess` (always true for cellular).
        constrained (bool): Usable only with `allowsConstrainedNetworkAccess`.
        proxy (None | str): The path's own proxy (its system proxy), a password in it masked; null for none.
        preference (int): Lower is preferred.
        available (bool): Usable now (the admin override when set
        link_up (bool): The automatic state: the interface is up and has an address (always true for the default route).
        admin_override (bool | None): The admin's override; null when none is set.
        changes (int): How many times `available` changed since the service started.
    """

    name: str
    type_: NetworkType
    interface: None | str
    source_address: None | str
    expensive: bool
    constrained: bool
    proxy: None | str
    preference: int
    available: bool
    link_up: bool
    admin_override: bool | None
    changes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        interface: None | str
        interface = self.interface

        source_address: None | str
        source_address = self.source_address

        expensive = self.expensive

        constrained = self.constrained

        proxy: None | str
        proxy = self.proxy

        preference = self.preference

        available = self.available

        link_up = self.link_up

        admin_override: bool | None
        admin_override = self.admin_override

        changes = self.changes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
                "interface": interface,
                "sourceAddress": source_address,
                "expensive": expensive,
                "constrained": constrained,
                "proxy": proxy,
                "preference": preference,
                "available": available,
                "linkUp": link_up,
                "adminOverride": admin_override,
                "changes": changes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = NetworkType(d.pop("type"))

        def _parse_interface(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        interface = _parse_interface(d.pop("interface"))

        def _parse_source_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_address = _parse_source_address(d.pop("sourceAddress"))

        expensive = d.pop("expensive")

        constrained = d.pop("constrained")

        def _parse_proxy(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        proxy = _parse_proxy(d.pop("proxy"))

        preference = d.pop("preference")

        available = d.pop("available")

        link_up = d.pop("linkUp")

        def _parse_admin_override(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        admin_override = _parse_admin_override(d.pop("adminOverride"))

        changes = d.pop("changes")

        network = cls(
            name=name,
            type_=type_,
            interface=interface,
            source_address=source_address,
            expensive=expensive,
            constrained=constrained,
            proxy=proxy,
            preference=preference,
            available=available,
            link_up=link_up,
            admin_override=admin_override,
            changes=changes,
        )

        network.additional_properties = d
        return network

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
