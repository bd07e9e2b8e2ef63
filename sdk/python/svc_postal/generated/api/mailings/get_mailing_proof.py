from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_mailing_proof_kind import GetMailingProofKind
from ...models.proof_link import ProofLink
from ...types import Response


def _get_kwargs(
    id: UUID,
    kind: GetMailingProofKind,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/mailings/{id}/proofs/{kind}".format(
            id=quote(str(id), safe=""),
            kind=quote(str(kind), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ProofLink | None:
    if response.status_code == 200:
        response_200 = ProofLink.from_dict(response.json())

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = Error.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | ProofLink]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    kind: GetMailingProofKind,
    *,
    client: AuthenticatedClient,
) -> Response[Error | ProofLink]:
    """A temporary download link (5 minutes) for a proof: filing, delivery or return

     404 until the proof is available (mailing.proof_available announces it). Once the mailing is erased
    (erasedAt), 404 proof_erased with details { kind, sha256 }: the PDF is gone, its SHA-256 stays to
    check a copy you kept.

    Args:
        id (UUID): UUID
        kind (GetMailingProofKind):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | ProofLink]
    """

    kwargs = _get_kwargs(
        id=id,
        kind=kind,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    kind: GetMailingProofKind,
    *,
    client: AuthenticatedClient,
) -> Error | ProofLink | None:
    """A temporary download link (5 minutes) for a proof: filing, delivery or return

     404 until the proof is available (mailing.proof_available announces it). Once the mailing is erased
    (erasedAt), 404 proof_erased with details { kind, sha256 }: the PDF is gone, its SHA-256 stays to
    check a copy you kept.

    Args:
        id (UUID): UUID
        kind (GetMailingProofKind):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | ProofLink
    """

    return sync_detailed(
        id=id,
        kind=kind,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    kind: GetMailingProofKind,
    *,
    client: AuthenticatedClient,
) -> Response[Error | ProofLink]:
    """A temporary download link (5 minutes) for a proof: filing, delivery or return

     404 until the proof is available (mailing.proof_available announces it). Once the mailing is erased
    (erasedAt), 404 proof_erased with details { kind, sha256 }: the PDF is gone, its SHA-256 stays to
    check a copy you kept.

    Args:
        id (UUID): UUID
        kind (GetMailingProofKind):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | ProofLink]
    """

    kwargs = _get_kwargs(
        id=id,
        kind=kind,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    kind: GetMailingProofKind,
    *,
    client: AuthenticatedClient,
) -> Error | ProofLink | None:
    """A temporary download link (5 minutes) for a proof: filing, delivery or return

     404 until the proof is available (mailing.proof_available announces it). Once the mailing is erased
    (erasedAt), 404 proof_erased with details { kind, sha256 }: the PDF is gone, its SHA-256 stays to
    check a copy you kept.

    Args:
        id (UUID): UUID
        kind (GetMailingProofKind):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | ProofLink
    """

    return (
        await asyncio_detailed(
            id=id,
            kind=kind,
            client=client,
        )
    ).parsed
