"""Swaps in the general position (`swaps:`, see `variantkit.rulebook.swaps`):
the swaps the side to move may make, and the exchange of places when one
is made and taken back.  `Position` makes a swap as a pass of the piece
that swaps (the clock and the side to move as for any move of that piece);
the exchange follows it, and the stack then holds the swap itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from variantkit.core.moves import PASS, SWAP, InternalMove

if TYPE_CHECKING:
    from variantkit.core.position import Position
    from variantkit.rulebook.swaps import Swaps

# What a position after a swap adds to its key where a swap may not answer
# it: the replies differ, so the positions are not the same for repetition.
AFTER_SWAP_KEY: Final = 0x5A17_C3E9_86B2_4D0F


def swap_moves(position: Position, swaps: Swaps, moves: list[InternalMove],
               after_swap: bool) -> list[InternalMove]:
    """`moves` with the swaps of the side to move added: each of its pieces
    that swaps with each enemy piece of its partner's code; none right
    after a swap (`after_swap`) where a swap may not answer one."""
    if after_swap and not swaps.after_swap:
        return moves
    out = list(moves)
    bb = position.bb
    for code in swaps.codes[position.stm]:
        partners = bb[swaps.partner[code]]
        pieces = bb[code] if partners else 0
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            others = partners
            while others:
                other = others & -others
                others ^= other
                out.append((frm, other.bit_length() - 1, 0, SWAP, 0))
    return out


def as_pass(move: InternalMove) -> InternalMove:
    """A swap as `Position` makes it: a pass of the piece that swaps."""
    return (move[0], move[0], 0, PASS, 0)


def after_exchange(position: Position, swaps: Swaps, move: InternalMove) -> None:
    """Once `move`'s pass is made and its pieces have changed places: each
    has moved unless it came to a cell where the setup puts it (and it
    castles not), and the stack holds the swap."""
    frm, to = move[0], move[1]
    cells, home = position.cells, swaps.home
    unmoved = position.unmoved & ~(1 << frm | 1 << to)
    unmoved |= home[cells[frm]] & 1 << frm | home[cells[to]] & 1 << to
    position.unmoved = unmoved
    record = position.history[-1]
    position.history[-1] = (move, record[1], record[2], record[3], record[4], record[5],
                            record[6], record[7], record[8])


def restore_pass(position: Position) -> None:
    """Before a swap's pass is taken back (its pieces back in place): the
    stack holds the pass alone, as it was made."""
    record = position.history[-1]
    position.history[-1] = (as_pass(record[0]), record[1], record[2], record[3], record[4],
                            record[5], record[6], record[7], record[8])
