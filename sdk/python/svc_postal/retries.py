"""httpx transports that make every POST idempotent and retry what is safe to retry."""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
import uuid
from dataclasses import dataclass

import httpx

from .errors import ApiError

_RETRIED_STATUSES = {409, 429, 503}


@dataclass(frozen=True)
class RetryPolicy:
    """Attempts in all (the first included); the longest wait, to which a longer ``Retry-After`` is cut;
    the wait without ``Retry-After``, doubled at each attempt. Seconds."""

    max_attempts: int = 4
    max_delay: float = 30.0
    base_delay: float = 0.5

    def backoff(self, attempt: int) -> float:
        return min(self.max_delay, self.base_delay * 2.0 ** (attempt - 1))

    def wait(self, attempt: int, response: httpx.Response) -> float:
        after = retry_after_seconds(response.headers.get("retry-after"))
        return min(self.max_delay, self.backoff(attempt) if after is None else after)


def retry_after_seconds(header: str | None, now: float | None = None) -> float | None:
    """The wait ``Retry-After`` asks for (seconds or an HTTP date), or None."""
    if not header:
        return None
    header = header.strip()
    if header.isdigit():
        return float(header)
    try:
        at = email.utils.parsedate_to_datetime(header).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))


def _prepare(request: httpx.Request) -> None:
    # The same key on every attempt: the API replays the first answer rather than acting twice.
    if request.method == "POST" and "idempotency-key" not in request.headers:
        request.headers["Idempotency-Key"] = str(uuid.uuid4())


def _is_retried(response: httpx.Response) -> bool:
    if response.status_code not in _RETRIED_STATUSES:
        return False
    if response.status_code != 409:
        return True
    # Only the 409 that says the same request is still running; `conflict` is final.
    try:
        return bool(json.loads(response.content)["error"]["code"] == "idempotency_in_progress")
    except (ValueError, KeyError, TypeError):
        return False


def _final(response: httpx.Response) -> httpx.Response:
    if response.status_code >= 400:
        raise ApiError.from_response(response)
    return response


class RetryingTransport(httpx.BaseTransport):
    """Gives every POST an ``Idempotency-Key`` (unless set) and retries, with that same key,
    network errors, 409 ``idempotency_in_progress``, 429 and 503 (honouring ``Retry-After``), a
    bounded number of times; then raises an ApiError for any answer that is not 2xx."""

    def __init__(self, policy: RetryPolicy | None = None, inner: httpx.BaseTransport | None = None) -> None:
        self.policy = policy or RetryPolicy()
        self.inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        _prepare(request)
        request.read()
        attempt = 1
        while True:
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:
                if attempt >= self.policy.max_attempts:
                    raise
                time.sleep(self.policy.backoff(attempt))
                attempt += 1
                continue
            if response.status_code >= 400:
                response.read()
                response.close()
            if attempt >= self.policy.max_attempts or not _is_retried(response):
                return _final(response)
            time.sleep(self.policy.wait(attempt, response))
            attempt += 1

    def close(self) -> None:
        self.inner.close()


class AsyncRetryingTransport(httpx.AsyncBaseTransport):
    """RetryingTransport for the generated ``asyncio`` functions."""

    def __init__(self, policy: RetryPolicy | None = None, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.policy = policy or RetryPolicy()
        self.inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        _prepare(request)
        await request.aread()
        attempt = 1
        while True:
            try:
                response = await self.inner.handle_async_request(request)
            except httpx.TransportError:
                if attempt >= self.policy.max_attempts:
                    raise
                await asyncio.sleep(self.policy.backoff(attempt))
                attempt += 1
                continue
            if response.status_code >= 400:
                await response.aread()
                await response.aclose()
            if attempt >= self.policy.max_attempts or not _is_retried(response):
                return _final(response)
            await asyncio.sleep(self.policy.wait(attempt, response))
            attempt += 1

    async def aclose(self) -> None:
        await self.inner.aclose()
