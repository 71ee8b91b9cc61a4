"""Passing (`pass:`): whether a side left without a legal move passes
(`when-no-move`), as in reversi.  A royal piece's own pass is one of its
moves (`variantkit.rulebook.codes`), and the passes that end a game are
end rules (`variantkit.rulebook.end`)."""

from __future__ import annotations

from typing import Literal, NamedTuple


class Passing(NamedTuple):
    """When a side passes."""

    when_stuck: bool   # a side with no legal move passes (never in check)


def compile_passing(declared: Literal["when-no-move"] | None) -> Passing:
    """`pass:`, absent or `when-no-move` (the only value the schema admits)."""
    return Passing(declared == "when-no-move")


def needs_general(passing: Passing) -> bool:
    """Whether this rule needs the general position (`core.general`)."""
    return passing.when_stuck
