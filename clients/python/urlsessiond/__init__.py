"""What the generated client (`urlsessiond_client`) does not do well, written by hand: following a
session's events as server-sent events, waiting for a task to complete, and verifying a webhook."""

from .events import follow_events
from .tasks import TaskWaitTimeout, wait_for_task
from .webhooks import verify_webhook

__all__ = ["TaskWaitTimeout", "follow_events", "verify_webhook", "wait_for_task"]
