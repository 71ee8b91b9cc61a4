"""The command line: `variantkit COMMAND ...` (also `python -m variantkit`).

VARIANT is a bundled variant name or a path to a variant file everywhere.
The commands only parse arguments and print; the library does the work.
Each module below registers its commands on the shared `cli` group:

- `inspect`: list, validate, perft, moves, show
- `play`: play, selfplay (the built-in engine)
- `author`: new, explain, betza
- `fsf`: import-fsf (Fairy-Stockfish ini sections as variant files)
- `info`: info (the version and which build runs)
- `render`: render (a position as an SVG image)
- `serve`: serve (the playground in the browser)
- `analyze`: analyze (a self-play tournament and its balance report on a
  cluster; `perft --workers` uses its cluster too)
"""

from __future__ import annotations

from variantkit.cli import (  # noqa: F401  (registers their commands)
    analyze,
    author,
    fsf,
    info,
    inspect,
    play,
    render,
    serve,
)
from variantkit.cli.common import cli, main

__all__ = ["cli", "main"]
