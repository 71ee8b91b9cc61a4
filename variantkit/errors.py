"""Errors a user can cause, and the located problem records they carry.

Every mistake in a variant file becomes a `Problem` (file, line, column,
message, rule id); a `VariantError` carries one or more of them.  Bad position
strings and bad moves get their own `ValueError` subclasses so that callers
can tell them apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]
YamlPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a variant file, located as precisely as known."""

    message: str
    rule: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: YamlPath = ()
    severity: Severity = "error"

    def location(self) -> str:
        """`file:line:col`, leaving out what is unknown."""
        parts = [self.file or "<variant>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        return f"{self.location()}: [{self.severity}] {self.message} ({self.rule})"


@dataclass
class VariantError(ValueError):
    """A variant definition that cannot be loaded; `problems` says why."""

    problems: list[Problem] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


class InvalidFenError(ValueError):
    """A position string that does not describe a position of the variant."""


class IllegalMoveError(ValueError):
    """A move string that is malformed, unknown or illegal in the position."""


class DeclarationError(Exception):
    """Raised inside the pipeline for a bad declaration value.

    The stage that knows where the value sits in the YAML file catches it and
    turns it into a located `Problem`; users never see this class.
    """

    def __init__(self, message: str, rule: str, where: YamlPath = ()) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        # Where the bad value sits below the node the catching stage knows
        # (a board's `graph.lines.n[3]`, say), so the problem points at it.
        self.where = where
