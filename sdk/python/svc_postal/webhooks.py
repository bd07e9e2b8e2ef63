"""Webhook signatures (docs/webhooks.md): HMAC-SHA256 of ``<t>.<raw body>``, keyed with the whole ``whsec_…`` secret."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time

from .generated.models.webhook_event import WebhookEvent

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class WebhookSignatureError(Exception):
    """No valid signature for any of the secrets, or signed too long ago."""


def verify_webhook_signature(
    raw_body: bytes | str,
    signature: str | None,
    secrets: str | list[str],
    *,
    tolerance_seconds: float = 300,
    now: float | None = None,
) -> bool:
    """Whether a webhook is ours: ``raw_body`` the exact bytes received (before any JSON parsing),
    ``signature`` the ``Service-Signature`` header, ``secrets`` the endpoint's secret or, during a
    rotation, the new and the old one (any ``v1`` matching any secret is enough), compared in
    constant time; ``t`` at most ``tolerance_seconds`` (five minutes) from now."""
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    parts = [part.split("=", 1) for part in (signature or "").split(",") if "=" in part]
    t = next((value.strip() for name, value in parts if name.strip() == "t"), "")
    if not t.isdigit():
        return False
    if abs((time.time() if now is None else now) - int(t)) > tolerance_seconds:
        return False
    given = [value.strip() for name, value in parts if name.strip() == "v1" and _HEX64.match(value.strip())]
    for secret in [secrets] if isinstance(secrets, str) else secrets:
        expected = hmac.new(secret.encode("utf-8"), t.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
        if any(hmac.compare_digest(expected, candidate) for candidate in given):
            return True
    return False


def parse_webhook(
    raw_body: bytes | str,
    signature: str | None,
    secrets: str | list[str],
    *,
    tolerance_seconds: float = 300,
    now: float | None = None,
) -> WebhookEvent:
    """The event of a verified webhook, or WebhookSignatureError."""
    if not verify_webhook_signature(raw_body, signature, secrets, tolerance_seconds=tolerance_seconds, now=now):
        raise WebhookSignatureError("Invalid or expired Service-Signature")
    return WebhookEvent.from_dict(json.loads(raw_body))
