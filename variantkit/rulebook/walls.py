"""Walls placed as part of a move (`walls:`): which cell each move may wall,
by the rule's kind, and the region walls may go to."""

from __future__ import annotations

from typing import Literal, NamedTuple, Required, TypedDict

from variantkit.board import Board, RegionRef
from variantkit.rulebook.sink import Sink

# The kinds of `walls:`, as the position core reads them: every move also
# moves the one neutral blocker to another empty cell (`duck`), the moved
# piece shoots a wall along its own moves from where it lands (`arrow`), the
# cell the piece leaves becomes a wall (`past`), any empty cell does
# (`anywhere`), or an empty cell on the board's edge or beside a wall
# (`edge`: the board is eaten from its edges in); or no move puts one, and
# walls stand where a position string puts them (`none`).
KINDS = ("duck", "arrow", "past", "anywhere", "edge", "none")

# `walls:` as the schema admits it (its keys are not all names, hence the
# functional form).
WallsDeclaration = TypedDict("WallsDeclaration", {
    "kind": Required[Literal["duck", "arrow", "past", "anywhere", "edge", "none"]],
    "region": RegionRef,
    "except": RegionRef,
    "royal-safety": Literal["before-wall", "with-wall"],
    "or-move": bool,
}, total=False)


class Walling(NamedTuple):
    """The declared wall rule the position core reads."""

    kind: str     # one of KINDS
    region: int   # the cells a wall may be put on (`region` less `except`), as a mask
    with_wall: bool   # royal safety judged after the whole move (`royal-safety: with-wall`)
    # `or-move: true`: a turn is a move without a wall, or a wall alone.
    or_move: bool = False
    # Under `edge`: the cells on the board's edge (some orthogonal step
    # leads off the board), and each cell's orthogonal neighbours.
    rim: int = 0
    beside: tuple[int, ...] = ()


def needs_general(walling: Walling | None) -> bool:
    """Whether this rule needs the general position (`core.general`)."""
    return walling is not None


def compile_walls(sink: Sink, spec: WallsDeclaration | None, board: Board,
                  hole_mark: str | None) -> Walling | None:
    """The wall rule of `walls:` (None where none is declared)."""
    if spec is None:
        return None
    if hole_mark is None:
        sink.report(("walls",), "walls are written in position strings with the hole mark: "
                    "declare `position-string: {holes: ...}`", "walls-mark")
    region = (1 << board.size) - 1
    if "region" in spec:
        region = sink.located(("walls", "region"),
                              lambda: board.resolve_region(spec["region"])) or 0
    if "except" in spec:
        region &= ~(sink.located(("walls", "except"),
                                 lambda: board.resolve_region(spec["except"])) or 0)
    if not region:
        sink.report(("walls",), "walls may go to no cell: the region (less `except`) is empty",
                    "walls-region")
    or_move = bool(spec.get("or-move", False))
    if or_move and spec["kind"] in ("duck", "past", "arrow", "none"):
        sink.report(("walls", "or-move"), f"`or-move` needs a wall that stands apart from the "
                    f"move (`anywhere` or `edge`), not `{spec['kind']}`", "walls-or-move")
    rim, beside = 0, [0] * board.size
    if spec["kind"] == "edge":
        directions = board.topology.directions("orthogonal", None)
        for cell in range(board.size):
            for direction in directions:
                rays = board.rays(cell, direction)
                if not any(rays):
                    rim |= 1 << cell
                for ray in rays:
                    if ray:
                        beside[cell] |= 1 << ray[0]
    return Walling(spec["kind"], region, spec.get("royal-safety") == "with-wall", or_move,
                   rim, tuple(beside))
