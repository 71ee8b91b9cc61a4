"""The whole program: every command module registered on the shared `cli`
group (each module's import registers its commands), and `run`, which
starts it.  `variantkit.cli.main` imports this module behind its Ctrl-C
guard."""

from __future__ import annotations

from variantkit.cli import (  # noqa: F401  (registers their commands)
    analyze,
    author,
    engine,
    fsf,
    info,
    inspect,
    play,
    render,
    serve,
)
from variantkit.cli.common import cli
from variantkit.cli.common import main as run

__all__ = ["cli", "run"]
