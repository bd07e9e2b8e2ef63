"""The official Python SDK: the operations and models generated from the OpenAPI document
(``svc_postal.generated``, ``npm run sdk:generate`` at the repository's root), and a small
hand-written layer: the typed client (``SvcPostal``), safe retries, typed errors, pagination and
webhook signatures."""

from .client import create_client
from .errors import ApiError
from .generated.errors import UnknownKeyError
from .pagination import paginate
from .resources import Letters, Mailings, SvcPostal, Webhooks
from .retries import AsyncRetryingTransport, RetryingTransport, RetryPolicy, retry_after_seconds
from .webhooks import WebhookSignatureError, parse_webhook, verify_webhook_signature

__all__ = [
    "ApiError",
    "AsyncRetryingTransport",
    "Letters",
    "Mailings",
    "RetryPolicy",
    "RetryingTransport",
    "SvcPostal",
    "UnknownKeyError",
    "WebhookSignatureError",
    "Webhooks",
    "create_client",
    "paginate",
    "parse_webhook",
    "retry_after_seconds",
    "verify_webhook_signature",
]
