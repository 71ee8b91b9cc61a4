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
the server, and is cancelled when its client goes away; what may come in at
all is `door`'s business.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from variantkit.errors import quote
from variantkit.web.door import Guard, Reply, read_json, refusal, status_of, unless_gone
from variantkit.web.sources import catalogue
from variantkit.web.tasks import TASKS, failure, unknown_fields
from variantkit.web.workers import WORKERS, Pool, Searches, tidy_forever

STATIC = Path(__file__).resolve().parent / "static"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
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


Endpoint = Callable[[Request], Awaitable[Response]]


def answered_while_stopping(endpoint: Endpoint) -> Endpoint:
    """`endpoint`, answering `busy` (503) when the server stops under it: on
    Ctrl-C uvicorn gives running requests a few seconds (`server.STOP_SECONDS`),
    then cancels them, and a request cancelled there would end in a traceback
    instead of an answer."""

    async def answering(request: Request) -> Response:
        try:
            return await endpoint(request)
        except asyncio.CancelledError:  # the request ends here: nothing above waits for it
            return refusal("the server is stopping", "busy", 503)

    return answering


def create_app(host: str = "127.0.0.1", workers: int = WORKERS) -> Starlette:
    """The application.  Bound to a local address, it answers only requests
    addressed to a local host name (a page elsewhere cannot reach it by
    rebinding a name of its own to 127.0.0.1); whatever the address, only
    its own page may ask it to compute (`door.Guard`)."""
    pool = Pool(workers)
    searches = Searches()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(pool.warm)
        tidying = asyncio.create_task(tidy_forever(pool, searches))
        try:
            yield
        finally:
            tidying.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await tidying
            searches.close()
            pool.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def variants(request: Request) -> Response:
        return Reply({"ok": True, "variants": catalogue()})

    async def task(request: Request) -> Response:
        name = request.path_params["task"]
        if name not in TASKS:
            return refusal(f"no task {quote(name)} (there are: {', '.join(TASKS)})",
                           "not-found", 404)
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        unknown = unknown_fields(name, body)
        if unknown is not None:
            return Reply(unknown, status_code=400)
        answer = await unless_gone(request, pool.call(name, body))
        if answer is None:  # the client has gone: nobody reads this
            return Response(status_code=204)
        return Reply(answer, status_code=status_of(answer))

    async def start_search(request: Request) -> Response:
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        unknown = unknown_fields("search", body)
        if unknown is not None:
            return Reply(unknown, status_code=400)
        answer = await run_in_threadpool(searches.start, body)
        return Reply(answer, status_code=status_of(answer))

    async def search(request: Request) -> Response:
        key = request.path_params["key"]
        if request.method == "DELETE":
            return Reply(await run_in_threadpool(searches.stop, key))
        return Reply(await run_in_threadpool(searches.poll, key))

    async def http_problem(request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (no such page, a method a route does not
        take) as JSON problems too."""
        assert isinstance(exc, HTTPException)
        rule = "not-found" if exc.status_code == 404 else "bad-request"
        return Reply(failure(f"{exc.detail}: {request.method} {quote(request.url.path)}", rule),
                     status_code=exc.status_code, headers=exc.headers)

    hosts = LOCAL_HOSTS if host in LOCAL_HOSTS or host == "[::1]" else None
    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/variants", variants),
            Route("/api/search", answered_while_stopping(start_search), methods=["POST"]),
            Route("/api/search/{key}", search, methods=["GET", "DELETE"]),
            Route("/api/{task}", answered_while_stopping(task), methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(SecurityHeaders), Middleware(Guard, hosts=hosts)],
        exception_handlers={HTTPException: http_problem},
        lifespan=lifespan,
    )
