"""The API's error answers as exceptions (SPEC.md's ``{ error: { code, message, details? } }``)."""

from __future__ import annotations

import json
from typing import Any

import httpx


class ApiError(Exception):
    """An answer that is not 2xx, after the SDK's own retries.

    ``code`` is the error code (e.g. ``address_invalid``; a code added later arrives as is),
    ``details`` what that code's documentation says it carries, ``request_id`` the answer's
    ``Request-Id`` header, to quote to support.
    """

    def __init__(self, status: int, code: str, message: str, details: Any, request_id: str | None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.request_id = request_id

    def __repr__(self) -> str:
        fields = f"status={self.status}, code={self.code!r}, message={self.message!r}, request_id={self.request_id!r}"
        return f"ApiError({fields})"

    @classmethod
    def from_response(cls, response: httpx.Response) -> ApiError:
        """The error of a read answer; a body that is not the error object (a proxy's page) gives ``http_<status>``."""
        request_id = response.headers.get("request-id")
        try:
            error = json.loads(response.content).get("error")
        except (ValueError, AttributeError):
            error = None
        if isinstance(error, dict) and isinstance(error.get("code"), str):
            message = error.get("message")
            return cls(
                response.status_code,
                error["code"],
                message if isinstance(message, str) else error["code"],
                error.get("details"),
                request_id,
            )
        text = response.content[:200].decode("utf-8", "replace")
        return cls(
            response.status_code,
            f"http_{response.status_code}",
            text or f"HTTP {response.status_code}",
            None,
            request_id,
        )
