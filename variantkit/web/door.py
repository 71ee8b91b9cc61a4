"""The playground's door: which requests are let in, how a request's JSON
body is read, and how every answer is written.

Anyone may knock: a web page the user visits can send requests to the local
server, and an exposed server meets any client.  So a request that computes
or changes something must come from the page itself (`Guard`: its host, its
origin, JSON content), its body must arrive in bounded size and time, and it
must be plain JSON: finite numbers of a few digits, real characters (no lone
UTF-16 surrogate, which no text encoding can write back), a few levels deep
(`read_json`).  Every answer is written as ASCII JSON (`Reply`), so that
quoting any input back can never fail to encode.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from variantkit.errors import quote
from variantkit.web.tasks import Answer, failure

MAX_BODY = 256 * 1024   # bytes: the YAML text is capped lower, in `sources`
MAX_HEAD = 16 * 1024    # bytes of the request line and headers together
BODY_SECONDS = 10.0     # to send the body once the head has arrived
MAX_NESTING = 16        # levels of lists and objects in a request
MAX_DIGITS = 20         # digits of a whole number in a request
# Methods that only read: every other one computes or changes something.
READING = ("GET", "HEAD")
# Sec-Fetch-Site values of a request the page itself sends, or the user typed.
OWN_SITES = ("same-origin", "none")
_SURROGATE = re.compile("[\ud800-\udfff]")

T = TypeVar("T")


class Reply(JSONResponse):
    """A JSON answer in ASCII: every other character is escaped (`\\uXXXX`),
    a lone surrogate quoted from a request included, so it always encodes."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


# The rules of a request's own fault: a malformed request, a bad position
# string, an illegal move.
BAD_REQUEST_RULES = frozenset({"bad-request", "bad-position", "illegal-move"})


def status_of(answer: Answer) -> int:
    """The HTTP status of a task's answer: 503 when the server is busy (so
    that a client knows to come back later), 400 when the request itself is
    at fault (BAD_REQUEST_RULES), else 200 (a variant's problems are an
    answer too)."""
    rules = {p.get("rule") for p in answer.get("problems") or []}
    if "busy" in rules:
        return 503
    return 400 if not answer.get("ok", True) and rules & BAD_REQUEST_RULES else 200


def refusal(message: str, rule: str, status: int) -> Reply:
    return Reply(failure(message, rule), status_code=status)


class Guard:
    """ASGI middleware that refuses, with a JSON problem, a request addressed
    to another host name (when `hosts` is given: a page elsewhere that renames
    itself to 127.0.0.1 cannot reach a local server) and a request that
    computes or changes something (POST, DELETE, ...) unless it comes from the
    server's own page: the same origin, and a JSON body (which a page of
    another site cannot send without the browser asking the server first)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str] | None = None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self.refuse(scope) if scope["type"] == "http" else None
        if refused is None:
            await self.app(scope, receive, send)
        else:
            await refused(scope, receive, send)

    def refuse(self, scope: Scope) -> Reply | None:
        head = len(scope["raw_path"]) + len(scope["query_string"]) + sum(
            len(name) + len(value) for name, value in scope["headers"])
        if head > MAX_HEAD:
            return refusal(f"the request's head is longer than {MAX_HEAD // 1024} KiB",
                           "too-large", 431)
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            return refusal(f"this server answers requests addressed to {', '.join(self.hosts)}, "
                           f"not to {quote(host)}", "bad-host", 400)
        if scope["method"] in READING:
            return None
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"{scope['scheme']}://{host}".lower():
            return refusal(f"requests from {quote(origin)} are refused: only this server's own "
                           "page may ask it to compute", "cross-origin", 403)
        site = headers.get("sec-fetch-site")
        if site is not None and site.lower() not in OWN_SITES:
            return refusal(f"requests from another site ({quote(site)}) are refused: only this "
                           "server's own page may ask it to compute", "cross-origin", 403)
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media != "application/json":
            return refusal(f"{quote(scope['method'])} requests must have Content-Type "
                           f"application/json, not {quote(media or 'none')}: only this server's "
                           "own page may ask it to compute", "cross-origin", 403)
        return None


def host_name(host: str) -> str | None:
    """The name in a Host header (`[::1]:8000` -> `::1`), None if it has none."""
    try:
        return urlsplit(f"//{host}").hostname
    except ValueError:
        return None


class Refused(ValueError):
    """A request body that is JSON, but not JSON the playground reads."""


async def read_json(request: Request) -> dict[str, Any] | Reply:
    """The request's JSON object, or the answer refusing it: too long, too
    slow, not JSON, or JSON that holds what no request needs."""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            body = await _body(request)
    except TimeoutError:
        return refusal(f"the request's body did not arrive within {BODY_SECONDS:g} s",
                       "time-limit", 408)
    except ClientDisconnect:  # nobody reads this answer; the server just moves on
        return refusal("the client closed the connection before its request ended",
                       "bad-request", 400)
    if body is None:
        return refusal(f"the request is longer than {MAX_BODY // 1024} KiB", "too-large", 413)
    try:
        data = json.loads(body, parse_constant=_constant, parse_int=_whole, parse_float=_real)
        _check_values(data)
    except Refused as exc:
        return refusal(str(exc), "bad-request", 400)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested beyond the parser
        data = None
    if not isinstance(data, dict):
        return refusal("the request is not a JSON object", "bad-request", 400)
    return data


async def _body(request: Request) -> bytes | None:
    """The body, or None past MAX_BODY bytes (then the rest is not read)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and len(declared) < 20 and int(declared) > MAX_BODY:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


def _constant(name: str) -> Any:
    raise Refused(f"{name} is not a number a request may hold: numbers must be finite")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Refused(f"the number {quote(text)} has more than {MAX_DIGITS} digits")
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(f"the number {quote(text)} is too large: numbers must be finite")
    return value


# Where a value sits in a request, built only when a message needs it: the
# enclosing trail and this step (a key, or an index in a list).
Trail = tuple["Trail", str | int] | None


def _check_values(data: Any) -> None:
    """Refuse nesting deeper than MAX_NESTING and any text (a key or a value)
    holding a lone surrogate; the message names where (`source.bundled`)."""
    stack: list[tuple[Any, Trail, int]] = [(data, None, 0)]
    while stack:
        value, trail, depth = stack.pop()
        if isinstance(value, dict | list) and depth >= MAX_NESTING:
            raise Refused(f"the request's value at {_where(trail)} is nested more than "
                          f"{MAX_NESTING} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                if found := _SURROGATE.search(key):
                    raise _lone(found.group(), f"a key of {_where(trail)}" if trail else "a key")
                stack.append((item, (trail, key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, (trail, i), depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str) and (found := _SURROGATE.search(value)):
            raise _lone(found.group(), f"the text at {_where(trail)}")


def _where(trail: Trail) -> str:
    """`source.bundled`, `moves[3]`: a trail as a message quotes it."""
    steps: list[str | int] = []
    while trail is not None:
        trail, step = trail
        steps.append(step)
    shown = ""
    for step in reversed(steps):
        shown += f"[{step}]" if isinstance(step, int) else f".{step}" if shown else step
    return quote(shown)


def _lone(surrogate: str, what: str) -> Refused:
    return Refused(f"{what} holds a lone UTF-16 surrogate (\\u{ord(surrogate):04x}), which is "
                   "not a character")


async def unless_gone(request: Request, work: Awaitable[T]) -> T | None:
    """The work's result; or None, the work cancelled, as soon as the client
    closes its connection (nobody would read the answer)."""
    job = asyncio.ensure_future(work)
    watch = asyncio.ensure_future(_gone(request))
    try:
        await asyncio.wait({job, watch}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # the server itself is stopping this request
        job.cancel()
        raise
    finally:
        watch.cancel()
    if job.done():
        return job.result()
    job.cancel()
    await asyncio.wait({job})  # its clean-up (ending a worker) runs before we answer
    return None


async def _gone(request: Request) -> None:
    """Returns when the client has closed the connection (read after the body)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
