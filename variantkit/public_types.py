"""The values the library hands to people: a `Move` with cell names and the
`Outcome` of a finished game.  Plain data, shared by every stage above the
core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# The sides by number, as people name them: side 0 is White, side 1 Black.
SIDES = ("white", "black")


@dataclass(frozen=True, slots=True)
class Move:
    """A move as people write it: `e2e4`, `e7e8q`, `f1~g2` (suborn), `P@e4`
    (a drop: `drop` is the uppercase letter of the piece from the hand, and
    from and to are the cell it lands on), `b1c3h` (gating: `gate` is the
    letter of the piece from the hand put on the cell the move leaves),
    `e2e4,e4e5` (a move that also puts a wall on a cell, `wall`: the
    move, a comma, its landing cell and the wall's cell, as Fairy-Stockfish
    writes it), `e5e6,e6e7` (a two-step move that takes on its way, `via`:
    the midway cell: the first step, a comma, the second step; `e5e6,e6e5`
    takes on e6 and comes back to e5; `e7d8,d8d7` a Take&Make capture on d8
    completed by its make to d7, `c7d8,d8c8q` one that promotes), `a1<->a8`
    (a swap, `swap`: the piece on the from-cell and the enemy piece on the
    to-cell change places)."""

    from_cell: str
    to_cell: str
    promotion: str | None = None
    suborn: bool = False
    drop: str | None = None
    gate: str | None = None
    wall: str | None = None
    via: str | None = None
    swap: bool = False

    def __str__(self) -> str:
        if self.via:
            return f"{self.from_cell}{self.via},{self.via}{self.to_cell}{self.promotion or ''}"
        if self.drop:
            return f"{self.drop}@{self.to_cell}"
        sep = "~" if self.suborn else "<->" if self.swap else ""
        gate = self.gate.lower() if self.gate else ""
        plain = f"{self.from_cell}{sep}{self.to_cell}{self.promotion or ''}{gate}"
        return f"{plain},{self.to_cell}{self.wall}" if self.wall else plain


class Outcome(NamedTuple):
    """How a game ended: the winner ('white', 'black' or None for a draw)
    and the reason ('checkmate', 'stalemate', 'repetition', 'move-rule',
    'insufficient-material', 'double-pass', 'facing-pass', 'shuttle',
    'counting' (a count of `end: counting` has run out), 'drop-mate' (a
    mate by a drop under `mate: loses`), or a declared condition's
    'check-count', 'extinction', 'region', 'bare-king', 'in-a-row',
    'castling')."""

    winner: str | None
    reason: str

    def __str__(self) -> str:
        """`black wins by checkmate`, `draw by repetition`."""
        who = f"{self.winner} wins" if self.winner else "draw"
        return f"{who} by {self.reason.replace('-', ' ')}"
