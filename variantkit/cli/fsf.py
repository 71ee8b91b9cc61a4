"""The import-fsf command: Fairy-Stockfish ini sections written as variant files.

    variantkit import-fsf FILE.ini [SECTION ...] --out DIR [--force]

One `SECTION.yaml` per section that imports (all sections, or those named).
A section the language cannot express is listed with the key and its line
(`variants.ini:412: flipEnclosedPieces = ataxx: not supported`), keys
Fairy-Stockfish would silently ignore are listed as warnings with their line;
the command fails only when no section could be imported.
"""

from __future__ import annotations

from pathlib import Path

import click

from variantkit.cli.common import EXIT_UNREADABLE, cli, fail, force_option, write_output
from variantkit.errors import Problem, quote
from variantkit.fsf import IniError, import_ini
from variantkit.fsf.ini import MAX_INI_CHARS


def line_of(problem: Problem, section: str | None = None) -> str:
    """`file:line: message`, the way compilers point at a line."""
    where = problem.file or "<ini>"
    if problem.line is not None:
        where += f":{problem.line}"
    kind = "warning: " if problem.severity == "warning" else ""
    tail = f" ([{section}] not imported)" if section else ""
    return f"{where}: {kind}{problem.message}{tail}"


def read_bounded(path: str) -> bytes:
    """At most one byte more than the largest ini text accepted."""
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_INI_CHARS + 1)
    except OSError as exc:
        fail(f"cannot read {quote(path)}: {exc.strerror or exc}", EXIT_UNREADABLE)


@cli.command("import-fsf")
@click.argument("ini_file", metavar="FILE.ini")
@click.argument("sections", nargs=-1)
@click.option("--out", "out", required=True, type=click.Path(file_okay=False),
              help="Folder for the SECTION.yaml files (created if missing).")
@force_option
def import_fsf(ini_file: str, sections: tuple[str, ...], out: str, force: bool) -> None:
    """Import Fairy-Stockfish ini sections as variant files, one SECTION.yaml each."""
    data = read_bounded(ini_file)
    try:
        result = import_ini(data, Path(ini_file).name, list(sections) or None)
    except IniError as error:
        fail(line_of(error.problem))
    for problem in result.errors + result.warnings:
        click.echo(line_of(problem), err=True)
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create {quote(out)}: {exc.strerror or exc}")
    written = 0
    for name, outcome in result.items():
        if not isinstance(outcome, str):
            for problem in outcome:
                click.echo(line_of(problem, name), err=True)
            continue
        target = folder / f"{name}.yaml"
        if target.exists() and not force:
            click.echo(f"{target}: exists already ([{name}] not written; --force replaces it)",
                       err=True)
            continue
        write_output(str(target), outcome, "w")
        written += 1
    click.echo(f"imported {written} of {len(result)} sections into {out}")
    if written == 0:
        fail("no section could be imported")
