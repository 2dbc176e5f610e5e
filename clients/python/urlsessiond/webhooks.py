"""Verifying a webhook the service POSTed (Standard Webhooks v1, with the `standardwebhooks` package)."""

from collections.abc import Mapping

from standardwebhooks.webhooks import Webhook

from urlsessiond_client.models import Event


def verify_webhook(secret: str, body: bytes, headers: Mapping[str, str]) -> Event:
    """The event of a delegate's webhook, once its `webhook-id`, `webhook-timestamp` (within five minutes)
    and `webhook-signature` headers prove the session's `whsec_…` secret signed `body`; raises
    `standardwebhooks.webhooks.WebhookVerificationError` otherwise. Verify the body as received, bytes
    unchanged, before parsing it."""
    payload = Webhook(secret).verify(body, dict(headers))
    return Event.from_dict(payload)
