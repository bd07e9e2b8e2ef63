from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.fuel_prices import FuelPrices
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    department: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["department"] = department

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/fuel/prices",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | FuelPrices | None:
    if response.status_code == 200:
        response_200 = FuelPrices.from_dict(response.json())

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
) -> Response[Error | FuelPrices]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    department: str | Unset = UNSET,
) -> Response[Error | FuelPrices]:
    """The day's average fuel prices for France, and for a department with ?department=

     From the official fuel-price open data; cached until the next daily publication. Billed as one
    "data.lookup" after the monthly free quota; 502 and nothing billed when the source fails.

    Args:
        department (str | Unset): Department code, e.g. 69, 974 or 2A: adds its averages

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | FuelPrices]
    """

    kwargs = _get_kwargs(
        department=department,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    department: str | Unset = UNSET,
) -> Error | FuelPrices | None:
    """The day's average fuel prices for France, and for a department with ?department=

     From the official fuel-price open data; cached until the next daily publication. Billed as one
    "data.lookup" after the monthly free quota; 502 and nothing billed when the source fails.

    Args:
        department (str | Unset): Department code, e.g. 69, 974 or 2A: adds its averages

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | FuelPrices
    """

    return sync_detailed(
        client=client,
        department=department,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    department: str | Unset = UNSET,
) -> Response[Error | FuelPrices]:
    """The day's average fuel prices for France, and for a department with ?department=

     From the official fuel-price open data; cached until the next daily publication. Billed as one
    "data.lookup" after the monthly free quota; 502 and nothing billed when the source fails.

    Args:
        department (str | Unset): Department code, e.g. 69, 974 or 2A: adds its averages

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | FuelPrices]
    """

    kwargs = _get_kwargs(
        department=department,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    department: str | Unset = UNSET,
) -> Error | FuelPrices | None:
    """The day's average fuel prices for France, and for a department with ?department=

     From the official fuel-price open data; cached until the next daily publication. Billed as one
    "data.lookup" after the monthly free quota; 502 and nothing billed when the source fails.

    Args:
        department (str | Unset): Department code, e.g. 69, 974 or 2A: adds its averages

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | FuelPrices
    """

    return (
        await asyncio_detailed(
            client=client,
            department=department,
        )
    ).parsed
