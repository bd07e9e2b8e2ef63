"""Schemathesis hooks for .ci/schemathesis.sh: the two values the OpenAPI document cannot describe.

- `cursor` (GET /v1/mailings, GET /v1/mailing-batches, GET /v1/requests) is a sealed token that only the API makes: the
  document says "the previous page's nextCursor"; any other well-formed string is 400
  invalid_cursor, as SPEC.md requires. A positive case drops it (the first page).
- `insee` (GET /v1/fuel/stations) must be a current commune: the document gives its pattern, the
  35,000 codes are not listed; an unknown one is 400. A positive case gets Lyon's code.

Negative cases are left alone, so the refusals are still exercised.
"""
import re

import schemathesis
from schemathesis import GenerationMode

INSEE = re.compile(r"^(\d{5}|2[AB]\d{3})$")


@schemathesis.hook
def map_case(context, case):
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE or not isinstance(case.query, dict):
        return case
    path = case.operation.path
    if path in ("/v1/mailings", "/v1/mailing-batches", "/v1/requests"):
        case.query.pop("cursor", None)
    if path == "/v1/fuel/stations" and isinstance(case.query.get("insee"), str) and INSEE.match(case.query["insee"]):
        case.query["insee"] = "69123"
    return case
