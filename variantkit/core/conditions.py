"""The declared end conditions (`end: conditions`): the reasons they give,
and the tests on a position they are made of (a chain of pieces, the last
castling, attacked cells, a result seen from a side).  Whether one holds,
which needs the general position's state, is `core.general`'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from variantkit.core.moves import CASTLE, CASTLE_GATE, InternalMove, gate_parts
from variantkit.public_types import Outcome

if TYPE_CHECKING:
    from variantkit.core.position import Position

# The outcome's reason for each kind of condition.
REASONS = {"checks": "check-count", "extinct": "extinction", "reached": "region",
           "bare": "bare-king", "in-a-row": "in-a-row", "in-a-square": "in-a-square",
           "on-a-line": "on-a-line", "connected": "connected",
           "castled": "castling",
           "castling-lost": "castling"}


def joins(own: int, start: int, goal: int, steps: tuple[int, ...]) -> bool:
    """Whether the cells of `own` make a chain, each a step of `steps` from
    the next, from a cell of `start` to a cell of `goal`."""
    reached = frontier = own & start
    while frontier and not reached & goal:
        grown = 0
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            grown |= steps[bit.bit_length() - 1]
        frontier = grown & own & ~reached
        reached |= frontier
    return bool(reached & goal)


def castled_right(position: Position) -> str:
    """The right of the castling the last move made, "" for another move."""
    if not position.history:
        return ""
    move = position.history[-1][0]
    kind, extra = gate_parts(move)[:2] if move[3] == CASTLE_GATE else (move[3], move[4])
    return position.castlings[extra].right if kind == CASTLE else ""


def attacked_cells(position: Position, cells: int, by: int) -> int:
    """Those of `cells` that a piece of side `by` attacks."""
    occupied = position.side_bb[0] | position.side_bb[1] | position.walls
    found = 0
    while cells:
        low = cells & -cells
        cells ^= low
        if position.attackers(low.bit_length() - 1, by, occupied, position.side_bb[by]):
            found |= low
    return found


def result_for(result: str, mover: str, other: str, reason: str) -> Outcome:
    """`result` is seen from the side to move: win, loss or draw."""
    winner = {"win": mover, "loss": other}.get(result)
    return Outcome(winner, reason)


def some_move_leads_to(position: Position, condition: Callable[[], bool],
                       moves: list[InternalMove] | None = None) -> bool:
    """Whether `condition` holds after some legal move (or one of `moves`)."""
    for move in position.legal_internal() if moves is None else moves:
        position.make_internal(move)
        try:
            if condition():
                return True
        finally:
            position.unmake_internal()
    return False
