from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import File, Response


def _get_kwargs(
    token: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/proof-files/{token}".format(
            token=quote(str(token), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | File | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

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
) -> Response[Error | File]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | File]:
    """Download a proof PDF through the link of GET /v1/mailings/{id}/proofs/{kind} (the link is the
    credential)

    Args:
        token (str):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | File]
    """

    kwargs = _get_kwargs(
        token=token,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | File | None:
    """Download a proof PDF through the link of GET /v1/mailings/{id}/proofs/{kind} (the link is the
    credential)

    Args:
        token (str):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | File
    """

    return sync_detailed(
        token=token,
        client=client,
    ).parsed


async def asyncio_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | File]:
    """Download a proof PDF through the link of GET /v1/mailings/{id}/proofs/{kind} (the link is the
    credential)

    Args:
        token (str):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | File]
    """

    kwargs = _get_kwargs(
        token=token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | File | None:
    """Download a proof PDF through the link of GET /v1/mailings/{id}/proofs/{kind} (the link is the
    credential)

    Args:
        token (str):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | File
    """

    return (
        await asyncio_detailed(
            token=token,
            client=client,
        )
    ).parsed
