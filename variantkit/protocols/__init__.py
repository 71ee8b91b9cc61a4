"""The engine protocols: the built-in engine behind UCI, CECP (xboard)
and USI, and drivers that talk to external engines through them.

`serve(name)` runs one session of a protocol on standard input and output
and ends the process; `variantkit uci|usi|xboard` comes here without
loading the rest of the command line, so that a GUI gets its first answer
at once."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

# The protocols the built-in engine speaks, by the command that starts each.
PROTOCOLS = ("uci", "usi", "xboard")


def serve(name: str) -> NoReturn:
    """Run a session of protocol `name` (one of PROTOCOLS) and end the
    process with its status at once: a variant still compiling when `quit`
    came must not hold the process up, and an output the GUI closed must
    not be flushed again (which would print a traceback) as Python exits."""
    try:
        if name == "xboard":
            from variantkit.protocols.xboard import serve as cecp
            status = cecp()
        else:
            from variantkit.protocols.uci import serve as uci
            from variantkit.protocols.usi import UsiDialect
            status = uci(UsiDialect() if name == "usi" else None)
    except Exception as exc:  # a bug: one line, as every command reports one
        from variantkit.cli.common import internal_error
        internal_error(exc)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # closed by the GUI
            stream.flush()
    os._exit(status)
