"""The typed way in: ``SvcPostal(api_key, base_url).mailings.create(...)`` returns the ``Shipment``
and raises ``ApiError`` for any error answer, rather than the generated functions' ``Error | X | None``.
Each method is one generated operation (``svc_postal.generated.api``); the others stay reachable
with ``client.http``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar
from uuid import UUID

from .client import create_client
from .errors import ApiError
from .generated.api.letters import get_letter, render_letter
from .generated.api.mailings import (
    advance_test_mailing,
    cancel_mailing,
    create_mailing,
    erase_mailing,
    get_mailing,
    list_mailings,
    quote_mailing,
)
from .generated.client import AuthenticatedClient
from .generated.models import (
    LetterDetail,
    LetterRender,
    LetterRenderRequest,
    ListMailingsStatus,
    MailingQuote,
    MailingRequest,
    Shipment,
    ShipmentList,
    V1TestAdvance,
    V1TestAdvanceStatus,
    WebhookEvent,
)
from .generated.types import UNSET, Response, Unset
from .webhooks import parse_webhook, verify_webhook_signature

_Answer = TypeVar("_Answer")


def _answer(response: Response[Any], expected: type[_Answer]) -> _Answer:
    """The parsed success body. The transport has already raised ApiError for a 4xx or 5xx; what is
    left (a 2xx or 3xx this version of the SDK does not know) is an ApiError too, never None."""
    if isinstance(response.parsed, expected):
        return response.parsed
    status = int(response.status_code)
    text = response.content[:200].decode("utf-8", "replace")
    raise ApiError(status, f"http_{status}", text or f"HTTP {status}", None, response.headers.get("request-id"))


def _key(idempotency_key: str | None) -> str | Unset:
    return UNSET if idempotency_key is None else idempotency_key


def _or_unset(value: Any) -> Any:
    return UNSET if value is None else value


class Mailings:
    """``/v1/mailings``: post, quote, read, list, cancel, erase, and advance a test mailing."""

    def __init__(self, http: AuthenticatedClient) -> None:
        self._http = http

    def create(self, request: MailingRequest | Mapping[str, Any], *, idempotency_key: str | None = None) -> Shipment:
        """Posts a letter (``POST /v1/mailings``). ``request`` is a ``MailingRequest`` or its JSON
        form (camelCase keys, as in the API's documentation): a key the API does not know raises
        ``UnknownKeyError`` before anything is sent. A test key's mailing is ``paid`` at once and
        never posted; ``sendAt`` defers the filing. Without ``idempotency_key`` one is made and
        reused by the retries."""
        body = request if isinstance(request, MailingRequest) else MailingRequest.from_dict(request)
        response = create_mailing.sync_detailed(client=self._http, body=body, idempotency_key=_key(idempotency_key))
        return _answer(response, Shipment)

    def quote(self, request: MailingRequest | Mapping[str, Any], *, idempotency_key: str | None = None) -> MailingQuote:
        """What ``create`` would charge, after the same checks, with nothing created or charged."""
        body = request if isinstance(request, MailingRequest) else MailingRequest.from_dict(request)
        response = quote_mailing.sync_detailed(client=self._http, body=body, idempotency_key=_key(idempotency_key))
        return _answer(response, MailingQuote)

    def get(self, mailing_id: UUID | str) -> Shipment:
        """One mailing (``GET /v1/mailings/{id}``); an unknown id raises ApiError ``not_found``."""
        return _answer(get_mailing.sync_detailed(UUID(str(mailing_id)), client=self._http), Shipment)

    def list(
        self,
        *,
        limit: int = 20,
        cursor: str | None = None,
        reference: str | None = None,
        status: ListMailingsStatus | None = None,
        batch: UUID | None = None,
    ) -> ShipmentList:
        """One page, most recent first; pass its ``next_cursor`` as ``cursor`` for the next (or use ``iterate``)."""
        response = list_mailings.sync_detailed(
            client=self._http,
            limit=limit,
            cursor=_or_unset(cursor),
            reference=_or_unset(reference),
            status=_or_unset(status),
            batch=_or_unset(batch),
        )
        return _answer(response, ShipmentList)

    def iterate(
        self,
        *,
        limit: int = 100,
        reference: str | None = None,
        status: ListMailingsStatus | None = None,
        batch: UUID | None = None,
    ) -> Iterator[Shipment]:
        """Every mailing, page after page (``limit`` a page), most recent first; stop early with ``break``."""
        cursor: str | None = None
        while True:
            page = self.list(limit=limit, cursor=cursor, reference=reference, status=status, batch=batch)
            yield from page.data
            if not page.has_more or not isinstance(page.next_cursor, str):
                return
            cursor = page.next_cursor

    def cancel(self, mailing_id: UUID | str, *, idempotency_key: str | None = None) -> Shipment:
        """Cancels a mailing not yet filed with the postal operator (else ApiError ``conflict``)."""
        response = cancel_mailing.sync_detailed(
            UUID(str(mailing_id)), client=self._http, idempotency_key=_key(idempotency_key)
        )
        return _answer(response, Shipment)

    def erase(self, mailing_id: UUID | str, *, idempotency_key: str | None = None) -> Shipment:
        """Erases a final mailing's personal data (recipient, letter, PDFs, proofs' PDFs); its amount,
        history and hashes stay (else ApiError ``mailing_not_final``)."""
        response = erase_mailing.sync_detailed(
            UUID(str(mailing_id)), client=self._http, idempotency_key=_key(idempotency_key)
        )
        return _answer(response, Shipment)

    def advance(
        self,
        mailing_id: UUID | str,
        *,
        step: int | None = None,
        status: V1TestAdvanceStatus | None = None,
        idempotency_key: str | None = None,
    ) -> Shipment:
        """Test keys and test mailings only: moves a test mailing to its next step, to ``step``, or
        to ``status`` (``returned`` or ``error``), sending the webhooks production would."""
        body = V1TestAdvance(step=_or_unset(step), status=_or_unset(status))
        response = advance_test_mailing.sync_detailed(
            UUID(str(mailing_id)), client=self._http, body=body, idempotency_key=_key(idempotency_key)
        )
        return _answer(response, Shipment)


class Letters:
    """``/v1/letters``: a catalogue letter's details and its rendering."""

    def __init__(self, http: AuthenticatedClient) -> None:
        self._http = http

    def get(self, slug: str, *, provider: str | None = None) -> LetterDetail:
        """A catalogue letter: its legal basis, providers and fields (a provider's exact fields with ``provider``)."""
        return _answer(get_letter.sync_detailed(slug, client=self._http, provider=_or_unset(provider)), LetterDetail)

    def render(
        self,
        slug: str,
        request: LetterRenderRequest | Mapping[str, Any] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> LetterRender:
        """The letter's text with ``request``'s field values (``{"fields": {...}, "provider": ...}``):
        its segments, plain text and the required fields still missing; an invalid value raises
        ApiError (422). A key the API does not know raises ``UnknownKeyError``."""
        body: LetterRenderRequest | Unset
        if request is None:
            body = UNSET
        else:
            body = request if isinstance(request, LetterRenderRequest) else LetterRenderRequest.from_dict(request)
        response = render_letter.sync_detailed(
            slug, client=self._http, body=body, idempotency_key=_key(idempotency_key)
        )
        return _answer(response, LetterRender)


class Webhooks:
    """Webhook signatures, checked with the endpoint's secret (or the new and old ones during a rotation)."""

    def __init__(self, secrets: str | list[str] | None) -> None:
        self._secrets = secrets

    def _secrets_or(self, secrets: str | list[str] | None) -> str | list[str]:
        chosen = secrets if secrets is not None else self._secrets
        if chosen is None:
            raise ValueError("No webhook secret: pass webhook_secrets= to SvcPostal or secrets= here")
        return chosen

    def verify(self, raw_body: bytes | str, signature: str | None, *, secrets: str | list[str] | None = None) -> bool:
        """Whether ``raw_body`` (the bytes received) carries a valid ``Service-Signature`` of under five minutes."""
        return verify_webhook_signature(raw_body, signature, self._secrets_or(secrets))

    def parse(
        self, raw_body: bytes | str, signature: str | None, *, secrets: str | list[str] | None = None
    ) -> WebhookEvent:
        """The verified event, or ``WebhookSignatureError``."""
        return parse_webhook(raw_body, signature, self._secrets_or(secrets))


class SvcPostal:
    """The API's client: ``mailings``, ``letters`` and ``webhooks``, typed answers, ``ApiError`` for
    any error answer after the safe retries of ``create_client`` (same arguments). ``http`` is the
    client of the generated operations (``svc_postal.generated.api``) for the rest of the API."""

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        webhook_secrets: str | list[str] | None = None,
        max_attempts: int = 4,
        max_delay: float = 30.0,
        base_delay: float = 0.5,
        timeout: float = 30.0,
    ) -> None:
        self.http = create_client(
            api_key, base_url, max_attempts=max_attempts, max_delay=max_delay, base_delay=base_delay, timeout=timeout
        )
        self.mailings = Mailings(self.http)
        self.letters = Letters(self.http)
        self.webhooks = Webhooks(webhook_secrets)
