"""The errors a declaration's mistake gets: the tests of each rule family's
checks write one mistake over a bundled game and read where it is reported."""

from __future__ import annotations

import variantkit
from variantkit.errors import Problem, VariantError


def errors_over(parent: str, line: str) -> list[Problem]:
    """The errors of a file that inherits `parent` and adds `line` (its
    fourth line, where a problem in it is located)."""
    text = f"variantkit: 1\nname: x\ninherits: {parent}\n{line}\n"
    try:
        problems = variantkit.load_text(text).problems
    except VariantError as exc:
        problems = exc.problems
    return [p for p in problems if p.severity == "error"]
