"""The import-fsf and export-fsf commands: Fairy-Stockfish ini sections
written as variant files, and a variant written as an ini section.

    variantkit import-fsf FILE.ini [SECTION ...] --out DIR [--force]
    variantkit export-fsf VARIANT|FILE [-o FILE.ini] [--section NAME] [--force]

One `SECTION.yaml` per section that imports (all sections, or those named).
A section the language cannot express is listed with the key and its line
(`variants.ini:412: flipEnclosedPieces = ataxx: not supported`), keys
Fairy-Stockfish would silently ignore are listed as warnings with their line;
the command fails only when no section could be imported.

export-fsf prints the section (or writes it to `-o`); a variant that
Fairy-Stockfish cannot express is refused with one line per reason
(`shogi: promotion: promotes-to: ...`) and exit status 1.
"""

from __future__ import annotations

from pathlib import Path

import click

from variantkit.cli.common import (
    EXIT_ERROR,
    EXIT_UNREADABLE,
    check_output,
    cli,
    fail,
    force_option,
    input_files,
    load_variant,
    write_output,
)
from variantkit.errors import Problem, quote
from variantkit.fsf import ExportRefused, IniError, export_ini, import_ini
from variantkit.fsf.ini import MAX_INI_CHARS
from variantkit.limits import read_named_file


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
        return read_named_file(path, MAX_INI_CHARS)
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


@cli.command("export-fsf")
@click.argument("variant")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False),
              help="Write the section to this file instead of printing it.")
@click.option("--section", "section", default=None,
              help="The section's name (default: the variant's; Fairy-Stockfish ignores a "
                   "section named as one of its own variants).")
@force_option
def export_fsf(variant: str, output: str | None, section: str | None, force: bool) -> None:
    """Write a variant as a Fairy-Stockfish ini section, or list why it cannot be."""
    loaded = load_variant(variant)
    check_output(output, input_files(loaded), "w" if force else "x")
    try:
        text = export_ini(loaded, section)
    except ExportRefused as refused:
        for reason in refused.reasons:
            click.echo(f"{refused.name}: {reason}", err=True)
        fail(f"{refused.name} cannot be written for Fairy-Stockfish "
             f"({len(refused.reasons)} reason{'s' if len(refused.reasons) > 1 else ''})",
             EXIT_ERROR)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_output(output, text, "w" if force else "x")
