"""Captures beyond replacement (`capture-by:` and `freezes:` on a piece):
a piece that takes the enemy piece it moves up to (`approach`) or away
from (`withdrawal`), the enemy pieces it pins against a partner
(`custodian`), the enemy pieces where its lines meet its royal piece's
(`royal-lines`), the enemy pieces it jumps over (`leap-capture`), or each
enemy piece in the way that piece captures (`imitation`); and a piece that
freezes the enemy pieces around it (`freezes: true`) or on the cells a
primitive reaches from it (`freezes: {leap: [[0, 0, 1]]}`, Dragonchess's
basilisk).  Ultima's pieces are made of these.  The geometry is compiled
here into per-cell tables on a grid board (a step per direction, each
cell's file and rank); the core reads them (`core.remote`)."""

from __future__ import annotations

from functools import partial
from typing import Any

from variantkit.betza import ModeOptions, MoveDeclaration, PieceDeclaration
from variantkit.board import Board
from variantkit.pieces import Context, PieceSet, piece_code, primitive_rays
from variantkit.rulebook.sink import Sink
from variantkit.tables import (
    ALL_LINES,
    APPROACH,
    CUSTODIAN,
    DIAGONAL,
    IMITATION,
    LEAP_CAPTURE,
    ORTHOGONAL,
    ROYAL_LINES,
    WITHDRAWAL,
    CaptureModes,
)

MODE_BITS = {"approach": APPROACH, "withdrawal": WITHDRAWAL, "custodian": CUSTODIAN,
             "royal-lines": ROYAL_LINES, "leap-capture": LEAP_CAPTURE, "imitation": IMITATION}
LINES = {"orthogonal": ORTHOGONAL, "diagonal": DIAGONAL, "all": ALL_LINES}


NO_MODES = CaptureModes([], [], [], [], [], [], [(), ()], [(), ()], [(), ()], [], [], [], [], [],
                        [], False)


def needs_general(modes: CaptureModes) -> bool:
    """Whether these rules need the general position (`core.general`)."""
    return modes.active


def compile_capture_modes(sink: Sink, declared: dict[str, PieceDeclaration], board: Board,
                          pieces: PieceSet, n_codes: int, context: Context) -> CaptureModes:
    """`capture-by` and `freezes` of every piece; NO_MODES when none has them.
    `context` compiles a `freezes` given as a primitive."""
    if not any("capture-by" in spec or spec.get("freezes") for spec in declared.values()):
        return NO_MODES
    if not board.topology.grid_like:
        name, spec = next((n, s) for n, s in declared.items()
                          if "capture-by" in s or s.get("freezes"))
        sink.report(("pieces", name, "capture-by" if "capture-by" in spec else "freezes"),
                    "`capture-by` and `freezes` need a grid board", "capture-by-grid", key=True)
        return NO_MODES
    modes = [0] * n_codes
    partners: list[tuple[int, ...]] = [()] * n_codes
    custodian_lines: list[tuple[int, ...]] = [ORTHOGONAL] * n_codes
    leap_lines: list[tuple[int, ...]] = [ALL_LINES] * n_codes
    freezes = [False] * n_codes
    geometry = _geometry(board)
    freeze_cells: list[list[int]] = [[] for _ in range(n_codes)]
    for name, spec in declared.items():
        kind = pieces.by_name[name].index
        bits = 0
        for i, entry in enumerate(spec.get("capture-by", [])):
            where = ("pieces", name, "capture-by", i)
            mode, options = (entry, ModeOptions()) if isinstance(entry, str) \
                else next(iter(entry.items()))
            bits |= MODE_BITS[mode]
            lines = LINES[options.get("lines", "orthogonal" if mode == "custodian" else "all")]
            kinds = sink.kinds(pieces, (*where, mode, "partners"), options.get("partners", []))
            for side in range(2):
                code = piece_code(kind, side)
                if mode == "custodian":
                    custodian_lines[code] = lines
                    partners[code] = tuple(piece_code(k, side) for k in kinds)
                elif mode == "leap-capture":
                    leap_lines[code] = lines
        frozen = spec.get("freezes", False)
        for side in range(2):
            code = piece_code(kind, side)
            modes[code] = bits
            freezes[code] = bool(frozen)
            if isinstance(frozen, dict):
                freeze_cells[code] = sink.located(("pieces", name, "freezes"),
                                                  partial(_reached, context, frozen, side)) or []
            elif frozen:
                freeze_cells[code] = list(geometry["adjacent"])
    by_side = [range(side, n_codes, 2) for side in range(2)]
    return CaptureModes(
        modes=modes, partners=partners, custodian_lines=custodian_lines,
        leap_lines=leap_lines, freezes=freezes, freeze_cells=freeze_cells,
        freezer_codes=[tuple(c for c in codes if freezes[c]) for codes in by_side],
        imitator_codes=[tuple(c for c in codes if modes[c] & IMITATION) for codes in by_side],
        mode_codes=[tuple(c for c in codes if modes[c]) for codes in by_side],
        active=any(modes) or any(freezes),
        **geometry)


def _reached(context: Context, move: MoveDeclaration, side: int) -> list[int]:
    """Per cell, the cells a primitive reaches from it on an empty board:
    where a piece that freezes by that primitive (`freezes: {leap: ...}`)
    freezes the enemy pieces."""
    out = []
    for cell in range(context.board.size):
        mask = 0
        for cells, first in primitive_rays(context, move, side, cell):
            for c in cells[first:]:
                mask |= 1 << c
        out.append(mask)
    return out


def _geometry(board: Board) -> dict[str, list[Any]]:
    """The grid's per-cell tables: steps in the eight directions, neighbours,
    files and ranks (a wrapped grid's lines end at its edges here)."""
    at = {coords: cell for cell, coords in enumerate(board.coords)}
    step: list[list[int]] = []
    adjacent: list[int] = []
    for coords in board.coords:
        row = []
        around = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                near = at.get((coords[0] + dx, coords[1] + dy, *coords[2:]), -1) \
                    if dx or dy else -1
                row.append(near)
                around |= 1 << near if near >= 0 else 0
        step.append(row)
        adjacent.append(around)
    file_cells: dict[tuple[int, ...], int] = {}
    rank_cells: dict[tuple[int, ...], int] = {}
    for cell, coords in enumerate(board.coords):
        file_key, rank_key = (coords[0], *coords[2:]), coords[1:]
        file_cells[file_key] = file_cells.get(file_key, 0) | 1 << cell
        rank_cells[rank_key] = rank_cells.get(rank_key, 0) | 1 << cell
    return {
        "step": step, "adjacent": adjacent,
        "file_cells": [file_cells[(c[0], *c[2:])] for c in board.coords],
        "rank_cells": [rank_cells[c[1:]] for c in board.coords],
        "file_of": [c[0] for c in board.coords], "rank_of": [c[1] for c in board.coords]}
