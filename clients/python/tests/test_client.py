"""The Python client against the real service: a session, a data task on the fixture origin, its events
by polling and as server-sent events, and a webhook verified with the session's secret."""

import base64
import json
import os

import pytest
from standardwebhooks.webhooks import WebhookVerificationError

from urlsessiond import follow_events, verify_webhook, wait_for_task
from urlsessiond_client.api.events import answer_decision, list_session_events
from urlsessiond_client.api.sessions import create_session, finish_tasks_and_invalidate
from urlsessiond_client.api.tasks import create_task, create_task_batch, get_task_data
from urlsessiond_client.models import (
    DecisionEventType,
    DelegateInput,
    EventList,
    EventType,
    RedirectionDecision,
    RedirectionDecisionDisposition,
    Request,
    Session,
    SessionCreateRequest,
    Task,
    TaskBatchProblem,
    TaskBatchRequest,
    TaskBatchResponse,
    TaskCreateRequest,
    TaskKind,
    TaskState,
)
from urlsessiond_client.types import UNSET, File


def run_data_task(client, session_id: str, url: str) -> Task:
    created = create_task.sync(
        session_id, client=client, body=TaskCreateRequest(kind=TaskKind.DATA, request=Request(url=url), resume=True)
    )
    assert isinstance(created, Task), created
    return wait_for_task(client, created.id, timeout=30)


def test_a_data_task_completes_and_its_body_is_read(client, origin):
    session = create_session.sync(client=client, body=SessionCreateRequest(session_description="python client"))
    assert isinstance(session, Session), session
    task = run_data_task(client, session.id, f"{origin}/echo?from=python")
    assert task.state == TaskState.COMPLETED
    assert task.error is None
    assert task.response.status_code == 200
    body = get_task_data.sync(task.id, client=client)
    assert isinstance(body, File), body
    echoed = json.loads(body.payload.read())
    assert echoed["method"] == "GET" and echoed["path"].startswith("/echo"), echoed


def test_events_are_the_same_polled_and_streamed(client, origin):
    session = create_session.sync(client=client, body=SessionCreateRequest())
    assert isinstance(session, Session), session
    task = run_data_task(client, session.id, f"{origin}/bytes/1000?seed=7")
    assert task.count_of_bytes_received == 1000

    page = list_session_events.sync(session.id, client=client)
    assert isinstance(page, EventList), page
    assert [event.sequence for event in page.items] == list(range(1, len(page.items) + 1))
    types = [event.type_ for event in page.items]
    for expected in (
        EventType.TASK_DIDCREATETASK,
        EventType.DATATASK_DIDRECEIVERESPONSE,
        EventType.TASK_DIDCOMPLETEWITHERROR,
    ):
        assert expected in types, types

    # The stream replays the stored events, then follows; from the middle (`after`) too.
    streamed = []
    for event in follow_events(client, session.id):
        streamed.append(event)
        if event.type_ == EventType.TASK_DIDCOMPLETEWITHERROR:
            break
    completed = types.index(EventType.TASK_DIDCOMPLETEWITHERROR)
    assert [event.id for event in streamed] == [event.id for event in page.items[: completed + 1]]
    later = next(follow_events(client, session.id, after=2))
    assert later.sequence == 3 and later.id == page.items[2].id


def test_the_stream_follows_the_session_to_its_end(client, origin):
    session = create_session.sync(client=client, body=SessionCreateRequest())
    assert isinstance(session, Session), session
    run_data_task(client, session.id, f"{origin}/bytes/10")
    invalidated = finish_tasks_and_invalidate.sync(session.id, client=client)
    assert isinstance(invalidated, Session), invalidated
    # The stream ends after the session's last event; the reconnect (`Last-Event-ID`) is answered 204,
    # which ends the iteration.
    events = list(follow_events(client, session.id, reconnect_delay=0.1))
    assert events[-1].type_ == EventType.SESSION_DIDBECOMEINVALIDWITHERROR, [event.type_ for event in events]
    assert [event.sequence for event in events] == list(range(1, len(events) + 1))


def test_a_webhook_the_service_posts_verifies_with_the_session_secret(client, origin, receiver):
    secret = "whsec_" + base64.b64encode(os.urandom(32)).decode()
    delegate = DelegateInput(url=receiver.url, secret=secret, events=[EventType.TASK_DIDCOMPLETEWITHERROR])
    session = create_session.sync(client=client, body=SessionCreateRequest(delegate=delegate))
    assert isinstance(session, Session), session
    task = run_data_task(client, session.id, f"{origin}/bytes/100")

    delivery = receiver.next(timeout=30)
    event = verify_webhook(secret, delivery.body, delivery.headers)
    assert event.type_ == EventType.TASK_DIDCOMPLETEWITHERROR
    assert event.task_id == task.id and event.session_id == session.id
    assert delivery.headers["webhook-id"] == event.id

    other = "whsec_" + base64.b64encode(os.urandom(32)).decode()
    with pytest.raises(WebhookVerificationError):
        verify_webhook(other, delivery.body, delivery.headers)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(secret, delivery.body.replace(b"didComplete", b"didKomplete"), delivery.headers)


def test_a_batch_answers_an_invalid_member_in_its_slot(client, origin):
    session = create_session.sync(client=client, body=SessionCreateRequest())
    assert isinstance(session, Session), session
    valid = TaskCreateRequest(kind=TaskKind.DATA, request=Request(url=f"{origin}/bytes/10"), resume=True)
    # A member is any JSON value (`TaskBatchMember`): the service, not the schema, refuses this one.
    answer = create_task_batch.sync(
        session.id, client=client, body=TaskBatchRequest(tasks=[valid.to_dict(), {"kind": "data", "colour": "red"}])
    )
    assert isinstance(answer, TaskBatchResponse), answer
    created, refused = answer.items
    assert isinstance(created, Task) and isinstance(refused, TaskBatchProblem), answer.items
    assert refused.problem.field == "colour" and refused.problem.status == 400, refused.problem
    assert wait_for_task(client, created.id, timeout=30).error is None


def test_a_delegate_in_the_client_answers_a_redirect(client, origin):
    """A delegate without `url` lives in this process: it reads the decision event from the stream and
    answers it with `answer_decision`, as `urlSession(_:task:willPerformHTTPRedirection:newRequest:)` returns
    nil — so the 3xx is the task's response."""
    session = create_session.sync(
        client=client,
        body=SessionCreateRequest(
            delegate=DelegateInput(decisions=[DecisionEventType.TASK_WILLPERFORMHTTPREDIRECTION], decision_timeout=20)
        ),
    )
    assert isinstance(session, Session), session
    assert session.delegate.url is None and session.delegate.secret in (None, UNSET)
    created = create_task.sync(
        session.id,
        client=client,
        body=TaskCreateRequest(kind=TaskKind.DATA, request=Request(url=f"{origin}/redirect/302"), resume=True),
    )
    assert isinstance(created, Task), created
    for event in follow_events(client, session.id):
        if event.type_ == EventType.TASK_WILLPERFORMHTTPREDIRECTION:
            answer = RedirectionDecision(disposition=RedirectionDecisionDisposition.REJECT)
            answered = answer_decision.sync_detailed(session.id, event.id, client=client, body=answer)
            assert answered.status_code == 204, answered.content
            break
    task = wait_for_task(client, created.id, timeout=30)
    assert task.error is None
    assert task.response.status_code == 302
    # Answered once: a second answer finds nobody waiting.
    again = answer_decision.sync_detailed(
        session.id, event.id, client=client, body=RedirectionDecision(disposition=RedirectionDecisionDisposition.FOLLOW)
    )
    assert again.status_code == 409
