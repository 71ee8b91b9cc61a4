"""Fairy-Stockfish's variant configuration files (ini) read into variant YAML.

    >>> from variantkit.fsf import import_ini
    >>> result = import_ini("[mini:chess]\\nmustCapture = true\\n")
    >>> print(result["mini"].splitlines()[-1])
    must-capture: true

`import_ini(text)` maps each section's name to its YAML text, or to the list
of problems that keep it out (a key the language cannot express, a parent
that is not bundled), each located at its ini line; `result.warnings` lists
the keys Fairy-Stockfish would silently ignore.  The whole import has a
budget, `IMPORT_UNITS` units of work compiling sections by default (a caller
may pass a smaller `variantkit.limits.Budget`, or one with a deadline).
Modules: `ini` (reading the format), `keys` (the table of keys), `importer`
(one section to YAML), `exporter` (a variant to one section).

The other way, `export_ini(variant)` writes a variant (a `Variant`, a
bundled name or a file) as one ini section, or raises `ExportRefused`
whose `reasons` list every rule Fairy-Stockfish cannot express.
"""

from __future__ import annotations

from pathlib import Path

from variantkit.errors import Problem, VariantError
from variantkit.fsf.exporter import ExportRefused, export_section
from variantkit.fsf.importer import check_keys, import_section, settings_of
from variantkit.fsf.ini import IMPORT_UNITS, SECTION_UNITS, IniError, Section, chain, read_ini
from variantkit.limits import Budget
from variantkit.variant import Variant, load

__all__ = ["IMPORT_UNITS", "ExportRefused", "ImportResult", "IniError", "export_ini",
           "import_ini"]


class ImportResult(dict[str, str | list[Problem]]):
    """Section name -> YAML text, or the problems that keep it out; with
    `warnings` (unknown keys, ignored lines) that did not stop a section."""

    def __init__(self) -> None:
        super().__init__()
        self.warnings: list[Problem] = []
        self.errors: list[Problem] = []   # problems of the file itself


def import_ini(text: str | bytes, source: str = "<ini>", sections: list[str] | None = None,
               budget: Budget | None = None) -> ImportResult:
    """Import every section of an ini text (or only those named).

    Compiling the sections spends from `budget`, by default `IMPORT_UNITS`
    units of work for the whole text (a `Budget` with `seconds` adds a
    deadline).  Where it runs out, that section and the ones after it are
    not imported, each with a problem saying so, and `result.errors` names
    the section where it ran out and how many were imported before it.

    Raises `IniError` for a text refused as a whole (too large, binary)."""
    ini = read_ini(text, source)
    budget = Budget(IMPORT_UNITS, source=source) if budget is None else budget
    units = budget.units
    result = ImportResult()
    result.errors = [p for p in ini.problems if p.severity == "error"]
    result.warnings = [p for p in ini.problems if p.severity == "warning"]
    wanted = list(ini.sections) if sections is None else list(dict.fromkeys(sections))
    ran_out: Section | None = None      # the section being imported when the budget ran out
    for name in wanted:
        if name not in ini.sections:
            result[name] = [Problem(f"no section [{name}]", "fsf-no-section", source)]
            continue
        section = ini.sections[name]
        if ran_out is None and not afford(budget, SECTION_UNITS):
            ran_out = section
        if ran_out is not None:
            result[name] = [Problem(f"not imported: the import's budget ran out at "
                                    f"[{ran_out.name}] (line {ran_out.line})", "fsf-budget",
                                    source, section.line)]
            continue
        found, root, problem = chain(ini, name)
        if problem is not None:
            result[name] = [problem]
            continue
        result.warnings += [p for p in check_keys(ini, section, settings_of(found, root))
                            if p.severity == "warning"]
        outcome = import_section(ini, name, found, root, budget)
        if isinstance(outcome, list) and not afford(budget, 0):
            ran_out = section
            outcome = [Problem("not imported: the import's budget ran out here", "fsf-budget",
                               source, section.line)]
        result[name] = outcome
    if ran_out is not None:
        imported = sum(isinstance(outcome, str) for outcome in result.values())
        after = len(wanted) - wanted.index(ran_out.name) - 1
        limit = f"{budget.seconds:g} s" if budget.seconds is not None and budget.units > 0 \
            else f"{units:,} units of work"
        result.errors.append(Problem(
            f"the import's budget ({limit}) ran out at [{ran_out.name}]: {imported} sections "
            f"imported before it, it and the {after} after it not imported", "fsf-budget",
            source, ran_out.line))
    return result


def afford(budget: Budget, units: int) -> bool:
    """Whether `budget` pays `units` (0: whether it is not overspent) and
    has time left."""
    try:
        budget.spend(units)
    except VariantError:
        return False
    return True


def export_ini(variant: Variant | str | Path, section: str | None = None,
               version: str = "current") -> str:
    """One variant as a Fairy-Stockfish ini section (named `section`, by
    default as the variant), for the current Fairy-Stockfish or, with
    `version="11.1"`, for Debian's package, which reads older key names and
    has no custom pieces.

    Raises `ExportRefused` (its `reasons`, one line each) for a variant
    Fairy-Stockfish cannot play as declared, and `VariantError` for a name
    or file that does not load."""
    if not isinstance(variant, Variant):
        variant = load(variant)
    return export_section(variant, section, version)
