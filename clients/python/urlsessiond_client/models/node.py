from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.node_state import NodeState
from ..types import UNSET, Unset

T = TypeVar("T", bound="Node")


@_attrs_define
class Node:
    """
    Attributes:
        id (str): `URLSESSIOND_NODE_ID`; by default the host name and a digest of the data directory.
        state (NodeState):
        is_this_node (bool):
        active_tasks (int):
        maximum_transfers (int):
        claimed_tasks (int):
        started_at (datetime.datetime | Unset):
        heartbeat_at (datetime.datetime | Unset):
        stopped_at (datetime.datetime | Unset):
    """

    id: str
    state: NodeState
    is_this_node: bool
    active_tasks: int
    maximum_transfers: int
    claimed_tasks: int
    started_at: datetime.datetime | Unset = UNSET
    heartbeat_at: datetime.datetime | Unset = UNSET
    stopped_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        state = self.state.value

        is_this_node = self.is_this_node

        active_tasks = self.active_tasks

        maximum_transfers = self.maximum_transfers

        claimed_tasks = self.claimed_tasks

        started_at: str | Unset = UNSET
        if not isinstance(self.started_at, Unset):
            started_at = self.started_at.isoformat()

        heartbeat_at: str | Unset = UNSET
        if not isinstance(self.heartbeat_at, Unset):
            heartbeat_at = self.heartbeat_at.isoformat()

        stopped_at: str | Unset = UNSET
        if not isinstance(self.stopped_at, Unset):
            stopped_at = self.stopped_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "state": state,
                "isThisNode": is_this_node,
                "activeTasks": active_tasks,
                "maximumTransfers": maximum_transfers,
                "claimedTasks": claimed_tasks,
            }
        )
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at
        if heartbeat_at is not UNSET:
            field_dict["heartbeatAt"] = heartbeat_at
        if stopped_at is not UNSET:
            field_dict["stoppedAt"] = stopped_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        state = NodeState(d.pop("state"))

        is_this_node = d.pop("isThisNode")

        active_tasks = d.pop("activeTasks")

        maximum_transfers = d.pop("maximumTransfers")

        claimed_tasks = d.pop("claimedTasks")

        _started_at = d.pop("startedAt", UNSET)
        started_at: datetime.datetime | Unset
        if isinstance(_started_at, Unset):
            started_at = UNSET
        else:
            started_at = datetime.datetime.fromisoformat(_started_at)

        _heartbeat_at = d.pop("heartbeatAt", UNSET)
        heartbeat_at: datetime.datetime | Unset
        if isinstance(_heartbeat_at, Unset):
            heartbeat_at = UNSET
        else:
            heartbeat_at = datetime.datetime.fromisoformat(_heartbeat_at)

        _stopped_at = d.pop("stoppedAt", UNSET)
        stopped_at: datetime.datetime | Unset
        if isinstance(_stopped_at, Unset):
            stopped_at = UNSET
        else:
            stopped_at = datetime.datetime.fromisoformat(_stopped_at)

        node = cls(
            id=id,
            state=state,
            is_this_node=is_this_node,
            active_tasks=active_tasks,
            maximum_transfers=maximum_transfers,
            claimed_tasks=claimed_tasks,
            started_at=started_at,
            heartbeat_at=heartbeat_at,
            stopped_at=stopped_at,
        )

        return node
