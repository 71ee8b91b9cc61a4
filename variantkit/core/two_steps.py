"""Two-step moves in the general position (`two-step:`, see
`variantkit.rulebook.two_steps`): the moves they add to the generator's,
and the taking of the midway piece when one is made and taken back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from variantkit.core.moves import NORMAL, PASS, TWO_STEP, InternalMove

if TYPE_CHECKING:
    from variantkit.core.position import Position
    from variantkit.rulebook.two_steps import Routes


def two_step_moves(position: Position, routes: list[list[Routes]], codes: tuple[int, ...],
                   moves: list[InternalMove]) -> list[InternalMove]:
    """`moves` with the two-step moves of the side to move's pieces of
    `codes` added: captures on the way (TWO_STEP), the plain moves through
    an empty midway cell that no other move of the piece makes already, and
    a pass (jitto) for a piece that can step out to an empty cell and back."""
    us = position.stm
    cells, bb = position.cells, position.bb
    made: set[tuple[int, int]] = {(m[0], m[1]) for m in moves if m[3] in (NORMAL, PASS)}
    out = list(moves)
    for code in codes:
        pieces = bb[code]
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            for mid, ends in routes[code][frm]:
                held = cells[mid]
                if held and held & 1 == us:
                    continue   # the first step never lands on an own piece
                while ends:
                    end_bit = ends & -ends
                    ends ^= end_bit
                    to = end_bit.bit_length() - 1
                    target = cells[to]
                    if to != frm and target and target & 1 == us:
                        continue
                    if held:
                        out.append((frm, to, 0, TWO_STEP, mid))
                    elif (frm, to) not in made:
                        made.add((frm, to))
                        out.append((frm, to, 0, PASS if to == frm else NORMAL, 0))
    return out


def plain_step(move: InternalMove) -> InternalMove:
    """The last step of a two-step capture alone, as `Position` makes it: a
    move to its end cell, or a pass where it comes back to its start."""
    frm, to, _, _, _ = move
    return (frm, frm, 0, PASS, 0) if to == frm else (frm, to, 0, NORMAL, 0)


def record_two_step(position: Position, move: InternalMove) -> None:
    """After `move`'s last step is made alone: the stack holds the move itself."""
    record = position.history[-1]
    # Coming back to its cell, the piece took nothing there (its last step,
    # a pass, recorded the piece itself).
    captured = 0 if move[1] == move[0] else record[2]
    position.history[-1] = (move, record[1], captured, record[3], record[4], record[5],
                            record[6], record[7], record[8])


def restore_plain(position: Position) -> None:
    """Before a two-step capture's last step is taken back (its midway piece
    already put back): the stack holds that step alone, as it was made."""
    record = position.history[-1]
    position.history[-1] = (plain_step(record[0]), record[1], record[2], record[3], record[4],
                            record[5], record[6], record[7], record[8])
