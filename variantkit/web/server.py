"""How the playground is served: uvicorn's configuration, with the limits
that keep slow or idle clients from holding the server.

uvicorn (with h11) waits for a request's head for as long as the client
takes to send it, and keeps every connection it has accepted; so a client
that opens many connections and sends a byte now and then would hold them
for ever.  `protocol()` gives uvicorn's HTTP protocol with a clock: a
connection must deliver each request whole (head and body) within
REQUEST_SECONDS of opening or of the previous answer, or it is closed; and
when MAX_CONNECTIONS are open, a new connection first closes the one that has
been sending its request the longest, so held sockets cannot crowd out
a real client.
"""

from __future__ import annotations

import asyncio
import json

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from variantkit.web.tasks import failure

REQUEST_SECONDS = 15.0      # to send one request whole (`door` gives the body 10 s)
KEEP_ALIVE_SECONDS = 5      # an idle connection is closed after this
MAX_CONNECTIONS = 200       # open at once; then the slowest sender is dropped
# Bytes of a request head that has not arrived whole: past it, h11 answers
# 400 (a head that arrives whole is measured by `door.MAX_HEAD`).
MAX_HEAD_BUFFER = 64 * 1024
STOP_SECONDS = 5            # Ctrl-C: requests still running after this are dropped


def config(app: ASGIApp) -> uvicorn.Config:
    """uvicorn's configuration for serving `app` with the limits above."""
    return uvicorn.Config(app, http=protocol(), log_level="warning",
                          timeout_keep_alive=KEEP_ALIVE_SECONDS,
                          h11_max_incomplete_event_size=MAX_HEAD_BUFFER,
                          timeout_graceful_shutdown=STOP_SECONDS)


def protocol() -> type[H11Protocol]:
    """uvicorn's h11 protocol with a clock on each request's arrival (one
    class for each server: the connections still sending are its own)."""
    sending: dict[H11Protocol, None] = {}  # connections still sending a request, oldest first

    class TimedProtocol(H11Protocol):
        """Closes a connection that takes longer than REQUEST_SECONDS to send a
        request, and the slowest one when too many are open."""

        late: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > MAX_CONNECTIONS:
                oldest = next(iter(sending), self)
                oldest.transport.close()
            self.watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self.watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.watch()

        def send_400_response(self, msg: str) -> None:
            """uvicorn's answer to what is not HTTP/1.1 (or a head past
            MAX_HEAD_BUFFER), as a JSON problem like every other answer."""
            body = json.dumps(failure("the request is not valid HTTP/1.1 (or its head is too "
                                      "long)", "bad-request")).encode("ascii")
            headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
                       (b"content-length", str(len(body)).encode("ascii"))]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                          h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event) or b"")
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            self.stop_clock()

        def watch(self) -> None:
            """Start the clock when the client begins a request, stop it once
            the request has arrived whole."""
            arriving = self.conn.their_state in (h11.IDLE, h11.SEND_BODY)
            if arriving and self.late is None and not self.transport.is_closing():
                self.late = self.loop.call_later(REQUEST_SECONDS, self.transport.close)
                sending[self] = None
            elif not arriving:
                self.stop_clock()

        def stop_clock(self) -> None:
            if self.late is not None:
                self.late.cancel()
                self.late = None
            sending.pop(self, None)

    return TimedProtocol
