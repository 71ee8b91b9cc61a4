"""Fairy-Stockfish's variant configuration files (ini) read into variant YAML.

    >>> from variantkit.fsf import import_ini
    >>> result = import_ini("[mini:chess]\\nmustCapture = true\\n")
    >>> print(result["mini"].splitlines()[-1])
    must-capture: true

`import_ini(text)` maps each section's name to its YAML text, or to the list
of problems that keep it out (a key the language cannot express, a parent
that is not bundled), each located at its ini line; `result.warnings` lists
the keys Fairy-Stockfish would silently ignore.  Modules: `ini` (reading the
format), `keys` (the table of keys), `importer` (one section to YAML),
`exporter` (a variant to one section).

The other way, `export_ini(variant)` writes a variant (a `Variant`, a
bundled name or a file) as one ini section, or raises `ExportRefused`
whose `reasons` list every rule Fairy-Stockfish cannot express.
"""

from __future__ import annotations

from pathlib import Path

from variantkit.errors import Problem
from variantkit.fsf.exporter import ExportRefused, export_section
from variantkit.fsf.importer import check_keys, import_section, settings_of
from variantkit.fsf.ini import IniError, chain, read_ini
from variantkit.variant import Variant, load

__all__ = ["ExportRefused", "ImportResult", "IniError", "export_ini", "import_ini"]


class ImportResult(dict[str, str | list[Problem]]):
    """Section name -> YAML text, or the problems that keep it out; with
    `warnings` (unknown keys, ignored lines) that did not stop a section."""

    def __init__(self) -> None:
        super().__init__()
        self.warnings: list[Problem] = []
        self.errors: list[Problem] = []   # problems of the file itself


def import_ini(text: str | bytes, source: str = "<ini>",
               sections: list[str] | None = None) -> ImportResult:
    """Import every section of an ini text (or only those named).

    Raises `IniError` for a text refused as a whole (too large, binary)."""
    ini = read_ini(text, source)
    result = ImportResult()
    result.errors = [p for p in ini.problems if p.severity == "error"]
    result.warnings = [p for p in ini.problems if p.severity == "warning"]
    wanted = list(ini.sections) if sections is None else sections
    for name in wanted:
        if name not in ini.sections:
            result[name] = [Problem(f"no section [{name}]", "fsf-no-section", source)]
            continue
        found, root, problem = chain(ini, name)
        if problem is not None:
            result[name] = [problem]
            continue
        result.warnings += [p for p in check_keys(ini, ini.sections[name],
                                                  settings_of(found, root))
                            if p.severity == "warning"]
        result[name] = import_section(ini, name, found, root)
    return result


def export_ini(variant: Variant | str | Path, section: str | None = None) -> str:
    """One variant as a Fairy-Stockfish ini section (named `section`, by
    default as the variant).

    Raises `ExportRefused` (its `reasons`, one line each) for a variant
    Fairy-Stockfish cannot play as declared, and `VariantError` for a name
    or file that does not load."""
    if not isinstance(variant, Variant):
        variant = load(variant)
    return export_section(variant, section)
