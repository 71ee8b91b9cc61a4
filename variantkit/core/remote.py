"""Captures beyond replacement in play (`capture-by:`, `freezes:`): which
pieces are frozen, which cells a move takes besides its landing cell, the
moves that only capturing makes (leaps over enemy pieces, a chameleon's
captures as the piece it takes), and whether a side's royal piece could be
taken.  A move that takes other cells than its landing cell is a NORMAL
move whose `extra` is the mask of those cells (`core.moves`).  Read by
the general position (`core.general`) from the per-cell tables of
`CaptureModes` (`rulebook/capture_modes.py`)."""

from __future__ import annotations

from variantkit.core.moves import NORMAL, InternalMove
from variantkit.core.position import Position
from variantkit.pieces import CAPTURE, reach
from variantkit.tables import (
    APPROACH,
    CUSTODIAN,
    IMITATION,
    LEAP_CAPTURE,
    ROYAL_LINES,
    WITHDRAWAL,
    CaptureModes,
)

# The modes a piece acts by where it lands (not by the path it took).
LANDING_MODES = APPROACH | WITHDRAWAL | CUSTODIAN | ROYAL_LINES


def frozen(pos: Position, m: CaptureModes, side: int) -> int:
    """The cells of `side`'s pieces that cannot move: on a cell an enemy
    piece that freezes holds (frozen or not itself: beside it, or where its
    `freezes` primitive reaches), or, for a piece that freezes, beside an
    enemy piece that captures by imitation."""
    them = 1 - side
    bb = pos.bb
    around = 0
    for code in m.freezer_codes[them]:
        cells = bb[code]
        reach_of = m.freeze_cells[code]
        while cells:
            low = cells & -cells
            cells ^= low
            around |= reach_of[low.bit_length() - 1]
    own_freezers = 0
    for code in m.freezer_codes[side]:
        own_freezers |= bb[code]
    if own_freezers:
        for code in m.imitator_codes[them]:
            around |= _around(m, bb[code]) & own_freezers
    return around & pos.side_bb[side]


def _around(m: CaptureModes, cells: int) -> int:
    found = 0
    while cells:
        low = cells & -cells
        cells ^= low
        found |= m.adjacent[low.bit_length() - 1]
    return found


def direction(m: CaptureModes, frm: int, to: int) -> int:
    """The direction slot of a move along a line, -1 for any other move."""
    dx = m.file_of[to] - m.file_of[frm]
    dy = m.rank_of[to] - m.rank_of[frm]
    if (dx == 0 and dy == 0) or (dx != 0 and dy != 0 and abs(dx) != abs(dy)):
        return -1
    sx = 1 if dx > 0 else -1 if dx < 0 else 0
    sy = 1 if dy > 0 else -1 if dy < 0 else 0
    return (sx + 1) * 3 + sy + 1


def taken_on_landing(pos: Position, m: CaptureModes, code: int, bits: int, frm: int, to: int,
                     victims: int) -> int:
    """The cells among `victims` that a piece of `code`, acting by the
    landing modes among `bits`, takes by moving from `frm` to `to`."""
    out = 0
    step = m.step
    if bits & (APPROACH | WITHDRAWAL):
        d = direction(m, frm, to)
        if d >= 0:
            if bits & APPROACH:
                cell = step[to][d]
                if cell >= 0:
                    out |= victims & 1 << cell
            if bits & WITHDRAWAL:
                cell = step[frm][8 - d]
                if cell >= 0:
                    out |= victims & 1 << cell
    side = code & 1
    if bits & CUSTODIAN:
        partners = pos.side_bb[side]
        if m.partners[code]:
            partners = 0
            for partner in m.partners[code]:
                partners |= pos.bb[partner]
        partners &= ~(1 << frm)
        for d in m.custodian_lines[code]:
            cell = step[to][d]
            if cell >= 0 and victims >> cell & 1:
                beyond = step[cell][d]
                if beyond >= 0 and partners >> beyond & 1:
                    out |= 1 << cell
    if bits & ROYAL_LINES:
        royals = 0
        for royal_code in pos.royal_codes[side]:
            royals |= pos.bb[royal_code]
        if royals >> frm & 1:
            royals ^= 1 << frm | 1 << to
        while royals:
            low = royals & -royals
            royals ^= low
            king = low.bit_length() - 1
            out |= victims & (m.rank_cells[to] & m.file_cells[king]
                              | m.file_cells[to] & m.rank_cells[king])
    return out


def remote_mask(pos: Position, m: CaptureModes, code: int, frm: int, to: int,
                occupied: int) -> int:
    """The cells other than `to` that a plain move (a ride or step, not a
    leap) of a piece of `code` from `frm` to `to` takes."""
    bits = m.modes[code]
    them = 1 - (code & 1)
    out = taken_on_landing(pos, m, code, bits & LANDING_MODES, frm, to,
                           pos.side_bb[them] & ~(1 << to))
    if bits & IMITATION:
        # Each enemy kind is taken as it takes, by a move it could make.
        for victim in m.mode_codes[them]:
            vbits = m.modes[victim]
            if vbits & IMITATION or not pos.bb[victim] \
                    or not pos.moves_from(victim ^ 1, frm, occupied) >> to & 1:
                continue
            out |= taken_on_landing(pos, m, victim ^ 1, vbits & LANDING_MODES, frm, to,
                                    pos.bb[victim] & ~(1 << to))
    return out


def leaps(m: CaptureModes, frm: int, lines: tuple[int, ...], victims: int,
          occupied: int) -> list[tuple[int, int]]:
    """The leaps from `frm` along `lines` over one or more of `victims`, each
    with an empty cell beyond it: (landing cell, jumped cells)."""
    out: list[tuple[int, int]] = []
    step = m.step
    for d in lines:
        cell = step[frm][d]
        jumped = 0
        while cell >= 0:
            if not occupied >> cell & 1:
                if jumped:
                    out.append((cell, jumped))
            elif victims >> cell & 1:
                beyond = step[cell][d]
                if beyond < 0 or occupied >> beyond & 1:
                    break
                jumped |= 1 << cell
            else:
                break
            cell = step[cell][d]
    return out


def capturing_moves(pos: Position, m: CaptureModes, code: int, frm: int,
                    occupied: int) -> list[tuple[int, int]]:
    """The moves a piece of `code` on `frm` makes only by capturing, beside
    its declared moves: its leaps over enemy pieces, and by imitation, its
    leaps over enemy pieces that leap and its captures by replacement of
    enemy pieces that capture so.  Each as (landing cell, other cells taken)."""
    bits = m.modes[code]
    them = 1 - (code & 1)
    out: list[tuple[int, int]] = []
    if bits & LEAP_CAPTURE:
        for to, jumped in leaps(m, frm, m.leap_lines[code], pos.side_bb[them], occupied):
            out.append((to, jumped | taken_on_landing(
                pos, m, code, bits & LANDING_MODES, frm, to, pos.side_bb[them] & ~jumped)))
    if bits & IMITATION:
        for victim in range(2 + them, len(m.modes), 2):
            targets = pos.bb[victim]
            if not targets or m.modes[victim] & IMITATION:
                continue
            if m.modes[victim] & LEAP_CAPTURE:
                out += leaps(m, frm, m.leap_lines[victim], targets, occupied)
            taken = 0
            for gen in pos.generators[victim ^ 1]:
                if gen.mode & CAPTURE and not gen.initial:
                    taken |= reach(gen.tables[frm], occupied) & targets
            while taken:
                low = taken & -taken
                taken ^= low
                out.append((low.bit_length() - 1, 0))
    return out


def with_captures(pos: Position, m: CaptureModes, moves: list[InternalMove]) -> list[InternalMove]:
    """The side to move's pseudo-legal `moves` with capture modes applied:
    none of a frozen piece, each plain move of a piece with modes carrying
    the cells it takes, and the moves only capturing makes."""
    us = pos.stm
    still = frozen(pos, m, us)
    occupied = pos.side_bb[0] | pos.side_bb[1] | pos.walls
    cells = pos.cells
    out: list[InternalMove] = []
    for move in moves:
        frm, to, promo, kind, _ = move
        if still >> frm & 1:
            continue
        code = cells[frm]
        if kind == NORMAL and m.modes[code]:
            taken = remote_mask(pos, m, code, frm, to, occupied)
            if taken:
                move = (frm, to, promo, NORMAL, taken)
        out.append(move)
    for code in m.mode_codes[us]:
        pieces = pos.bb[code] & ~still
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            for to, taken in capturing_moves(pos, m, code, frm, occupied):
                out.append((frm, to, 0, NORMAL, taken))
    return out


def reachable_takes(pos: Position, m: CaptureModes, code: int, frm: int, occupied: int) -> int:
    """Every cell a piece of `code` (with some mode) on `frm` could take
    by one of its moves, besides its replacement captures."""
    found = 0
    targets = pos.moves_from(code, frm, occupied)
    while targets:
        tbit = targets & -targets
        targets ^= tbit
        found |= remote_mask(pos, m, code, frm, tbit.bit_length() - 1, occupied)
    for to, taken in capturing_moves(pos, m, code, frm, occupied):
        found |= taken | 1 << to
    return found


def royal_takers(pos: Position, m: CaptureModes, side: int,
                 every_taker: bool = False) -> tuple[int, int]:
    """The cells of `side`'s royal pieces that some enemy move would take,
    and the cells of the enemy pieces that would take one (with
    `every_taker` all of them, else the search stops once every royal
    piece is found taken): by replacement (the attack tables) or by a
    capture mode; frozen pieces take nothing."""
    royals = 0
    for code in pos.royal_codes[side]:
        royals |= pos.bb[code]
    them = 1 - side
    still = frozen(pos, m, them)
    free = pos.side_bb[them] & ~still
    occupied = pos.side_bb[0] | pos.side_bb[1] | pos.walls
    found = takers = 0
    left = royals
    while left:
        low = left & -left
        left ^= low
        attackers = pos.attackers(low.bit_length() - 1, them, occupied, free)
        if attackers:
            found |= low
            takers |= attackers
    for code in m.mode_codes[them]:
        pieces = pos.bb[code] & ~still
        while pieces and (every_taker or found != royals):
            low = pieces & -pieces
            pieces ^= low
            taken = royals & reachable_takes(pos, m, code, low.bit_length() - 1, occupied)
            if taken:
                found |= taken
                takers |= low
    return found, takers
