"""Turn structure (`turns:`): how many moves a side makes in one turn
(a fixed number, one per side, or a number growing by one at every turn,
as in Progressive chess), whether a check ends a turn early, and when a
pawn's double step made during the other side's turn may be taken en
passant.  Each move of a turn is one move of the core (legal moves, make
and unmake stay single moves); the side to move stays the same until the
turn is over (`variantkit.core.turns`)."""

from __future__ import annotations

from typing import Literal, NamedTuple, TypedDict

from variantkit.rulebook.sink import Sink

# `turns:` as the schema admits it.
TurnsDeclaration = TypedDict("TurnsDeclaration", {
    "moves": int | list[int] | Literal["growing"],
    "first": int,
    "check-ends-turn": bool,
    "en-passant": Literal["first-move", "leading"],
    "royal-safety": Literal["every-move", "turn-end"],
    "check": Literal["attacked", "within-turn"],
}, total=False)


class Turns(NamedTuple):
    """The turn structure of a game (`any` False: one move a turn)."""

    any: bool
    lengths: tuple[int, int]   # moves a turn, per side (not `growing`)
    first: int                 # moves of White's first turn of the game
    growing: bool              # turn n of the game has n moves
    check_ends: bool           # a move that gives check ends its turn
    # Whether a turn's later moves may take en passant too, as long as each
    # move before them in the turn did (else only its first move may).
    leading_en_passant: bool
    # Whether only the end of a turn must leave the mover's royal piece
    # safe (a move inside it may leave it attacked if a later one mends it).
    safe_at_turn_end: bool
    # Whether a royal piece is in check when the other side could capture
    # it within its whole next turn (else: when it is attacked).
    check_within_turn: bool

    def length(self, side: int, fullmove: int) -> int:
        """How many moves `side` makes in its turn at move number `fullmove`
        (White's turn and Black's reply share a number)."""
        if self.growing:
            return 2 * fullmove - 1 + side
        if side == 0 and fullmove == 1:
            return self.first
        return self.lengths[side]


ONE_MOVE = Turns(False, (1, 1), 1, False, False, False, False, False)


def compile_turns(sink: Sink, declared: TurnsDeclaration | None) -> Turns:
    """`turns:`; absent, one move a turn."""
    if declared is None:
        return ONE_MOVE
    moves = declared.get("moves", 1)
    growing = moves == "growing"
    lengths = (1, 1)
    if isinstance(moves, int):
        lengths = (moves, moves)
    elif isinstance(moves, list):   # the schema admits two numbers, White's and Black's
        lengths = (moves[0], moves[1])
    first = declared.get("first", lengths[0])
    if growing and first != 1:
        sink.report(("turns", "first"), "with `moves: growing` White's first turn has one "
                    "move: leave `first` out", "turns-first")
    return Turns(True, lengths, 1 if growing else first, growing,
                 declared.get("check-ends-turn", False),
                 declared.get("en-passant", "first-move") == "leading",
                 declared.get("royal-safety", "every-move") == "turn-end",
                 declared.get("check", "attacked") == "within-turn")


def needs_general(turns: Turns) -> bool:
    """Whether this rule needs the general position (`core.general`)."""
    return turns.any
