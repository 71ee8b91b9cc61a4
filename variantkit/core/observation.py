"""The movement conditions (`move-conditions:`) on a position: which pieces
are paralysed or observed by a friend, which of the generator's moves the
conditions allow, and which attackers could take a royal piece under them
(check is judged by the moves the conditions allow)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from variantkit.core.moves import (
    CASTLE,
    DOUBLE,
    DROP,
    EN_PASSANT,
    NORMAL,
    PASS,
    REMOTE,
    SUBORN,
    InternalMove,
)

if TYPE_CHECKING:
    from variantkit.core.position import Position
    from variantkit.rulebook.move_conditions import MoveConditions

# The moves that take a piece from one cell to another, judged by a colour
# condition (castling by both its king's and its rook's move).
MOVING = (NORMAL, DOUBLE, EN_PASSANT, SUBORN, CASTLE)


def paralysed(position: Position, paralysed_by: list[int], side: int) -> int:
    """Cells of `side`'s pieces observed by an enemy piece of the kind that
    paralyses them (a paralysed observer still paralyses); a pawn that has
    just made a double step is observed too by an enemy piece that could
    take it en passant."""
    bb = position.bb
    occupied = position.side_bb[0] | position.side_bb[1] | position.walls
    found = 0
    for code in range(2 + side, len(paralysed_by), 2):   # `side`'s codes (`piece_code`)
        observer = paralysed_by[code]
        pieces = bb[code]
        if observer < 0 or not pieces or not bb[observer]:
            continue
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            if position.attackers(low.bit_length() - 1, 1 - side, occupied, bb[observer]):
                found |= low
    victim = position.ep_victim
    if victim >= 0 and not found >> victim & 1:
        code = position.cells[victim]
        observer = paralysed_by[code] if code and code & 1 == side else -1
        passed = position.ep_target
        while observer >= 0 and passed:
            low = passed & -passed
            passed ^= low
            if position.attackers(low.bit_length() - 1, 1 - side, occupied, bb[observer]):
                found |= 1 << victim
                passed = 0
    return found


def observed(position: Position, side: int) -> int:
    """Cells of `side`'s pieces that another piece of `side` observes."""
    own = position.side_bb[side]
    occupied = position.side_bb[0] | position.side_bb[1] | position.walls
    found = 0
    pieces = own
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        if position.attackers(low.bit_length() - 1, side, occupied, own & ~low):
            found |= low
    return found


def able_takers(position: Position, conditions: MoveConditions, cell: int, side: int,
                side_mask: int) -> int:
    """Of `side_mask`, the pieces of `side` the conditions let take on
    `cell`: not paralysed, on a cell whose colour a move may leave for
    `cell`'s, observed by a friend."""
    if conditions.colour_from:
        side_mask &= conditions.colour_from[cell]
    if side_mask and conditions.paralysed_by:
        side_mask &= ~paralysed(position, conditions.paralysed_by, side)
    if side_mask and conditions.patrol:
        side_mask &= observed(position, side)
    return side_mask


def allowed_by_conditions(position: Position, conditions: MoveConditions,
                          moves: list[InternalMove]) -> list[InternalMove]:
    """Of the generator's `moves`, those the conditions allow: none by a
    paralysed piece (a castling neither by a paralysed royal piece nor with
    a paralysed rook), each ending on a cell of the colour the condition
    asks (a castling: both its pieces' moves), a capture only by a piece a
    friend observes.  Drops and passes are no piece's move from a cell."""
    us = position.stm
    frozen = paralysed(position, conditions.paralysed_by, us) if conditions.paralysed_by else 0
    guarded = observed(position, us) if conditions.patrol else -1
    colour_from = conditions.colour_from
    kept: list[InternalMove] = []
    for move in moves:
        frm, to, _, kind, extra = move
        if kind in (DROP, PASS):
            kept.append(move)
            continue
        if frozen >> frm & 1:
            continue
        if kind == CASTLE:
            castling = position.castlings[extra]
            if frozen >> castling.rook_from & 1 or (colour_from and not (
                    colour_from[castling.rook_to] >> castling.rook_from & 1)):
                continue
        if colour_from and kind in MOVING and not colour_from[to] >> frm & 1:
            continue
        if not guarded >> frm & 1 and captures(position, move):
            continue
        kept.append(move)
    return kept


def captures(position: Position, move: InternalMove) -> bool:
    """Whether a piece's own move takes an enemy piece."""
    frm, to, _, kind, _ = move
    if kind == EN_PASSANT:
        return True
    target = position.cells[to]
    return kind in (NORMAL, DOUBLE, SUBORN, REMOTE) and bool(target) \
        and target & 1 != position.cells[frm] & 1
