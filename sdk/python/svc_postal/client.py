"""The client the generated operations take: authenticated, retrying safely, raising ApiError."""

from __future__ import annotations

import httpx

from .generated.client import AuthenticatedClient
from .retries import AsyncRetryingTransport, RetryingTransport, RetryPolicy


def create_client(
    api_key: str,
    base_url: str,
    *,
    max_attempts: int = 4,
    max_delay: float = 30.0,
    base_delay: float = 0.5,
    timeout: float = 30.0,
) -> AuthenticatedClient:
    """A client for ``svc_postal.generated.api`` (e.g. ``create_mailing.sync(client=client, body=...)``).

    ``api_key``: ``svc_test_…`` or ``svc_live_…``; ``base_url``: the API's origin, e.g.
    ``http://localhost:3000`` (paths start with /v1). Every POST gets an ``Idempotency-Key``;
    network errors, 409 ``idempotency_in_progress``, 429 and 503 are retried with it, at most
    ``max_attempts`` times in all; a 4xx or 5xx answer then raises ApiError, so a generated
    ``sync`` returns the success model (typed ``Error | X | None`` all the same: ``SvcPostal``'s
    methods are typed as what they return).
    """
    base_url = base_url.rstrip("/")
    policy = RetryPolicy(max_attempts=max_attempts, max_delay=max_delay, base_delay=base_delay)
    headers = {"Authorization": f"Bearer {api_key}"}
    client = AuthenticatedClient(base_url=base_url, token=api_key)
    client.set_httpx_client(
        httpx.Client(base_url=base_url, headers=headers, timeout=timeout, transport=RetryingTransport(policy))
    )
    client.set_async_httpx_client(
        httpx.AsyncClient(base_url=base_url, headers=headers, timeout=timeout, transport=AsyncRetryingTransport(policy))
    )
    return client
