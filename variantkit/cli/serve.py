"""`variantkit serve`: the playground in the browser (see `variantkit.web`)."""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import threading
import webbrowser

import click

from variantkit.cli.common import cli, fail


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port; a clear error when it cannot."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family, backlog=64)
    except socket.gaierror as exc:
        fail(f"cannot listen on {host}: {exc.strerror or exc}")
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            fail(f"cannot listen on {host}:{port}: the port is in use by another program "
                 "(choose another --port)")
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        fail(f"cannot listen on {host}:{port}: {reason}")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on.  Anything but a local address lets other machines "
                   "use the playground: see docs/playing.md.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on; 0 picks a free one.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
def serve(host: str, port: int, open_browser: bool) -> None:
    """Play, edit and check variants in the browser (Ctrl-C stops it)."""
    import uvicorn

    from variantkit.web import create_app
    from variantkit.web.server import config

    sock = listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    server = uvicorn.Server(config(create_app(host)))
    click.echo(f"variantkit playground: {url}  (Ctrl-C stops it)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    # uvicorn shuts down on Ctrl-C, then raises it again: that is how it ends.
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    click.echo("variantkit playground stopped")
