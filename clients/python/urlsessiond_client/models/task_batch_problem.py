from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.problem import Problem


T = TypeVar("T", bound="TaskBatchProblem")


@_attrs_define
class TaskBatchProblem:
    """A refused member: the problem its own create would have answered, `field` relative to the member.

    Attributes:
        problem (Problem): An RFC 9457 problem, the only error body of the API. `type` is
            `urn:urlsessiond:problem:<slug>`
            (the slugs are listed in the API description).
    """

    problem: Problem

    def to_dict(self) -> dict[str, Any]:
        problem = self.problem.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "problem": problem,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.problem import Problem

        d = dict(src_dict)
        problem = Problem.from_dict(d.pop("problem"))

        task_batch_problem = cls(
            problem=problem,
        )

        return task_batch_problem
