from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.ai_fill_request import AiFillRequest
from ...models.error import Error
from ...models.v1_ai_fill_result import V1AiFillResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AiFillRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/ai/fill",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | V1AiFillResult | None:
    if response.status_code == 200:
        response_200 = V1AiFillResult.from_dict(response.json())

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
) -> Response[Error | V1AiFillResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AiFillRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | V1AiFillResult]:
    """Fill a catalogue letter's fields from one sentence

     The model answers values constrained by the letter's field schema; they are checked with the rules
    of /render (unknown fields dropped, invalid values listed in rejected) and the letter is rendered.
    With a test key the answer is simulated (deterministic, derived from the input, marked simulated),
    the provider is never called and nothing is billed. With a live key it is debited at the catalogue
    price before the call and credited back when the provider fails or answers unusably (502
    upstream_error). A live key of an account that has not turned the AI features on (developer space,
    account settings) is refused with 403 ai_not_enabled: nothing is sent to the AI provider, nothing is
    billed. Billed as one "ai.fill".

    Args:
        idempotency_key (str | Unset):
        body (AiFillRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | V1AiFillResult]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: AiFillRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | V1AiFillResult | None:
    """Fill a catalogue letter's fields from one sentence

     The model answers values constrained by the letter's field schema; they are checked with the rules
    of /render (unknown fields dropped, invalid values listed in rejected) and the letter is rendered.
    With a test key the answer is simulated (deterministic, derived from the input, marked simulated),
    the provider is never called and nothing is billed. With a live key it is debited at the catalogue
    price before the call and credited back when the provider fails or answers unusably (502
    upstream_error). A live key of an account that has not turned the AI features on (developer space,
    account settings) is refused with 403 ai_not_enabled: nothing is sent to the AI provider, nothing is
    billed. Billed as one "ai.fill".

    Args:
        idempotency_key (str | Unset):
        body (AiFillRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | V1AiFillResult
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AiFillRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | V1AiFillResult]:
    """Fill a catalogue letter's fields from one sentence

     The model answers values constrained by the letter's field schema; they are checked with the rules
    of /render (unknown fields dropped, invalid values listed in rejected) and the letter is rendered.
    With a test key the answer is simulated (deterministic, derived from the input, marked simulated),
    the provider is never called and nothing is billed. With a live key it is debited at the catalogue
    price before the call and credited back when the provider fails or answers unusably (502
    upstream_error). A live key of an account that has not turned the AI features on (developer space,
    account settings) is refused with 403 ai_not_enabled: nothing is sent to the AI provider, nothing is
    billed. Billed as one "ai.fill".

    Args:
        idempotency_key (str | Unset):
        body (AiFillRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | V1AiFillResult]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AiFillRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | V1AiFillResult | None:
    """Fill a catalogue letter's fields from one sentence

     The model answers values constrained by the letter's field schema; they are checked with the rules
    of /render (unknown fields dropped, invalid values listed in rejected) and the letter is rendered.
    With a test key the answer is simulated (deterministic, derived from the input, marked simulated),
    the provider is never called and nothing is billed. With a live key it is debited at the catalogue
    price before the call and credited back when the provider fails or answers unusably (502
    upstream_error). A live key of an account that has not turned the AI features on (developer space,
    account settings) is refused with 403 ai_not_enabled: nothing is sent to the AI provider, nothing is
    billed. Billed as one "ai.fill".

    Args:
        idempotency_key (str | Unset):
        body (AiFillRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | V1AiFillResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
