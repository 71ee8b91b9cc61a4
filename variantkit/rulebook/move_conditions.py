"""Conditions on which of a piece's moves it may make, judged on the board
as it stands (`move-conditions:`), the problemists' movement conditions:
paralysis (Madrasi: a piece observed by an enemy piece of its own kind
cannot move, capture or give check), the colour of the cell a move ends on
(Monochrome: the colour it started on; Bichrome: the other one) and
captures that need a friendly observer (Patrol).  Each is compiled into
tables: per piece code, the enemy code that paralyses it; per cell, the
cells a move may start from to end there.  Check follows each condition:
a piece gives check only by a capture the conditions would allow."""

from __future__ import annotations

from typing import Literal, NamedTuple, TypedDict

from variantkit.board import Board
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

# `move-conditions:` as the schema admits it.
MoveConditionsDeclaration = TypedDict("MoveConditionsDeclaration", {
    "paralysis": Literal["same-kind"],
    "paralysed-royals": bool,
    "cell-colour": Literal["same", "change"],
    "capture-needs": Literal["observed-by-friend"],
}, total=False)


class MoveConditions(NamedTuple):
    """The movement conditions as the general position plays them."""

    # Per piece code: the enemy piece code whose observation paralyses it
    # (-1: nothing does); [] without paralysis.
    paralysed_by: list[int]
    # Per cell: the cells a move may start from to end there (by the
    # colours of the two cells); [] without a colour condition.
    colour_from: list[int]
    # A piece may capture, and gives check, only when a friendly piece
    # observes it.
    patrol: bool

    @property
    def any(self) -> bool:
        return bool(self.paralysed_by or self.colour_from) or self.patrol


NO_CONDITIONS = MoveConditions([], [], False)


def needs_general(conditions: MoveConditions) -> bool:
    """Whether these rules need the general position (`core.general`)."""
    return conditions.any


def compile_move_conditions(sink: Sink, spec: MoveConditionsDeclaration | None, board: Board,
                            pieces: PieceSet, royal_code: list[bool]) -> MoveConditions:
    """The `move-conditions:` section as a record; NO_CONDITIONS without one."""
    if spec is None:
        return NO_CONDITIONS
    paralysed_by: list[int] = []
    if spec.get("paralysis") == "same-kind":
        royals_too = spec.get("paralysed-royals", False)
        paralysed_by = [-1] * len(royal_code)
        for kind in pieces.types:
            for side in range(2):
                code = piece_code(kind.index, side)
                if royals_too or not royal_code[code]:
                    paralysed_by[code] = piece_code(kind.index, 1 - side)
    elif "paralysed-royals" in spec:
        sink.report(("move-conditions", "paralysed-royals"), "`paralysed-royals` says whether "
                    "royal pieces are paralysed, but no `paralysis` is declared",
                    "paralysis-unused", key=True)
    colour_from: list[int] = []
    rule = spec.get("cell-colour")
    if rule is not None:
        colours = board.colours
        by_colour: dict[int, int] = {}
        for cell in range(board.size):
            by_colour[colours[cell]] = by_colour.get(colours[cell], 0) | 1 << cell
        everywhere = (1 << board.size) - 1
        colour_from = [by_colour[colours[cell]] if rule == "same"
                       else everywhere & ~by_colour[colours[cell]]
                       for cell in range(board.size)]
    return MoveConditions(paralysed_by, colour_from,
                          spec.get("capture-needs") == "observed-by-friend")
