"""Take&Make in the general position (`capture-effects: {capturer: makes}`,
see `variantkit.rulebook.capture_effects`): a capture is one move with the
make that completes it, a move without capturing from the capture cell as
the taken piece moves.  Such a move is a TWO_STEP move (from, end,
promotion, TWO_STEP, capture cell), made as its capture (plain or en
passant) and then the make, and taken back the other way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from variantkit.core.moves import EN_PASSANT, NORMAL, TWO_STEP, InternalMove
from variantkit.pieces import MOVE, reach

if TYPE_CHECKING:
    from variantkit.core.position import Position


def take_and_make(position: Position, barred: list[int],
                  moves: list[InternalMove]) -> list[InternalMove]:
    """`moves` with each capture (one per from and capture cell, whatever
    it promotes to) replaced by its make moves: the taken piece's moves
    that do not capture (its first-move ones if it had not moved), from
    the capture cell, on the board after the capture, ending neither on a
    piece nor on a cell barred to the capturing piece; a pawn-like piece
    promotes where its make ends, as it would by moving there.  A capture
    with no make move is gone."""
    cells = position.cells
    occupied = position.side_bb[0] | position.side_bb[1]
    generators = position.rules.codes.generators
    out: list[InternalMove] = []
    seen: set[tuple[int, int]] = set()
    for move in moves:
        frm, to, _, kind, extra = move
        if kind == EN_PASSANT:
            taken_at = extra
        elif kind == NORMAL and not extra and cells[to] and cells[to] & 1 != cells[frm] & 1:
            taken_at = to
        else:   # a move without a capture, castling
            out.append(move)
            continue
        if (frm, to) in seen:
            continue
        seen.add((frm, to))
        capturer, taken = cells[frm], cells[taken_at]
        after = (occupied & ~(1 << frm) & ~(1 << taken_at)) | 1 << to
        unmoved = position.unmoved >> taken_at & 1
        ends = 0
        for gen in generators[taken]:
            if gen.mode & MOVE and (unmoved or not gen.initial):
                ends |= reach(gen.tables[to], after)
        ends &= ~after & ~barred[capturer]
        promotion = position.promotion_of[capturer]
        while ends:
            low = ends & -ends
            ends ^= low
            end = low.bit_length() - 1
            if promotion is not None and promotion.region >> end & 1:
                out.extend((frm, end, choice, TWO_STEP, to) for choice in promotion.choices)
                if not promotion.optional >> end & 1:
                    continue
            out.append((frm, end, 0, TWO_STEP, to))
    return out


def take_part(position: Position, move: InternalMove) -> InternalMove:
    """The capture a make move completes, as `Position` makes it: en
    passant where the capture cell is empty (it is the target of the last
    double step), else a plain capture."""
    frm, _, _, _, cell = move
    if not position.cells[cell]:
        return (frm, cell, 0, EN_PASSANT, position.ep_victim)
    return (frm, cell, 0, NORMAL, 0)


def record_make(position: Position, move: InternalMove) -> None:
    """After the make has been played on the board: the stack records the
    whole move, its capture's record kept."""
    record = position.history[-1]
    position.history[-1] = (move, record[1], record[2], record[3], record[4], record[5],
                            record[6], record[7], record[8])


def restore_take(position: Position) -> None:
    """Before a make move's capture is taken back (the make already taken
    back): the stack holds the capture alone, as it was made (en passant
    where the capture cell was a target of the double step before it)."""
    record = position.history[-1]
    frm, _, _, _, cell = record[0]
    take = (frm, cell, 0, EN_PASSANT, record[5]) if record[4] >> cell & 1 \
        else (frm, cell, 0, NORMAL, 0)
    position.history[-1] = (take, record[1], record[2], record[3], record[4], record[5],
                            record[6], record[7], record[8])
