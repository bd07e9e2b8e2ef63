from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.letter_detail import LetterDetail
from ...types import UNSET, Response, Unset


def _get_kwargs(
    slug: str,
    *,
    provider: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["provider"] = provider

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/letters/{slug}".format(
            slug=quote(str(slug), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | LetterDetail | None:
    if response.status_code == 200:
        response_200 = LetterDetail.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | LetterDetail]:
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
    provider: str | Unset = UNSET,
) -> Response[Error | LetterDetail]:
    """A catalogue letter with its legal basis, providers and fields (exact fields for ?provider=)

    Args:
        slug (str): Catalogue identifier
        provider (str | Unset): Provider slug: the exact fields for that provider

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | LetterDetail]
    """

    kwargs = _get_kwargs(
        slug=slug,
        provider=provider,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    slug: str,
    *,
    client: AuthenticatedClient,
    provider: str | Unset = UNSET,
) -> Error | LetterDetail | None:
    """A catalogue letter with its legal basis, providers and fields (exact fields for ?provider=)

    Args:
        slug (str): Catalogue identifier
        provider (str | Unset): Provider slug: the exact fields for that provider

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | LetterDetail
    """

    return sync_detailed(
        slug=slug,
        client=client,
        provider=provider,
    ).parsed


async def asyncio_detailed(
    slug: str,
    *,
    client: AuthenticatedClient,
    provider: str | Unset = UNSET,
) -> Response[Error | LetterDetail]:
    """A catalogue letter with its legal basis, providers and fields (exact fields for ?provider=)

    Args:
        slug (str): Catalogue identifier
        provider (str | Unset): Provider slug: the exact fields for that provider

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | LetterDetail]
    """

    kwargs = _get_kwargs(
        slug=slug,
        provider=provider,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient,
    provider: str | Unset = UNSET,
) -> Error | LetterDetail | None:
    """A catalogue letter with its legal basis, providers and fields (exact fields for ?provider=)

    Args:
        slug (str): Catalogue identifier
        provider (str | Unset): Provider slug: the exact fields for that provider

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | LetterDetail
    """

    return (
        await asyncio_detailed(
            slug=slug,
            client=client,
            provider=provider,
        )
    ).parsed
