from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.mailing_batch import MailingBatch
from ...models.mailing_batch_report import MailingBatchReport
from ...models.mailing_batch_request import MailingBatchRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: MailingBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/mailing-batches",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | MailingBatch | MailingBatchReport | None:
    if response.status_code == 200:
        response_200 = MailingBatchReport.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = MailingBatch.from_dict(response.json())

        return response_201

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
) -> Response[Error | MailingBatch | MailingBatchReport]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: MailingBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | MailingBatch | MailingBatchReport]:
    """Send one letter to many recipients (mail merge): one mailing per row, all or nothing, paid once

     Beyond SPEC.md, non-breaking. Up to 5000 rows (about what SPEC.md's 1 MB body holds). Each row goes
    through the checks of POST /v1/mailings: a row that would be refused makes the whole batch a 422
    batch_invalid whose details are the report (each row's code, message and details), nothing created
    or charged. A live key is debited once for the whole batch (402 when the balance is short, nothing
    created); each row then becomes a normal mailing (same webhooks and proofs) whose `batch` is this
    batch, listed by GET /v1/mailings?batch=. dryRun: true answers 200 with the report and the total
    price, creating and charging nothing. mailing_batch.completed is sent, when every mailing is final,
    to the endpoints whose event filter names it.

    Args:
        idempotency_key (str | Unset):
        body (MailingBatchRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | MailingBatch | MailingBatchReport]
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
    body: MailingBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | MailingBatch | MailingBatchReport | None:
    """Send one letter to many recipients (mail merge): one mailing per row, all or nothing, paid once

     Beyond SPEC.md, non-breaking. Up to 5000 rows (about what SPEC.md's 1 MB body holds). Each row goes
    through the checks of POST /v1/mailings: a row that would be refused makes the whole batch a 422
    batch_invalid whose details are the report (each row's code, message and details), nothing created
    or charged. A live key is debited once for the whole batch (402 when the balance is short, nothing
    created); each row then becomes a normal mailing (same webhooks and proofs) whose `batch` is this
    batch, listed by GET /v1/mailings?batch=. dryRun: true answers 200 with the report and the total
    price, creating and charging nothing. mailing_batch.completed is sent, when every mailing is final,
    to the endpoints whose event filter names it.

    Args:
        idempotency_key (str | Unset):
        body (MailingBatchRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | MailingBatch | MailingBatchReport
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: MailingBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | MailingBatch | MailingBatchReport]:
    """Send one letter to many recipients (mail merge): one mailing per row, all or nothing, paid once

     Beyond SPEC.md, non-breaking. Up to 5000 rows (about what SPEC.md's 1 MB body holds). Each row goes
    through the checks of POST /v1/mailings: a row that would be refused makes the whole batch a 422
    batch_invalid whose details are the report (each row's code, message and details), nothing created
    or charged. A live key is debited once for the whole batch (402 when the balance is short, nothing
    created); each row then becomes a normal mailing (same webhooks and proofs) whose `batch` is this
    batch, listed by GET /v1/mailings?batch=. dryRun: true answers 200 with the report and the total
    price, creating and charging nothing. mailing_batch.completed is sent, when every mailing is final,
    to the endpoints whose event filter names it.

    Args:
        idempotency_key (str | Unset):
        body (MailingBatchRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Response[Error | MailingBatch | MailingBatchReport]
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
    body: MailingBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | MailingBatch | MailingBatchReport | None:
    """Send one letter to many recipients (mail merge): one mailing per row, all or nothing, paid once

     Beyond SPEC.md, non-breaking. Up to 5000 rows (about what SPEC.md's 1 MB body holds). Each row goes
    through the checks of POST /v1/mailings: a row that would be refused makes the whole batch a 422
    batch_invalid whose details are the report (each row's code, message and details), nothing created
    or charged. A live key is debited once for the whole batch (402 when the balance is short, nothing
    created); each row then becomes a normal mailing (same webhooks and proofs) whose `batch` is this
    batch, listed by GET /v1/mailings?batch=. dryRun: true answers 200 with the report and the total
    price, creating and charging nothing. mailing_batch.completed is sent, when every mailing is final,
    to the endpoints whose event filter names it.

    Args:
        idempotency_key (str | Unset):
        body (MailingBatchRequest):

    Raises:
        svc_postal.ApiError: A 4xx or 5xx answer, after the retries of the client of svc_postal.create_client (or SvcPostal.http): the Error models are never returned then.
        httpx.TransportError: A network error or timeout after the last attempt.

    Returns:
        Error | MailingBatch | MailingBatchReport
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
