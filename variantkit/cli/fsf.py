"""The import-fsf and export-fsf commands: Fairy-Stockfish ini sections
written as variant files, and a variant written as an ini section.

    variantkit import-fsf FILE.ini [SECTION ...] --out DIR [--force]
    variantkit export-fsf VARIANT|FILE [-o FILE.ini] [--section NAME] [--force]
                          [--fsf-version current|11.1]

One `SECTION.yaml` per section that imports (all sections, or those named).
A section the language cannot express is listed with the key and its line
(`variants.ini:412: flipEnclosedPieces = ataxx: not supported`), keys
Fairy-Stockfish would silently ignore are listed as warnings with their line;
the command fails only when no section could be imported.

export-fsf prints the section (or writes it to `-o`); a variant that
Fairy-Stockfish cannot express is refused with one line per reason
(`shogi: promotion: promotes-to: ...`) and exit status 1.  `--fsf-version
11.1` writes it for Debian's package, which reads older key names and has
no custom pieces (it crashes on a section that has one): what it cannot
play is refused the same way.

Both commands write only regular files, never through a symbolic link
(a link planted at `OUT/alpha.yaml` could point anywhere), and never onto
the file they read.
"""

from __future__ import annotations

import errno
import os
import stat
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
)
from variantkit.errors import Problem, quote
from variantkit.fsf import ExportRefused, IniError, export_ini, import_ini
from variantkit.fsf.exporter import VERSIONS
from variantkit.fsf.ini import MAX_INI_CHARS, one_line
from variantkit.limits import read_named_file


def line_of(problem: Problem, section: str | None = None) -> str:
    """`file:line: message`, the way compilers point at a line."""
    where = one_line(problem.file or "<ini>")
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


LINK = "a symbolic link: outputs are never written through one"
EXISTS = "exists already (--force replaces it)"


def write_own_file(path: Path, text: str, replace: bool, reading: str | None = None) -> str | None:
    """Write `text` to `path` as a regular file, replacing one there only
    when `replace`; never through a symbolic link, never into a FIFO or a
    device, never onto the file `reading` names.  The reason it was not
    written, or None."""
    try:
        found: os.stat_result | None = path.lstat()
    except FileNotFoundError:
        found = None
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        if found is not None:
            if stat.S_ISLNK(found.st_mode):
                return LINK
            if reading is not None and os.path.samestat(found, os.stat(reading)):
                return "the file being read"
            if not replace:
                return EXISTS
        # O_NOFOLLOW and O_EXCL hold even if a link appears after the checks;
        # O_NONBLOCK keeps a FIFO nobody reads from blocking the open.
        flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | \
            (os.O_TRUNC if replace else os.O_EXCL)
        fd = os.open(path, flags, 0o666)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return "not a regular file"
            handle.write(text)
    except OSError as exc:
        return {errno.ELOOP: LINK, errno.EEXIST: EXISTS,
                errno.ENXIO: "not a regular file"}.get(exc.errno or 0, exc.strerror or str(exc))
    return None


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
        refused = write_own_file(target, outcome, force, ini_file)
        if refused is not None:
            click.echo(f"{target}: {refused} ([{name}] not written)", err=True)
            continue
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
@click.option("--fsf-version", "version", type=click.Choice(VERSIONS), default="current",
              show_default=True,
              help="The Fairy-Stockfish to write for: 11.1 is Debian's package, which reads "
                   "older key names and has no custom pieces.")
@force_option
def export_fsf(variant: str, output: str | None, section: str | None, force: bool,
               version: str) -> None:
    """Write a variant as a Fairy-Stockfish ini section, or list why it cannot be."""
    loaded = load_variant(variant)
    check_output(output, input_files(loaded), "w" if force else "x")
    try:
        text = export_ini(loaded, section, version)
    except ExportRefused as refused:
        for reason in refused.reasons:
            click.echo(f"{refused.name}: {reason}", err=True)
        target = "" if version == "current" else f" {version}"
        fail(f"{refused.name} cannot be written for Fairy-Stockfish{target} "
             f"({len(refused.reasons)} reason{'s' if len(refused.reasons) > 1 else ''})",
             EXIT_ERROR)
    if output is None:
        click.echo(text, nl=False)
        return
    problem = write_own_file(Path(output), text, force)
    if problem is not None:
        fail(f"cannot write {quote(output)}: {problem}")
