"""Waiting for a task to complete (`GET /v1/tasks/{id}?wait=`, the long-poll)."""

import time
from urllib.parse import quote

import httpx

from urlsessiond_client import AuthenticatedClient
from urlsessiond_client.models import Task, TaskState


class TaskWaitTimeout(TimeoutError):
    """The task had not completed when the wait was up; `task` is how it was last seen."""

    def __init__(self, task: Task) -> None:
        super().__init__(f"task {task.id} is still {task.state.value}")
        self.task = task


def wait_for_task(client: AuthenticatedClient, task_id: str, *, timeout: float = 60.0) -> Task:
    """Returns the task once it is `completed` (its `error` says whether it succeeded), long-polling the
    service in turns of at most 30 s; raises `TaskWaitTimeout` when `timeout` seconds pass first."""
    http = client.get_httpx_client()
    path = f"/v1/tasks/{quote(task_id, safe='')}"
    deadline = time.monotonic() + timeout
    while True:
        wait = max(0.0, min(30.0, deadline - time.monotonic()))
        # The request's own timeout outlasts the wait the service holds it for.
        response = http.get(path, params={"wait": round(wait, 3)}, timeout=httpx.Timeout(wait + 10.0))
        response.raise_for_status()
        task = Task.from_dict(response.json())
        if task.state == TaskState.COMPLETED:
            return task
        if time.monotonic() >= deadline:
            raise TaskWaitTimeout(task)
