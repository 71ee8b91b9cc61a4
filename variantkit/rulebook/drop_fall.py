"""Drops that fall (`hands: {drops-fall: DIRECTION}`): a dropped piece comes
to rest at the end of its fall, so only an empty cell whose next cell in
that direction is occupied, or off the board, takes a drop (connect four).
Compiled here into each cell's next cell in the fall direction.  Drops that
enter from an edge (`hands: {drops-enter: [...]}`): compiled into the lines
a drop travels, each from its edge cell on."""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple, TypedDict

from variantkit.board import Board
from variantkit.errors import DeclarationError
from variantkit.rulebook.hands import HandsDeclaration
from variantkit.rulebook.sink import Sink


class DropFallKeys(TypedDict, total=False):
    """The keys of the declaration this family reads."""

    hands: HandsDeclaration


class DropFall(NamedTuple):
    """Where dropped pieces come to rest."""

    below: list[int]                               # see `compile_drop_fall`
    entries: list[tuple[tuple[int, ...], bool]]    # see `compile_drop_entries`


def compile_drops_moving(sink: Sink, data: DropFallKeys, board: Board) -> DropFall:
    """`drops-fall` and `drops-enter`."""
    return DropFall(compile_drop_fall(sink, data, board), compile_drop_entries(sink, data, board))


def compile_drop_fall(sink: Sink, data: DropFallKeys, board: Board) -> list[int]:
    """Per cell, the mask of the cell a dropped piece would fall on from it
    (0 where it would leave the board); empty when drops do not fall."""
    direction = (data.get("hands") or {}).get("drops-fall")
    if direction is None:
        return []
    below = sink.located(("hands", "drops-fall"), partial(_next_cells, board, direction))
    return below or []


def compile_drop_entries(sink: Sink, data: DropFallKeys,
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
    rays = _rays_along(board, spec, "a drop enters moving in one direction",
                       "a drop cannot travel on from")
    reached = 0
    for ray in rays:
        if ray:
            reached |= 1 << ray[0]
    return [tuple(1 << c for c in (cell, *rays[cell])) for cell in range(board.size)
            if not reached >> cell & 1]


def _next_cells(board: Board, spec: Any) -> list[int]:
    rays = _rays_along(board, spec, "drops fall in one direction", "a drop cannot fall from")
    return [board.mask([ray[0]]) if ray else 0 for ray in rays]


def _rays_along(board: Board, spec: Any, one: str, branches: str) -> list[list[int]]:
    """Each cell's ray along the one direction `spec` names (empty at the
    edge); `one` and `branches` begin the errors for several directions
    and for a line that branches."""
    directions = board.topology.directions(spec, None)
    if len(directions) != 1:
        raise DeclarationError(f"{one}; {spec!r} names {len(directions)}", "bad-direction")
    rays = []
    for cell in range(board.size):
        found = board.rays(cell, directions[0])
        if len(found) > 1:
            raise DeclarationError(f"{branches} {board.names[cell]}: the line {spec!r} "
                                   "branches there", "bad-direction")
        rays.append(list(found[0]) if found else [])
    return rays
