"""`variantkit info`: which variantkit runs (version, compiled or pure-Python
build, Python, the compiled modules), for bug reports and for checking a
build.

    variantkit info
"""

from __future__ import annotations

import platform
import sys

import click

import variantkit
from variantkit import compiled
from variantkit.cli.common import cli


@cli.command()
def info() -> None:
    """Show the version, the build (compiled or pure Python) and the Python."""
    if variantkit.BUILD == "compiled":
        running = "compiled (mypyc)"
    else:
        running = f"pure Python ({compiled.pure_reason()})"
    click.echo(f"variantkit {variantkit.__version__}")
    click.echo(f"build: {running}")
    click.echo(f"python: {platform.python_version()} ({sys.executable})")
    click.echo(f"compiled modules: {', '.join(compiled.COMPILED_MODULES)}")
    click.echo(f"{compiled.PURE_VARIABLE}=1 runs the pure-Python build (docs/build.md)")
