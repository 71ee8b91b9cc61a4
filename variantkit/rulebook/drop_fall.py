"""Drops that fall (`hands: {drops-fall: DIRECTION}`): a dropped piece comes
to rest at the end of its fall, so only an empty cell whose next cell in
that direction is occupied, or off the board, takes a drop (connect four).
Compiled here into each cell's next cell in the fall direction."""

from __future__ import annotations

from functools import partial
from typing import Any

from variantkit.board import Board
from variantkit.errors import DeclarationError
from variantkit.rulebook.sink import Sink


def compile_drop_fall(sink: Sink, data: dict[str, Any], board: Board) -> list[int]:
    """Per cell, the mask of the cell a dropped piece would fall on from it
    (0 where it would leave the board); empty when drops do not fall."""
    direction = (data.get("hands") or {}).get("drops-fall")
    if direction is None:
        return []
    below = sink.located(("hands", "drops-fall"), partial(_next_cells, board, direction))
    return below or []


def _next_cells(board: Board, spec: Any) -> list[int]:
    directions = board.topology.directions(spec, None)
    if len(directions) != 1:
        raise DeclarationError(f"drops fall in one direction; {spec!r} names "
                               f"{len(directions)}", "bad-direction")
    below = []
    for cell in range(board.size):
        rays = board.rays(cell, directions[0])
        if len(rays) > 1:
            raise DeclarationError(f"a drop cannot fall from {board.names[cell]}: the line "
                                   f"{spec!r} branches there", "bad-direction")
        below.append(board.mask([rays[0][0]]) if rays and rays[0] else 0)
    return below
