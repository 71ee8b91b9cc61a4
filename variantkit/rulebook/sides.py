"""The two sides of a declaration (`sides:`): each side's forward
direction, and whether its vectors are turned half a circle."""

from __future__ import annotations

from typing import Required, TypedDict

from variantkit.board import SIDE_NAMES, Board, GridTopology, SideName
from variantkit.rulebook.sink import Sink


class SideDeclaration(TypedDict, total=False):
    """One side under `sides:`, as the schema admits it."""

    forward: Required[str]   # a direction name of the board
    turned: bool


class SidesDeclaration(TypedDict, total=False):
    """`sides:` (absent: White forward `n`, Black `s`, where the board has them)."""

    white: SideDeclaration
    black: SideDeclaration


def forwards(sink: Sink, board: Board, sides: SidesDeclaration) -> list[str | None]:
    """Each side's forward direction; boards without a natural one (a disk)
    have none unless declared, and relative directions are refused there."""
    return [_forward(sink, board, sides, side) for side in SIDE_NAMES]


def _forward(sink: Sink, board: Board, sides: SidesDeclaration, side: SideName) -> str | None:
    names = board.topology.forward_names()
    default = "n" if side == "white" else "s"
    if side not in sides:
        return default if default in names else None
    forward: str = sides[side].get("forward", default)
    if forward not in names:
        sink.report(("sides", side, "forward"), f"unknown direction '{forward}'",
                 "unknown-direction")
        return default if default in names else None
    return forward


def turned(sink: Sink, board: Board, sides: SidesDeclaration,
           forward_of: list[str | None]) -> tuple[bool, bool]:
    """Per side, `turned: true`: its vectors are turned half a circle, as
    Fairy-Stockfish turns Black's pieces, on a grid whose forward runs
    along the files."""
    out = []
    for index, side in enumerate(SIDE_NAMES):
        wanted = bool(sides.get(side, {}).get("turned", False))
        forward = forward_of[index]
        if wanted and not (isinstance(board.topology, GridTopology)
                           and forward is not None and forward[0] in "ns"
                           and "e" not in forward and "w" not in forward):
            sink.report(("sides", side, "turned"), "turned: the side's forward must run along "
                     "the files of a grid (n or s)", "bad-turned")
            wanted = False
        out.append(wanted)
    return out[0], out[1]
