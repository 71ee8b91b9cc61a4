"""Gating (`gating:`): per side, the cells where a piece that has not moved
yet, leaving, may let a piece from the hand in."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple, TypedDict

from variantkit.board import Board, GridTopology, SideRegions
from variantkit.rulebook.sink import Sink


class GatingDeclaration(TypedDict):
    """`gating:` as the schema admits it."""

    regions: SideRegions


class Gating(NamedTuple):
    """Per side, the gating cells as a mask (0 for none)."""

    regions: list[int]

    @property
    def any(self) -> bool:
        """Whether some side gates."""
        return self.regions != [0, 0]


def compile_gating(sink: Sink, spec: GatingDeclaration | None, board: Board,
                   hands: bool) -> Gating:
    """The gating cells of `gating:`; `hands`: whether pieces in hand are
    declared, which gating needs."""
    if spec is None:
        return Gating([0, 0])
    if not hands:
        sink.report(("gating",), "gating puts pieces from the hand on the board: declare "
                 "`hands`", "gating-hands")
    if not isinstance(board.topology, GridTopology):
        sink.report(("gating",), "gating needs a grid board: rights are written by file",
                 "gating-board")
        return Gating([0, 0])
    regions = []
    for side in ("white", "black"):
        path = ("gating", "regions", side)
        bits = sink.located(path, partial(board.resolve_region, spec["regions"][side])) or 0
        files = [board.names[cell].rstrip("0123456789") for cell in board.cells_of(bits)]
        if len(set(files)) != len(files):
            sink.report(path, "a gating region has one cell per file: its rights are written "
                     "by file letter", "gating-region")
        regions.append(bits)
    return Gating(regions)
