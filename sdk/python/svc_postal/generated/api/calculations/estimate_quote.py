from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.quote_estimate import QuoteEstimate
from ...models.quote_estimate_request import QuoteEstimateRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    slug: str,
    *,
    body: QuoteEstimateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/quotes/{slug}/estimate".format(
            slug=quote(str(slug), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | QuoteEstimate | None:
    if response.status_code == 200:
        response_200 = QuoteEstimate.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = Error.from_dict(response.json())

        return response_402

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
) -> Response[Error | QuoteEstimate]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: QuoteEstimateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | QuoteEstimate]:
    """Estimate a catalogue quote: line items and totals, with the road route when the quote needs one

     Inputs are checked against the quote's fields (422 per problem, or missingFields); contact fields
    (email, phone) are not needed to estimate. Dates must not be in the past. The moving quote computes
    the road route between from and to; when no route exists, or the routing service is unavailable, the
    answer is 422 and nothing is billed. Billed as one "calculation" after the monthly free quota.

    Args:
        slug (str): Catalogue identifier
        idempotency_key (str | Unset):
        body (QuoteEstimateRequest | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | QuoteEstimate]
    """

    kwargs = _get_kwargs(
        slug=slug,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: QuoteEstimateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | QuoteEstimate | None:
    """Estimate a catalogue quote: line items and totals, with the road route when the quote needs one

     Inputs are checked against the quote's fields (422 per problem, or missingFields); contact fields
    (email, phone) are not needed to estimate. Dates must not be in the past. The moving quote computes
    the road route between from and to; when no route exists, or the routing service is unavailable, the
    answer is 422 and nothing is billed. Billed as one "calculation" after the monthly free quota.

    Args:
        slug (str): Catalogue identifier
        idempotency_key (str | Unset):
        body (QuoteEstimateRequest | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | QuoteEstimate
    """

    return sync_detailed(
        slug=slug,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: QuoteEstimateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | QuoteEstimate]:
    """Estimate a catalogue quote: line items and totals, with the road route when the quote needs one

     Inputs are checked against the quote's fields (422 per problem, or missingFields); contact fields
    (email, phone) are not needed to estimate. Dates must not be in the past. The moving quote computes
    the road route between from and to; when no route exists, or the routing service is unavailable, the
    answer is 422 and nothing is billed. Billed as one "calculation" after the monthly free quota.

    Args:
        slug (str): Catalogue identifier
        idempotency_key (str | Unset):
        body (QuoteEstimateRequest | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | QuoteEstimate]
    """

    kwargs = _get_kwargs(
        slug=slug,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: QuoteEstimateRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | QuoteEstimate | None:
    """Estimate a catalogue quote: line items and totals, with the road route when the quote needs one

     Inputs are checked against the quote's fields (422 per problem, or missingFields); contact fields
    (email, phone) are not needed to estimate. Dates must not be in the past. The moving quote computes
    the road route between from and to; when no route exists, or the routing service is unavailable, the
    answer is 422 and nothing is billed. Billed as one "calculation" after the monthly free quota.

    Args:
        slug (str): Catalogue identifier
        idempotency_key (str | Unset):
        body (QuoteEstimateRequest | Unset):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | QuoteEstimate
    """

    return (
        await asyncio_detailed(
            slug=slug,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
