"""Drives the Python SDK (sdk/python) for test/e2e/sdk-python.test.ts, one step per run.

python sdk_python_scenario.py STEP < input.json > output.json, with SDK_BASE_URL and SDK_API_KEY:
the test arranges the stack and the proxy, this script only calls the SDK as a user would: through
the typed client (SvcPostal), and the generated operations for asyncio.
"""

import asyncio
import json
import os
import sys
import uuid

import svc_postal
from svc_postal.generated.api.mailings import create_mailing
from svc_postal.generated.models import MailingRequest


def client(**options):
    return svc_postal.SvcPostal(os.environ["SDK_API_KEY"], os.environ["SDK_BASE_URL"], base_delay=0.05, **options)


def error_fields(error: svc_postal.ApiError):
    return {
        "error": type(error).__name__,
        "status": error.status,
        "code": error.code,
        "message": error.message,
        "details": error.details,
        "requestId": error.request_id,
    }


def create(payload):
    return client().mailings.create(payload["body"]).to_dict()


def create_async(payload):
    async def run():
        return await create_mailing.asyncio(client=client().http, body=MailingRequest.from_dict(payload["body"]))

    return asyncio.run(run()).to_dict()


def create_bounded(payload):
    try:
        client(max_attempts=payload["maxAttempts"], max_delay=0.01).mailings.create(payload["body"])
    except svc_postal.ApiError as error:
        return error_fields(error)
    return {"error": None}


def advance(payload):
    return client().mailings.advance(payload["id"], step=payload["step"]).to_dict()


def cancel(payload):
    try:
        client().mailings.cancel(payload["id"])
    except svc_postal.ApiError as error:
        return error_fields(error)
    return {"error": None}


def list_all(payload):
    return [mailing.id for mailing in client().mailings.iterate(limit=payload["limit"])]


def get(payload):
    try:
        shipment = client().mailings.get(uuid.UUID(payload["id"]))
    except svc_postal.ApiError as error:
        return error_fields(error)
    return {"status": shipment.status, "statusType": type(shipment.status).__name__}


def post_invalid(payload):
    try:
        client().mailings.create(payload["body"])
    except svc_postal.ApiError as error:
        return error_fields(error)
    return {"error": None}


def verify(payload):
    results = []
    for webhook in payload["webhooks"]:
        raw = webhook["raw"].encode("utf-8")
        signature = webhook["signature"]
        t = int(signature.split(",")[0].split("=")[1])
        try:
            event = client(webhook_secrets=payload["secrets"]).webhooks.parse(raw, signature)
            parsed = {"type": str(event.type_), "mailingId": str(event.data.mailing.id)}
        except svc_postal.WebhookSignatureError:
            parsed = None
        results.append(
            {
                "valid": svc_postal.verify_webhook_signature(raw, signature, payload["secrets"]),
                "otherSecret": svc_postal.verify_webhook_signature(raw, signature, "whsec_someoneElse"),
                "tampered": svc_postal.verify_webhook_signature(raw + b" ", signature, payload["secrets"]),
                "tooOld": svc_postal.verify_webhook_signature(raw, signature, payload["secrets"], now=t + 301),
                "justInTime": svc_postal.verify_webhook_signature(raw, signature, payload["secrets"], now=t + 299),
                "parsed": parsed,
            }
        )
    return results


STEPS = {
    "create": create,
    "create-async": create_async,
    "create-bounded": create_bounded,
    "advance": advance,
    "cancel": cancel,
    "list": list_all,
    "get": get,
    "post-invalid": post_invalid,
    "verify": verify,
}

if __name__ == "__main__":
    print(json.dumps(STEPS[sys.argv[1]](json.load(sys.stdin)), default=str))
