from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.node_list_backend import NodeListBackend
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.node import Node


T = TypeVar("T", bound="NodeList")


@_attrs_define
class NodeList:
    """
    Attributes:
        backend (NodeListBackend):
        node (str): The node that answered.
        items (list[Node]):
        lease_seconds (float | Unset): Absent on SQLite (one node, no leases).
    """

    backend: NodeListBackend
    node: str
    items: list[Node]
    lease_seconds: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        backend = self.backend.value

        node = self.node

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        lease_seconds = self.lease_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "backend": backend,
                "node": node,
                "items": items,
            }
        )
        if lease_seconds is not UNSET:
            field_dict["leaseSeconds"] = lease_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.node import Node

        d = dict(src_dict)
        backend = NodeListBackend(d.pop("backend"))

        node = d.pop("node")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = Node.from_dict(items_item_data)

            items.append(items_item)

        lease_seconds = d.pop("leaseSeconds", UNSET)

        node_list = cls(
            backend=backend,
            node=node,
            items=items,
            lease_seconds=lease_seconds,
        )

        return node_list
