from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.fuel_stations import FuelStations
from ...models.search_fuel_stations_query import SearchFuelStationsQuery
from ...types import UNSET, Response


def _get_kwargs(
    *,
    query: SearchFuelStationsQuery,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_query = query.to_dict()
    params.update(json_query)

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/fuel/stations",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | FuelStations | None:
    if response.status_code == 200:
        response_200 = FuelStations.from_dict(response.json())

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
) -> Response[Error | FuelStations]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    query: SearchFuelStationsQuery,
) -> Response[Error | FuelStations]:
    """Fuel stations around a point or in a commune, cheapest or nearest first

     From the official instantaneous fuel-price data (answers reused 10 minutes). With insee, the
    commune's stations; when it has fewer than 3, the search widens to radiusKm around lat/lon, or
    around the commune centre. Distances are as the crow flies. Billed as one "data.lookup" after the
    monthly free quota; 502 and nothing billed when the source fails.

    Args:
        query (SearchFuelStationsQuery):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | FuelStations]
    """

    kwargs = _get_kwargs(
        query=query,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    query: SearchFuelStationsQuery,
) -> Error | FuelStations | None:
    """Fuel stations around a point or in a commune, cheapest or nearest first

     From the official instantaneous fuel-price data (answers reused 10 minutes). With insee, the
    commune's stations; when it has fewer than 3, the search widens to radiusKm around lat/lon, or
    around the commune centre. Distances are as the crow flies. Billed as one "data.lookup" after the
    monthly free quota; 502 and nothing billed when the source fails.

    Args:
        query (SearchFuelStationsQuery):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | FuelStations
    """

    return sync_detailed(
        client=client,
        query=query,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    query: SearchFuelStationsQuery,
) -> Response[Error | FuelStations]:
    """Fuel stations around a point or in a commune, cheapest or nearest first

     From the official instantaneous fuel-price data (answers reused 10 minutes). With insee, the
    commune's stations; when it has fewer than 3, the search widens to radiusKm around lat/lon, or
    around the commune centre. Distances are as the crow flies. Billed as one "data.lookup" after the
    monthly free quota; 502 and nothing billed when the source fails.

    Args:
        query (SearchFuelStationsQuery):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | FuelStations]
    """

    kwargs = _get_kwargs(
        query=query,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    query: SearchFuelStationsQuery,
) -> Error | FuelStations | None:
    """Fuel stations around a point or in a commune, cheapest or nearest first

     From the official instantaneous fuel-price data (answers reused 10 minutes). With insee, the
    commune's stations; when it has fewer than 3, the search widens to radiusKm around lat/lon, or
    around the commune centre. Distances are as the crow flies. Billed as one "data.lookup" after the
    monthly free quota; 502 and nothing billed when the source fails.

    Args:
        query (SearchFuelStationsQuery):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | FuelStations
    """

    return (
        await asyncio_detailed(
            client=client,
            query=query,
        )
    ).parsed
