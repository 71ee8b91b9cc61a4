"""Turns of several moves (`turns:`): the state a position keeps inside a
turn, kept by the general position (`variantkit.core.general`).

Each move of a turn is made and unmade as one move of the core; after it,
`after_move` decides whether the turn is over (its moves all played, or,
under `check-ends-turn`, a check given) and, while it is not, gives the
move back to the side that made it.  En passant: the double steps a side
makes during its turn may be taken by the other side's next turn, when
the pawn has not moved again and the cells it passed are empty; by the
first move of that turn only, or (`en-passant: leading`) by each move as
long as every move before it in the turn took en passant too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from variantkit.core.moves import EN_PASSANT, InternalMove
from variantkit.core.position import Position

if TYPE_CHECKING:
    from variantkit.rulebook.turns import Turns

# A double step open to en passant: the cells the pawn passed (a mask) and
# the cell it stands on.
Passage = tuple[int, int]
# What taking back a move restores: the moves played in the turn before it,
# the passages open to the side to move and those its turn made, and
# whether the move left the turn going on.
TurnRecord = tuple[int, tuple[Passage, ...], tuple[Passage, ...], bool]


class TurnState:
    """Where a position stands inside a turn."""

    def __init__(self, turns: Turns) -> None:
        self.turns = turns
        self.played = 0   # moves played so far in the current turn
        # The other side's double steps of its last turn that the side to
        # move may still take en passant now (the first one is the
        # position's own `ep_target` and `ep_victim`).
        self.open: tuple[Passage, ...] = ()
        # The double steps the side to move has made in this turn.
        self.made: tuple[Passage, ...] = ()
        self.stack: list[TurnRecord] = []

    def copy(self) -> TurnState:
        other = TurnState(self.turns)
        other.played, other.open, other.made = self.played, self.open, self.made
        other.stack = list(self.stack)
        return other

    def length(self, position: Position) -> int:
        """How many moves the side to move's current turn has."""
        return self.turns.length(position.stm, position.fullmove)

    def key(self) -> int:
        """What tells positions inside a turn apart for repetition: the
        moves played and the double steps open or made."""
        if not (self.played or self.open or self.made):
            return 0
        return hash((self.played, self.open, self.made)) & 0xFFFFFFFFFFFFFFFF

    def after_move(self, position: Position, move: InternalMove) -> None:
        """The turn after `move`, which `position` has just made (and given
        the move to the other side, as every move does)."""
        mover = 1 - position.stm
        before = self.played, self.open, self.made
        made = tuple(p for p in self.made if p[1] != move[0])   # a pawn that moves on
        if position.ep_victim >= 0:   # a double step
            made += ((position.ep_target, position.ep_victim),)
        played = self.played + 1
        fullmove = position.fullmove - mover   # the number of the mover's turn
        turns = self.turns
        ended = played >= turns.length(mover, fullmove) \
            or (turns.check_ends and position.side_in_check(position.stm))
        cells = position.cells
        if ended:
            occupied = position.side_bb[0] | position.side_bb[1] | position.walls
            self.played, self.made = 0, ()
            self.open = tuple(p for p in made if not p[0] & occupied)
        else:
            position.stm, position.fullmove = mover, fullmove
            self.played, self.made = played, made
            self.open = tuple(p for p in self.open if p[1] != move[4] and cells[p[1]]) \
                if turns.leading_en_passant and move[3] == EN_PASSANT else ()
        self.stack.append((before[0], before[1], before[2], not ended))
        if self.open:
            position.ep_target, position.ep_victim = self.open[0]
        else:
            position.ep_target, position.ep_victim = 0, -1

    def before_unmake(self, position: Position) -> None:
        """Put the turn back as it was before the last move, which is about
        to be taken back: the move goes back to the side that made it."""
        self.played, self.open, self.made, going_on = self.stack.pop()
        if going_on:
            mover = position.stm
            position.stm = 1 - mover
            position.fullmove += mover

    def judged(self) -> bool:
        """Whether the legal moves are judged here (`royal-safety:
        turn-end`, `check: within-turn`), not by the generator."""
        return self.turns.safe_at_turn_end or self.turns.check_within_turn

    def legal_of(self, position: Position, pseudo: list[InternalMove]) -> list[InternalMove]:
        """The legal moves among the pieces' moves `pseudo`: a move that
        ends its turn may not leave the mover's royal piece in check (see
        `in_check`); one inside the turn may not leave it attacked, or
        under `royal-safety: turn-end`, must leave a legal move to follow."""
        us = position.stm
        legal: list[InternalMove] = []
        for move in pseudo:
            position.make_internal(move)
            if position.stm != us:
                ok = not self.in_check(position, us)
            elif self.turns.safe_at_turn_end:
                ok = bool(position.legal_internal())
            else:
                ok = not position.royal_attacked(us)
            position.unmake_internal()
            if ok:
                legal.append(move)
        return legal

    def in_check(self, position: Position, side: int) -> bool:
        """Whether `side`'s royal piece is attacked, or under `check:
        within-turn`, whether the other side could capture it within the
        moves of its turn: those left of the turn under way, or all of its
        next turn."""
        if not self.turns.check_within_turn:
            return position.royal_attacked(side)
        them = 1 - side
        if position.stm == them:
            moves = self.turns.length(them, position.fullmove) - self.played
            return self._capturable(position, side, moves)
        # As if `side` had handed the move over: the other side's next turn.
        position.stm = them
        position.fullmove += side
        played, self.played = self.played, 0
        found = self._capturable(position, side, self.turns.length(them, position.fullmove))
        self.played = played
        position.fullmove -= side
        position.stm = side
        return found

    def _capturable(self, position: Position, side: int, moves: int) -> bool:
        """Whether the side to move (not `side`) can capture `side`'s royal
        piece within `moves` of its own moves, any of its pieces' moves
        leading there (the capture ends the game, whatever it leaves)."""
        if position.royal_attacked(side):
            return True
        if moves <= 1:
            return False
        for move in position.pseudo_moves():
            position.make_internal(move)
            found = position.stm != side and self._capturable(position, side, moves - 1)
            position.unmake_internal()
            if found:
                return True
        return False

    def other_en_passant(self, position: Position) -> list[InternalMove]:
        """The legal en passant captures of the passages open beyond the
        first (which the generator plays as the position's own)."""
        found: list[InternalMove] = []
        first, passages = (position.ep_target, position.ep_victim), self.open
        self.open = ()   # the legal moves asked for here: the first passage's alone
        for target, victim in passages[1:]:
            position.ep_target, position.ep_victim = target, victim
            found += position.legal_en_passant()
        position.ep_target, position.ep_victim = first
        self.open = passages
        return found
