from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.search_catalogue_mode import SearchCatalogueMode
from ...models.search_results import SearchResults
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: str,
    limit: int | Unset = 8,
    mode: SearchCatalogueMode | Unset = SearchCatalogueMode.HYBRID,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["q"] = q

    params["limit"] = limit

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/search",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SearchResults | None:
    if response.status_code == 200:
        response_200 = SearchResults.from_dict(response.json())

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
) -> Response[Error | SearchResults]:
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
    limit: int | Unset = 8,
    mode: SearchCatalogueMode | Unset = SearchCatalogueMode.HYBRID,
) -> Response[Error | SearchResults]:
    """Search letters, calculators, AI tools and quotes by keywords or natural language

     Keyword and alias matching (accent- and case-insensitive) is instantaneous. The semantic engine is
    merged in only when keywords give no result or the query has 3 words or more; with mode=lexical it
    is never called; when it is unavailable the response says mode: lexical.

    Args:
        q (str): Keywords or a sentence
        limit (int | Unset):  Default: 8.
        mode (SearchCatalogueMode | Unset): lexical never calls the semantic engine Default:
            SearchCatalogueMode.HYBRID.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | SearchResults]
    """

    kwargs = _get_kwargs(
        q=q,
        limit=limit,
        mode=mode,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    q: str,
    limit: int | Unset = 8,
    mode: SearchCatalogueMode | Unset = SearchCatalogueMode.HYBRID,
) -> Error | SearchResults | None:
    """Search letters, calculators, AI tools and quotes by keywords or natural language

     Keyword and alias matching (accent- and case-insensitive) is instantaneous. The semantic engine is
    merged in only when keywords give no result or the query has 3 words or more; with mode=lexical it
    is never called; when it is unavailable the response says mode: lexical.

    Args:
        q (str): Keywords or a sentence
        limit (int | Unset):  Default: 8.
        mode (SearchCatalogueMode | Unset): lexical never calls the semantic engine Default:
            SearchCatalogueMode.HYBRID.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | SearchResults
    """

    return sync_detailed(
        client=client,
        q=q,
        limit=limit,
        mode=mode,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: str,
    limit: int | Unset = 8,
    mode: SearchCatalogueMode | Unset = SearchCatalogueMode.HYBRID,
) -> Response[Error | SearchResults]:
    """Search letters, calculators, AI tools and quotes by keywords or natural language

     Keyword and alias matching (accent- and case-insensitive) is instantaneous. The semantic engine is
    merged in only when keywords give no result or the query has 3 words or more; with mode=lexical it
    is never called; when it is unavailable the response says mode: lexical.

    Args:
        q (str): Keywords or a sentence
        limit (int | Unset):  Default: 8.
        mode (SearchCatalogueMode | Unset): lexical never calls the semantic engine Default:
            SearchCatalogueMode.HYBRID.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | SearchResults]
    """

    kwargs = _get_kwargs(
        q=q,
        limit=limit,
        mode=mode,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: str,
    limit: int | Unset = 8,
    mode: SearchCatalogueMode | Unset = SearchCatalogueMode.HYBRID,
) -> Error | SearchResults | None:
    """Search letters, calculators, AI tools and quotes by keywords or natural language

     Keyword and alias matching (accent- and case-insensitive) is instantaneous. The semantic engine is
    merged in only when keywords give no result or the query has 3 words or more; with mode=lexical it
    is never called; when it is unavailable the response says mode: lexical.

    Args:
        q (str): Keywords or a sentence
        limit (int | Unset):  Default: 8.
        mode (SearchCatalogueMode | Unset): lexical never calls the semantic engine Default:
            SearchCatalogueMode.HYBRID.

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | SearchResults
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            limit=limit,
            mode=mode,
        )
    ).parsed
