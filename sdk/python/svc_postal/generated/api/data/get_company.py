from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.company_profile import CompanyProfile
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    siret: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/companies/{siret}".format(
            siret=quote(str(siret), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CompanyProfile | Error | None:
    if response.status_code == 200:
        response_200 = CompanyProfile.from_dict(response.json())

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
) -> Response[CompanyProfile | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    siret: str,
    *,
    client: AuthenticatedClient,
) -> Response[CompanyProfile | Error]:
    """Company profile of an establishment: status, company, head office, activity, headcount, data
    freshness

     Billed as one "data.lookup.premium" after the monthly free quota; 404 (not billed) for an unknown
    SIRET.

    Args:
        siret (str): SIRET, exactly 14 digits

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[CompanyProfile | Error]
    """

    kwargs = _get_kwargs(
        siret=siret,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    siret: str,
    *,
    client: AuthenticatedClient,
) -> CompanyProfile | Error | None:
    """Company profile of an establishment: status, company, head office, activity, headcount, data
    freshness

     Billed as one "data.lookup.premium" after the monthly free quota; 404 (not billed) for an unknown
    SIRET.

    Args:
        siret (str): SIRET, exactly 14 digits

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        CompanyProfile | Error
    """

    return sync_detailed(
        siret=siret,
        client=client,
    ).parsed


async def asyncio_detailed(
    siret: str,
    *,
    client: AuthenticatedClient,
) -> Response[CompanyProfile | Error]:
    """Company profile of an establishment: status, company, head office, activity, headcount, data
    freshness

     Billed as one "data.lookup.premium" after the monthly free quota; 404 (not billed) for an unknown
    SIRET.

    Args:
        siret (str): SIRET, exactly 14 digits

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[CompanyProfile | Error]
    """

    kwargs = _get_kwargs(
        siret=siret,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    siret: str,
    *,
    client: AuthenticatedClient,
) -> CompanyProfile | Error | None:
    """Company profile of an establishment: status, company, head office, activity, headcount, data
    freshness

     Billed as one "data.lookup.premium" after the monthly free quota; 404 (not billed) for an unknown
    SIRET.

    Args:
        siret (str): SIRET, exactly 14 digits

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        CompanyProfile | Error
    """

    return (
        await asyncio_detailed(
            siret=siret,
            client=client,
        )
    ).parsed
