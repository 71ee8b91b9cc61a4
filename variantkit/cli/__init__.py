"""The command line: `variantkit COMMAND ...` (also `python -m variantkit`).

VARIANT is a bundled variant name or a path to a variant file everywhere.
The commands only parse arguments and print; the library does the work.
Each module below registers its commands on the shared `cli` group
(`common`), and `commands` gathers them:

- `inspect`: list, validate, perft, moves, show
- `play`: play, selfplay (the built-in engine)
- `author`: new, explain, betza
- `fsf`: import-fsf (Fairy-Stockfish ini sections as variant files)
- `info`: info (the version and which build runs)
- `render`: render (a position as an SVG image)
- `serve`: serve (the playground in the browser)
- `analyze`: analyze (a self-play tournament and its balance report on a
  cluster; `perft --workers` uses its cluster too)

This package imports nothing heavy itself: `main` is what the `variantkit`
command runs first, and a Ctrl-C while the program is still being imported
must end it as a Ctrl-C during a command does (one line, exit status 130),
not with a traceback of the half-done import.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["cli", "main"]

# The shell's status for a program stopped by Ctrl-C, and what it says then.
EXIT_INTERRUPTED = 130
STOPPED = "stopped (Ctrl-C)"


def main() -> None:
    """The `variantkit` program."""
    try:
        if len(sys.argv) == 2 and sys.argv[1] in ("uci", "usi", "xboard"):
            # A GUI waits for the engine's first answer: a protocol session
            # starts without loading the other commands.
            from variantkit.protocols import serve
            serve(sys.argv[1])
        from variantkit.cli.commands import run
    except KeyboardInterrupt:
        sys.stderr.write(f"error: {STOPPED}\n")
        sys.exit(EXIT_INTERRUPTED)
    run()


def __getattr__(name: str) -> Any:
    if name == "cli":   # the click group, for tests and for programs embedding it
        from variantkit.cli.commands import cli
        return cli
    raise AttributeError(f"module 'variantkit.cli' has no attribute {name!r}")
