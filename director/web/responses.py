"""Answers every route shares: a refusal in one sentence, the JSON body of a write."""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

BODY_LIMIT = 16_384  # a slip is a few hundred bytes
FAILED = "the table service could not answer this; the director's app has logged it"


def refusal(status: int, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a 400 with one clear sentence."""
    raw = await request.body()  # the guard refuses a body past BODY_LIMIT as it arrives
    try:
        data = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):  # 8,000 nested "[": too deep
        raise HTTPException(400, "the request is not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request must be a JSON object")
    return data
