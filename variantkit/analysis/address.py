"""The address of a Dask scheduler, read from the user (`--cluster`, or
Dask's `scheduler-address` setting) and checked before anything connects.

Only plain TCP is accepted, written `tcp://HOST:PORT` or `HOST:PORT`: the
other transports Dask knows either need settings variantkit does not make
(`tls://` needs certificates), a library not installed (`ucx://`), or only
work inside one process (`inproc://`).  HOST is a name, an IPv4 address or
an IPv6 address in brackets; PORT is from 1 to 65535.  Anything else is
refused here with a message saying what is wrong, so that a typing mistake
never reaches Dask's own parser (whose errors are not meant for users).
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from variantkit.errors import quote

MAX_ADDRESS = 300   # characters: a host name has at most 253, a port 5, the scheme 6
DEFAULT_PORT = 8786  # the port `dask scheduler` listens on unless told otherwise
# A host name: dot-separated labels of letters, digits and hyphens.
HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")
WHY_NOT = {
    "tls": "tls:// needs certificates (Dask's distributed.comm.tls settings), which "
           "variantkit does not set up",
    "ucx": "ucx:// needs the UCX library, which variantkit does not install",
    "inproc": "inproc:// reaches only a scheduler inside this same process",
    "ws": "ws:// is Dask's WebSocket transport, which variantkit does not use",
    "wss": "wss:// is Dask's WebSocket transport, which variantkit does not use",
    "http": "http:// is a web address (a dashboard?), not a scheduler's",
    "https": "https:// is a web address (a dashboard?), not a scheduler's",
}


class AddressError(ValueError):
    """An address that is not a scheduler address variantkit can use."""


@dataclass(frozen=True)
class SchedulerAddress:
    """A checked scheduler address: a host (name or IP address) and a port."""

    host: str
    port: int

    @property
    def uri(self) -> str:
        """The address as Dask writes it: `tcp://host:port`, brackets around
        an IPv6 address."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"tcp://{host}:{self.port}"

    def __str__(self) -> str:
        return self.uri


def parse_address(text: str, given_as: str = "--cluster") -> SchedulerAddress:
    """`text` as a scheduler address, or an `AddressError` whose message
    starts with `given_as` (where the text came from)."""
    example = f"such as tcp://127.0.0.1:{DEFAULT_PORT}"
    if not text:
        raise AddressError(f"{given_as} needs the address of a Dask scheduler, {example}")
    if len(text) > MAX_ADDRESS:
        raise AddressError(f"{given_as} {quote(text)} is too long for an address "
                           f"(at most {MAX_ADDRESS} characters)")
    if not (text.isascii() and text.isprintable()) or " " in text:
        raise AddressError(f"{given_as} {quote(text)} is not an address: it may hold only "
                           f"letters, digits and punctuation, {example}")
    scheme, separator, rest = text.partition("://")
    if not separator:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme != "tcp":
        why = WHY_NOT.get(scheme, f"{scheme}:// is not a transport variantkit can use")
        raise AddressError(f"{given_as} {quote(text)}: {why}; give a tcp:// address, {example}")
    host, port = _host_and_port(rest, f"{given_as} {quote(text)}", example)
    return SchedulerAddress(host, port)


def _host_and_port(rest: str, what: str, example: str) -> tuple[str, int]:
    if rest.startswith("["):
        inside, bracket, after = rest[1:].partition("]")
        if not bracket:
            raise AddressError(f"{what}: an IPv6 address must end with ']', "
                               f"as in tcp://[::1]:{DEFAULT_PORT}")
        host, colon, port_text = inside, after[:1], after[1:]
        if after and colon != ":":
            raise AddressError(f"{what}: ':PORT' must follow the ']' of an IPv6 address")
        try:
            host = str(ipaddress.IPv6Address(host))
        except ValueError:
            raise AddressError(f"{what}: {quote(host)} is not an IPv6 address") from None
    else:
        host, colon, port_text = rest.rpartition(":")
        if not colon:
            host, port_text = rest, ""
        if ":" in host:
            raise AddressError(f"{what}: write an IPv6 address in brackets, "
                               f"as in tcp://[::1]:{DEFAULT_PORT}")
        if not host:
            raise AddressError(f"{what} has no host: give the scheduler's, {example}")
        if len(host) > 253 or not HOST_NAME.fullmatch(host):
            raise AddressError(f"{what}: {quote(host)} is not a host name or an IP address")
    if not port_text:
        raise AddressError(f"{what} has no port: give the scheduler's port, {example}")
    if not (port_text.isdigit() and len(port_text) <= 5 and 1 <= int(port_text) <= 65535):
        raise AddressError(f"{what}: the port must be a number from 1 to 65535, "
                           f"not {quote(port_text)}")
    return host, int(port_text)
