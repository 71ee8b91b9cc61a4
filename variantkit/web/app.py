"""The playground's web application (Starlette): the page, its files and a
small JSON API.

    GET  /                      the page (`/?variant=NAME` opens a variant)
    GET  /static/...            its script and style sheet
    GET  /api/variants          the bundled variants and the examples
    POST /api/TASK              position, source, perft, explain, pgn
    POST /api/search            start the engine; answers {"id": ...}
    GET  /api/search/ID         its progress (depth, evaluation, main line)
    DELETE /api/search/ID       stop it

Requests are JSON objects; every answer has `ok` and, when something is
wrong, `problems` (records with line, column, rule and message).  The work
itself is done in child processes (`workers`), so a request never blocks
the server; request bodies are capped.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from variantkit.web.sources import catalogue
from variantkit.web.tasks import TASKS, failure
from variantkit.web.workers import Pool, Searches

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 256 * 1024  # bytes: the YAML text is capped lower, in `sources`
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
# The page runs only its own script; the boards are inline SVG.
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
     b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Adds HEADERS to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(host: str = "127.0.0.1", workers: int = 2) -> Starlette:
    """The application.  Bound to a local address, it answers only requests
    addressed to a local host name (a page elsewhere cannot reach it by
    rebinding a name of its own to 127.0.0.1)."""
    pool = Pool(workers)
    searches = Searches()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(pool.warm)
        try:
            yield
        finally:
            searches.close()
            pool.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def variants(request: Request) -> Response:
        return JSONResponse({"ok": True, "variants": catalogue()})

    async def task(request: Request) -> Response:
        name = request.path_params["task"]
        if name not in TASKS:
            return JSONResponse(failure(f"no task '{name}'", "bad-request"), status_code=404)
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        return JSONResponse(await run_in_threadpool(pool.call, name, body))

    async def start_search(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        return JSONResponse(await run_in_threadpool(searches.start, body))

    async def search(request: Request) -> Response:
        key = request.path_params["key"]
        if request.method == "DELETE":
            return JSONResponse(await run_in_threadpool(searches.stop, key))
        return JSONResponse(await run_in_threadpool(searches.poll, key))

    middleware = [Middleware(SecurityHeaders)]
    if host in LOCAL_HOSTS:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(LOCAL_HOSTS)))
    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/variants", variants),
            Route("/api/search", start_search, methods=["POST"]),
            Route("/api/search/{key}", search, methods=["GET", "DELETE"]),
            Route("/api/{task}", task, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=middleware,
        lifespan=lifespan,
    )


async def _json_body(request: Request) -> dict[str, Any] | Response:
    """The request's JSON object, or the answer refusing it (too long, not JSON)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return JSONResponse(failure(f"the request is longer than {MAX_BODY // 1024} KiB",
                                        "too-large"), status_code=413)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        return JSONResponse(failure("the request is not a JSON object", "bad-request"),
                            status_code=400)
    return data
