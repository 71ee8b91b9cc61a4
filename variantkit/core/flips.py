"""Pieces that turn over (`flips:`) on a position: the drops the rule
allows, the enemy pieces a move turns over, and turning them (make and
unmake alike, since turning the same cells twice restores them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from variantkit.core.moves import DROP, PASS, InternalMove

if TYPE_CHECKING:
    from variantkit.core.position import Position
    from variantkit.tables import FlipRule


def flipped_by(position: Position, rule: FlipRule, cell: int, side: int) -> int:
    """The enemy cells (a mask) a piece of `side` standing on `cell` turns
    over: those one step away (`adjacent`), or on each line from `cell`
    the unbroken run of enemy pieces that an own piece ends."""
    enemy = position.side_bb[1 - side]
    if rule.adjacent:
        return rule.steps[cell] & enemy
    own = position.side_bb[side]
    found = 0
    for line in rule.lines[cell]:
        run = 0
        for bit in line:
            if not bit & enemy:
                if bit & own:
                    found |= run
                break
            run |= bit
    return found


def encloses(position: Position, rule: FlipRule, cell: int, side: int) -> bool:
    """Whether a piece of `side` on `cell` encloses, on one of its lines, an
    unbroken run of enemy pieces and walls that an own piece ends: where a
    drop may go under `walls-enclose`, though a run with a wall turns
    nothing over."""
    run_cells = position.side_bb[1 - side] | position.walls
    own = position.side_bb[side]
    for line in rule.lines[cell]:
        if not line[0] & run_cells:
            continue
        for bit in line:
            if not bit & run_cells:
                if bit & own:
                    return True
                break
    return False


def turn_over(position: Position, cells: int) -> None:
    """Give the pieces on `cells` to the other side, each keeping its type
    (its code's side bit changes); done twice, nothing changed."""
    board_cells, bb, side_bb = position.cells, position.bb, position.side_bb
    zobrist = position.zobrist
    while cells:
        bit = cells & -cells
        cells ^= bit
        cell = bit.bit_length() - 1
        code = board_cells[cell]
        other = code ^ 1
        board_cells[cell] = other
        bb[code] = bb[code] ^ bit
        bb[other] = bb[other] | bit
        position.toggle_word(code, cell)
        position.toggle_word(other, cell)
        side_bb[0] = side_bb[0] ^ bit
        side_bb[1] = side_bb[1] ^ bit
        position.hash ^= zobrist[code][cell] ^ zobrist[other][cell]


def flip_after(position: Position, rule: FlipRule, move: InternalMove) -> int:
    """Turn over what `move`, just made, turns over (nothing for a pass,
    nor for a drop away from own pieces under `drop-flips: touch-own`);
    return those cells, for the unmake to turn them back."""
    mover = 1 - position.stm
    if move[3] == PASS or (move[3] == DROP and rule.drop_needs_own
                           and not rule.steps[move[1]] & position.side_bb[mover]):
        return 0
    cells = flipped_by(position, rule, move[1], mover)
    turn_over(position, cells)
    return cells


def drop_targets(position: Position, rule: FlipRule) -> int:
    """The empty cells the rule lets the side to move drop on: the empty
    cells of `first` while there are any, else those where a drop turns a
    piece over (`enclose`), lands next to an own piece (`touch-own`), lands
    next to no enemy piece (`apart`), or every empty cell (`any`)."""
    us = position.stm
    own = position.side_bb[us]
    empty = position.all_cells & ~(own | position.side_bb[1 - us] | position.walls)
    if empty & rule.first:
        return empty & rule.first
    if rule.drops == "any":
        return empty
    enemy = position.side_bb[1 - us]
    touching, apart = rule.drops == "touch-own", rule.drops == "apart"
    targets = 0
    cells = empty
    while cells:
        bit = cells & -cells
        cells ^= bit
        cell = bit.bit_length() - 1
        if touching:
            if rule.steps[cell] & own:
                targets |= bit
        elif apart:
            if not rule.steps[cell] & enemy:
                targets |= bit
        # enclose: only a cell one step from an enemy piece may turn one over.
        elif rule.steps[cell] & enemy and (encloses(position, rule, cell, us) if rule.walls_enclose
                                           else flipped_by(position, rule, cell, us)):
            targets |= bit
    return targets


def flip_moves(position: Position, rule: FlipRule, moves: list[InternalMove]) -> list[InternalMove]:
    """`moves` with their drops kept only where the rule allows them, and
    the drops of the pieces each side drops without a hand added."""
    targets = drop_targets(position, rule)
    out = [move for move in moves if move[3] != DROP or targets >> move[1] & 1]
    for code in rule.free[position.stm]:
        cells = targets
        while cells:
            bit = cells & -cells
            cells ^= bit
            to = bit.bit_length() - 1
            out.append((to, to, code, DROP, 0))
    return out
