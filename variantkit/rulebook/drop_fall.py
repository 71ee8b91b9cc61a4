"""Drops that fall (`hands: {drops-fall: DIRECTION}`): a dropped piece comes
to rest at the end of its fall, so only an empty cell whose next cell in
that direction is occupied, or off the board, takes a drop (connect four).
Compiled here into each cell's next cell in the fall direction.  Drops that
enter from an edge (`hands: {drops-enter: [...]}`): compiled into the lines
a drop travels, each from its edge cell on."""

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


def compile_drop_entries(sink: Sink, data: dict[str, Any],
                         board: Board) -> list[tuple[tuple[int, ...], bool]]:
    """Under `drops-enter`: every line a drop may travel, as cell bits from
    its edge cell on, with whether it passes over pieces (`through`);
    empty when drops do not enter from an edge."""
    entries = (data.get("hands") or {}).get("drops-enter") or []
    lines: list[tuple[tuple[int, ...], bool]] = []
    for i, entry in enumerate(entries):
        found = sink.located(("hands", "drops-enter", i, "moving"),
                             partial(_entry_lines, board, entry["moving"]))
        lines += [(line, bool(entry.get("through", False))) for line in found or []]
    return lines


def _entry_lines(board: Board, spec: Any) -> list[tuple[int, ...]]:
    """The lines along the direction `spec`, each from the cell no step in
    that direction reaches (its edge cell) to the far edge."""
    directions = board.topology.directions(spec, None)
    if len(directions) != 1:
        raise DeclarationError(f"a drop enters moving in one direction; {spec!r} names "
                               f"{len(directions)}", "bad-direction")
    reached = 0
    rays = []
    for cell in range(board.size):
        found = board.rays(cell, directions[0])
        if len(found) > 1:
            raise DeclarationError(f"a drop cannot travel on from {board.names[cell]}: the "
                                   f"line {spec!r} branches there", "bad-direction")
        rays.append(found[0] if found else [])
        if rays[-1]:
            reached |= 1 << rays[-1][0]
    return [tuple(1 << c for c in (cell, *rays[cell])) for cell in range(board.size)
            if not reached >> cell & 1]


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
