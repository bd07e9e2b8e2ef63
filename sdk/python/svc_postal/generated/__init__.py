"""A client library for accessing Postal Mailing, Administrative Letters and Data API"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
