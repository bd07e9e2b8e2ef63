from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.route_result import RouteResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: str,
    to: str,
    geometry: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["geometry"] = geometry

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/routes",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RouteResult | None:
    if response.status_code == 200:
        response_200 = RouteResult.from_dict(response.json())

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
) -> Response[Error | RouteResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: str,
    to: str,
    geometry: bool | Unset = False,
) -> Response[Error | RouteResult]:
    """Car route distance and duration between two addresses or points

     Addresses are geocoded first. 404 when an address is not found or no road route exists. Billed as
    one "data.lookup.premium" after the monthly free quota; 502 and nothing billed when a partner fails.

    Args:
        from_ (str): An address, or "lon,lat"
        to (str): An address, or "lon,lat"
        geometry (bool | Unset): true adds a simplified path Default: False.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | RouteResult]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        geometry=geometry,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: str,
    to: str,
    geometry: bool | Unset = False,
) -> Error | RouteResult | None:
    """Car route distance and duration between two addresses or points

     Addresses are geocoded first. 404 when an address is not found or no road route exists. Billed as
    one "data.lookup.premium" after the monthly free quota; 502 and nothing billed when a partner fails.

    Args:
        from_ (str): An address, or "lon,lat"
        to (str): An address, or "lon,lat"
        geometry (bool | Unset): true adds a simplified path Default: False.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | RouteResult
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        geometry=geometry,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: str,
    to: str,
    geometry: bool | Unset = False,
) -> Response[Error | RouteResult]:
    """Car route distance and duration between two addresses or points

     Addresses are geocoded first. 404 when an address is not found or no road route exists. Billed as
    one "data.lookup.premium" after the monthly free quota; 502 and nothing billed when a partner fails.

    Args:
        from_ (str): An address, or "lon,lat"
        to (str): An address, or "lon,lat"
        geometry (bool | Unset): true adds a simplified path Default: False.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | RouteResult]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        geometry=geometry,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: str,
    to: str,
    geometry: bool | Unset = False,
) -> Error | RouteResult | None:
    """Car route distance and duration between two addresses or points

     Addresses are geocoded first. 404 when an address is not found or no road route exists. Billed as
    one "data.lookup.premium" after the monthly free quota; 502 and nothing billed when a partner fails.

    Args:
        from_ (str): An address, or "lon,lat"
        to (str): An address, or "lon,lat"
        geometry (bool | Unset): true adds a simplified path Default: False.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | RouteResult
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            geometry=geometry,
        )
    ).parsed
