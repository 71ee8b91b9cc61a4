"""Layered boards with transfer (`transfer:`) on a position: which moves
may cross to the next layer, which pieces cross after a move, and where an
en passant target goes with the pawn that crossed.

A move is generated on the layer its piece stands on: every line of a
piece stays in its plane, so the pieces of the other layers neither block
nor are taken, and a check is an attack on the royal piece's own layer
(whether the attacker's own crossing cell is free does not matter: the
capture of a royal piece ends the game before any crossing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from variantkit.core.moves import CASTLE, DOUBLE, EN_PASSANT, NORMAL, InternalMove

if TYPE_CHECKING:
    from variantkit.core.position import Position


def may_cross(position: Position, move: InternalMove, cross: list[int],
              royal_on_layer: bool) -> bool:
    """Whether `move` may be played: each piece it moves crosses to an
    empty cell, and under `royal-move: legal-on-layer` a royal piece's own
    move leaves it unattacked on the layer it is played on (a castling's
    passage and landing are judged there by the castling itself)."""
    frm, to, _, kind, extra = move
    cells = position.cells
    if kind == CASTLE:
        c = position.castlings[extra]
        king_there, rook_there = cross[c.king_to], cross[c.rook_to]
        return (king_there < 0 or not cells[king_there]) \
            and (rook_there < 0 or not cells[rook_there])
    if kind not in (NORMAL, DOUBLE, EN_PASSANT):
        return True
    there = cross[to]
    if there >= 0 and cells[there]:
        return False
    if royal_on_layer and position.royal_code[cells[frm]]:
        them = 1 - position.stm
        occupied = position.side_bb[0] | position.side_bb[1] | position.walls
        after = occupied & ~(1 << frm) | 1 << to
        return not position.takers(to, them, after, position.side_bb[them] & ~(1 << to))
    return True


def crossings(position: Position, move: InternalMove, cross: list[int]) -> list[tuple[int, int]]:
    """The pieces `move`, just made, sends to the next layer: (cell, the
    cell it crosses to) for the moved piece, or a castling's king and rook;
    none for a move of another kind (a drop, a pass, a promotion in place)."""
    _, to, _, kind, extra = move
    if kind == CASTLE:
        c = position.castlings[extra]
        pairs = [(c.king_to, cross[c.king_to]), (c.rook_to, cross[c.rook_to])]
    elif kind in (NORMAL, DOUBLE, EN_PASSANT):
        pairs = [(to, cross[to])]
    else:
        return []
    cells = position.cells
    return [(here, there) for here, there in pairs if there >= 0 and cells[here]]


def crossed_en_passant(position: Position, cross: list[int]) -> tuple[int, int]:
    """The en passant target and victim after a double step whose pawn has
    crossed: the cells it passed, on the layer it crossed to, if they are
    empty there (the pawn may then be taken there, as in chess); else none."""
    passed = position.ep_target
    target = 0
    while passed:
        low = passed & -passed
        passed ^= low
        there = cross[low.bit_length() - 1]
        if there < 0 or position.cells[there]:
            return 0, -1
        target |= 1 << there
    victim = cross[position.ep_victim]
    return (target, victim) if target and victim >= 0 else (0, -1)
