from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.mailing_quote import MailingQuote
from ...models.mailing_request import MailingRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: MailingRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/mailing-quotes",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | MailingQuote | None:
    if response.status_code == 200:
        response_200 = MailingQuote.from_dict(response.json())

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
) -> Response[Error | MailingQuote]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: MailingRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | MailingQuote]:
    """The price of a mailing before sending it: the same body as POST /v1/mailings, nothing charged or
    created

     Beyond SPEC.md, non-breaking. Runs the checks of POST /v1/mailings (a recipient by SIRET, the
    addresses and the national address base, the send date, the letter and every check of a PDF letter:
    the same 422s) and answers what it would debit, with its lines. A PDF letter is priced by its
    sheets, colour and duplex; catalogue and free letters cost their mode's flat price. Free, for test
    and live keys alike.

    Args:
        idempotency_key (str | Unset):
        body (MailingRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | MailingQuote]
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
    body: MailingRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | MailingQuote | None:
    """The price of a mailing before sending it: the same body as POST /v1/mailings, nothing charged or
    created

     Beyond SPEC.md, non-breaking. Runs the checks of POST /v1/mailings (a recipient by SIRET, the
    addresses and the national address base, the send date, the letter and every check of a PDF letter:
    the same 422s) and answers what it would debit, with its lines. A PDF letter is priced by its
    sheets, colour and duplex; catalogue and free letters cost their mode's flat price. Free, for test
    and live keys alike.

    Args:
        idempotency_key (str | Unset):
        body (MailingRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | MailingQuote
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: MailingRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | MailingQuote]:
    """The price of a mailing before sending it: the same body as POST /v1/mailings, nothing charged or
    created

     Beyond SPEC.md, non-breaking. Runs the checks of POST /v1/mailings (a recipient by SIRET, the
    addresses and the national address base, the send date, the letter and every check of a PDF letter:
    the same 422s) and answers what it would debit, with its lines. A PDF letter is priced by its
    sheets, colour and duplex; catalogue and free letters cost their mode's flat price. Free, for test
    and live keys alike.

    Args:
        idempotency_key (str | Unset):
        body (MailingRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | MailingQuote]
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
    body: MailingRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | MailingQuote | None:
    """The price of a mailing before sending it: the same body as POST /v1/mailings, nothing charged or
    created

     Beyond SPEC.md, non-breaking. Runs the checks of POST /v1/mailings (a recipient by SIRET, the
    addresses and the national address base, the send date, the letter and every check of a PDF letter:
    the same 422s) and answers what it would debit, with its lines. A PDF letter is priced by its
    sheets, colour and duplex; catalogue and free letters cost their mode's flat price. Free, for test
    and live keys alike.

    Args:
        idempotency_key (str | Unset):
        body (MailingRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | MailingQuote
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
