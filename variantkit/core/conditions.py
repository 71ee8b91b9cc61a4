"""The declared end conditions (`end: conditions`): whether one holds and
what result it gives.  The general position stops generating moves once one
holds, and the outcome rules report it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from variantkit.core.moves import CASTLE, CASTLE_GATE, InternalMove, gate_parts
from variantkit.values import SIDES, Outcome

if TYPE_CHECKING:
    from variantkit.core.general import GeneralPosition
    from variantkit.core.position import Position
    from variantkit.tables import EndCondition

# The outcome's reason for each kind of condition.
REASONS = {"checks": "check-count", "extinct": "extinction", "reached": "region",
           "bare": "bare-king", "in-a-row": "in-a-row", "in-a-square": "in-a-square",
           "on-a-line": "on-a-line", "connected": "connected",
           "castled": "castling",
           "castling-lost": "castling"}


def ended_by_condition(position: GeneralPosition) -> bool:
    """Whether a declared end condition ends the game here."""
    return any(condition_outcome(position, c) is not None
               for c in position.variant.end.conditions)


def condition_outcome(position: GeneralPosition, condition: EndCondition) -> Outcome | None:
    """The outcome one declared condition gives, if it holds."""
    reason = REASONS[condition.kind]
    moved, to_move = 1 - position.stm, position.stm
    if not condition.reply and meets(position, condition, moved):
        if condition.answer is not None:
            if meets(position, condition, to_move):
                return result_for(condition.answer, SIDES[moved], SIDES[to_move], reason)
            if moved == 0 and some_move_leads_to(
                    position, lambda: meets(position, condition, to_move),
                    position.allowed_moves()):
                return None
        return result_for(condition.result, SIDES[moved], SIDES[to_move], reason)
    if meets(position, condition, to_move, condition.grace):
        return result_for(condition.result, SIDES[to_move], SIDES[moved], reason)
    return None


def held(position: GeneralPosition, condition: EndCondition, side: int) -> int:
    """How many pieces of an `extinct` condition's kinds `side` has; a piece
    in hand counts, since it may come back by a drop."""
    hands = position.hands
    if condition.codes is None:
        in_hand = sum(hands[code] for code in position.variant.hand_codes[side])
        return position.side_bb[side].bit_count() + in_hand
    return sum(position.bb[code].bit_count() + hands[code] for code in condition.codes[side])


def meets(position: GeneralPosition, condition: EndCondition, side: int,
          grace: bool = False) -> bool:
    """Whether `side` meets a declared end condition in this position.  With
    `grace` (the side to move under `grace: true`), a bare side meets it only
    when no single capture could bare the other side in reply."""
    kind, bb = condition.kind, position.bb
    if grace and kind != "bare":
        return False
    if kind == "checks":
        return position.checks_left[side] == 0
    if kind == "extinct":
        return held(position, condition, side) <= condition.count and \
            (not condition.rivals or held(position, condition, 1 - side) >= condition.rivals)
    if kind in ("in-a-row", "in-a-square", "on-a-line", "connected"):
        own = position.side_bb[side]
        if condition.codes is not None:
            own = 0
            for code in condition.codes[side]:
                own |= bb[code]
        if kind == "on-a-line":   # any cells of one line, not only a run
            return any((line & own).bit_count() >= condition.count for line in condition.rows)
        if kind == "connected":
            return joins(own, condition.regions[side], condition.goals[side], condition.steps)
        return any(row & own == row for row in condition.rows)
    if kind == "castled":
        return side != position.stm and castled_right(position) in condition.rights
    if kind == "castling-lost":
        named = [c for _, c in position.castlings_by_side[side] if c.right in condition.rights]
        return bool(named) and not any(c.in_place(position) for c in named)
    if kind == "reached":
        assert condition.codes is not None
        there = 0
        for code in condition.codes[side]:
            there |= bb[code] & condition.regions[side]
        if condition.safe:
            there &= ~attacked_cells(position, there, 1 - side)
        # (a full region counts for the side that has just moved: the other
        # side's move may have filled it)
        if condition.full and there and side != position.stm:
            taken = position.side_bb[0] | position.side_bb[1] | position.walls
            if not condition.regions[side] & ~taken:
                return True
        return there.bit_count() >= condition.count
    return not position.non_royal(side) and position.non_royal(1 - side) >= (2 if grace else 1)


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
