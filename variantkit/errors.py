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
# Characters of user input quoted back in a message (see `quote`).
QUOTE_LENGTH = 60


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
    # The text of line `line` as the loader read it, so that a message can
    # show it without opening the file again (None when unknown).
    source: str | None = field(default=None, compare=False, repr=False)

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


def shorten(text: str, limit: int = QUOTE_LENGTH) -> str:
    """`text` for a message: input longer than `limit` characters is cut in
    the middle, with its length given, and control characters are escaped,
    so that a message stays one readable line whatever the user typed."""
    if len(text) <= limit and text.isprintable():
        return text
    cut = text if len(text) <= limit else text[:limit // 2] + "..." + text[-(limit // 2):]
    shown = cut if cut.isprintable() else repr(cut)[1:-1]
    return shown if len(text) <= limit else f"{shown} ({len(text):,} characters)"


def quote(text: str, limit: int = QUOTE_LENGTH) -> str:
    """`'text'`, shortened as `shorten` does."""
    return f"'{shorten(text, limit)}'"


class InvalidFenError(ValueError):
    """A position string that does not describe a position of the variant."""


class CastlingFieldError(InvalidFenError):
    """A position string whose castling field does not fit the variant's
    castlings (a variant file's setup may be at fault, or its `castling:`)."""


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
