from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.shipment import Shipment
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/mailings/{id}/erase".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Shipment | None:
    if response.status_code == 200:
        response_200 = Shipment.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Shipment]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Shipment]:
    """Erase a final mailing's personal data: the recipient, the letter's content, the proofs' PDFs

     Beyond SPEC.md, non-breaking. Once the mailing is final (409 mailing_not_final before). The answer
    is the erased mailing: erasedAt set, recipient ["(effacé)"], document with an empty text (title
    "(effacé)" unless a catalogue letter); its amount, events, tracking number, reference, proofs
    (listed, with 404 proof_erased for their PDFs) and SHA-256 hashes stay. Erasing an erased mailing
    answers it as it is. Done anyway after the account's retention period (docs/retention.md).

    Args:
        id (UUID): UUID
        idempotency_key (str | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | Shipment]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Error | Shipment | None:
    """Erase a final mailing's personal data: the recipient, the letter's content, the proofs' PDFs

     Beyond SPEC.md, non-breaking. Once the mailing is final (409 mailing_not_final before). The answer
    is the erased mailing: erasedAt set, recipient ["(effacé)"], document with an empty text (title
    "(effacé)" unless a catalogue letter); its amount, events, tracking number, reference, proofs
    (listed, with 404 proof_erased for their PDFs) and SHA-256 hashes stay. Erasing an erased mailing
    answers it as it is. Done anyway after the account's retention period (docs/retention.md).

    Args:
        id (UUID): UUID
        idempotency_key (str | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | Shipment
    """

    return sync_detailed(
        id=id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Shipment]:
    """Erase a final mailing's personal data: the recipient, the letter's content, the proofs' PDFs

     Beyond SPEC.md, non-breaking. Once the mailing is final (409 mailing_not_final before). The answer
    is the erased mailing: erasedAt set, recipient ["(effacé)"], document with an empty text (title
    "(effacé)" unless a catalogue letter); its amount, events, tracking number, reference, proofs
    (listed, with 404 proof_erased for their PDFs) and SHA-256 hashes stay. Erasing an erased mailing
    answers it as it is. Done anyway after the account's retention period (docs/retention.md).

    Args:
        id (UUID): UUID
        idempotency_key (str | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | Shipment]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Error | Shipment | None:
    """Erase a final mailing's personal data: the recipient, the letter's content, the proofs' PDFs

     Beyond SPEC.md, non-breaking. Once the mailing is final (409 mailing_not_final before). The answer
    is the erased mailing: erasedAt set, recipient ["(effacé)"], document with an empty text (title
    "(effacé)" unless a catalogue letter); its amount, events, tracking number, reference, proofs
    (listed, with 404 proof_erased for their PDFs) and SHA-256 hashes stay. Erasing an erased mailing
    answers it as it is. Done anyway after the account's retention period (docs/retention.md).

    Args:
        id (UUID): UUID
        idempotency_key (str | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | Shipment
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
