from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.address_results import AddressResults
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: str,
    limit: int | Unset = 5,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["q"] = q

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/geo/addresses",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AddressResults | Error | None:
    if response.status_code == 200:
        response_200 = AddressResults.from_dict(response.json())

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
) -> Response[AddressResults | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    q: str,
    limit: int | Unset = 5,
) -> Response[AddressResults | Error]:
    """Address autocomplete and geocoding (national address base)

     Runs the geocoder through a short workflow (timeout, retries, the partner's rate cap for all
    processes together); answers are cached 7 days. A partner that keeps failing gives 502
    upstream_error and nothing is billed. Billed as one "data.lookup" after the monthly free quota.

    Args:
        q (str): An address, or its beginning
        limit (int | Unset):  Default: 5.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[AddressResults | Error]
    """

    kwargs = _get_kwargs(
        q=q,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    q: str,
    limit: int | Unset = 5,
) -> AddressResults | Error | None:
    """Address autocomplete and geocoding (national address base)

     Runs the geocoder through a short workflow (timeout, retries, the partner's rate cap for all
    processes together); answers are cached 7 days. A partner that keeps failing gives 502
    upstream_error and nothing is billed. Billed as one "data.lookup" after the monthly free quota.

    Args:
        q (str): An address, or its beginning
        limit (int | Unset):  Default: 5.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        AddressResults | Error
    """

    return sync_detailed(
        client=client,
        q=q,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: str,
    limit: int | Unset = 5,
) -> Response[AddressResults | Error]:
    """Address autocomplete and geocoding (national address base)

     Runs the geocoder through a short workflow (timeout, retries, the partner's rate cap for all
    processes together); answers are cached 7 days. A partner that keeps failing gives 502
    upstream_error and nothing is billed. Billed as one "data.lookup" after the monthly free quota.

    Args:
        q (str): An address, or its beginning
        limit (int | Unset):  Default: 5.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[AddressResults | Error]
    """

    kwargs = _get_kwargs(
        q=q,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: str,
    limit: int | Unset = 5,
) -> AddressResults | Error | None:
    """Address autocomplete and geocoding (national address base)

     Runs the geocoder through a short workflow (timeout, retries, the partner's rate cap for all
    processes together); answers are cached 7 days. A partner that keeps failing gives 502
    upstream_error and nothing is billed. Billed as one "data.lookup" after the monthly free quota.

    Args:
        q (str): An address, or its beginning
        limit (int | Unset):  Default: 5.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        AddressResults | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            limit=limit,
        )
    ).parsed
