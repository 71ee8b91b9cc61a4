"""Internal moves: the integer tuples the position core generates and plays.

An internal move is `(from, to, promotion_code, kind, extra)`; the public
`Move` (variantkit.public_types) carries cell names for people.
"""

from __future__ import annotations

from typing import Final

# Move kinds; `extra` is the passed-cells mask, the victim's cell, the
# castling index, or unused (0).  A NORMAL move's `extra`, when not 0, is
# the mask of the cells whose pieces it takes besides its landing cell
# (`capture-by:`: approach, withdrawal, custodian, leaps, ...).  A pass is
# written from and to the cell of the royal piece that may pass.  A drop
# (a piece from the hand placed on an empty cell) has from and to the
# target cell and the dropped piece's code in the promotion slot.
# (Final: the compiled build folds them into the code rather than look them
# up by name.)
NORMAL: Final = 0
DOUBLE: Final = 1
EN_PASSANT: Final = 2
CASTLE: Final = 3
SUBORN: Final = 4
PASS: Final = 5
DROP: Final = 6
# A promotion in place (`promotion: {standing: ...}`): from and to are the
# piece's cell, the promotion slot the new piece's code.
STAY: Final = 7
# Gating moves (the last kinds: `kind >= GATE` tells them): a move, or a
# castling, that puts a piece from the hand on a cell it leaves; `extra` is
# the gated piece's code (GATE), or the castling index, the gated cell and
# code packed by `castle_gate` (CASTLE_GATE).
GATE: Final = 8
CASTLE_GATE: Final = 9
# A two-step move that captures on its way (`two-step:`): the piece takes
# the piece on the midway cell `extra`, then steps on to `to` (taking what
# stands there too), or back to where it started (`to` is `from`: it takes
# without moving).  Played by the general position, which makes it as its
# last step alone (a move, or a pass where it comes back) and then lifts
# the midway piece, so that the kind never reaches the tests of gating
# moves (`kind >= GATE`) below it.  A two-step move through an empty
# midway cell is a plain move, or a pass where it comes back.
TWO_STEP: Final = 10
# A swap (`swaps:`): the piece on `from` and the enemy piece on `to` change
# places.  Played by the general position, which makes it as a pass of the
# piece that swaps and then exchanges the two, so that the kind never
# reaches the tests of gating moves (`kind >= GATE`) below it.
SWAP: Final = 11
# A remote capture (`remote: true`): the piece on `from` takes the piece on
# `to` and stays where it stands.  Made and taken back in the gating
# branch of `Position.make_internal` (`kind >= GATE`), so that the other
# kinds test nothing more; written as an igui is (`Move.via`).
REMOTE: Final = 12
# A move that also puts a wall on a cell (`walls:`): its kind is WALLED plus
# the kind of the move without the wall (the plain move), and its `extra`
# packs the plain move's extra above the wall's cell (`walled`,
# `wall_parts`).  Past every other kind, so that `kind >= GATE` stays the
# one test the other variants make for both families.
WALLED: Final = 16
WALL_BITS: Final = 20   # room for any cell: limits.MAX_CELLS is far below 2**20
InternalMove = tuple[int, int, int, int, int]
# What taking back a move needs (`Position.history`): the move, the code of
# the piece that moved, the captured code (0: none), then the unmoved
# pieces, en passant target and victim, half-move clock, hash and the
# mover's royal cell as they were before it.  Typed item by item: compiled,
# a record of `Any` is unpacked and used through Python's generic protocol.
UndoRecord = tuple[InternalMove, int, int, int, int, int, int, int, int]


def castle_gate(index: int, cell: int, code: int) -> int:
    """The `extra` of a castling with gating: castling `index`, the gated
    piece's `code` put on `cell`."""
    return code << 40 | cell << 20 | index


def gate_parts(move: InternalMove) -> tuple[int, int, int, int]:
    """A gating move's plain kind and extra, the gated cell and piece code."""
    frm, _, _, kind, extra = move
    if kind == GATE:
        return NORMAL, 0, frm, extra
    return CASTLE, extra & 0xFFFFF, extra >> 20 & 0xFFFFF, extra >> 40


def walled(move: InternalMove, cell: int) -> InternalMove:
    """The plain `move` that also puts a wall on `cell`."""
    frm, to, promo, kind, extra = move
    return (frm, to, promo, WALLED + kind, extra << WALL_BITS | cell)


def wall_parts(move: InternalMove) -> tuple[InternalMove, int]:
    """A walled move's plain move and the cell of its wall."""
    frm, to, promo, kind, extra = move
    return (frm, to, promo, kind - WALLED, extra >> WALL_BITS), extra & ((1 << WALL_BITS) - 1)
