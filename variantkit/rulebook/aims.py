"""Aiming pieces (`initial-until-aimed-by`): a piece loses its initial
moves once an enemy piece of the listed types aims at it."""

from __future__ import annotations

from typing import Any

from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink


def compile_aims(sink: Sink, declared: dict[str, Any], pieces: PieceSet) -> list[tuple[int, ...]]:
    """Per moving piece code, the enemy piece codes that lose their initial
    moves when it aims at them."""
    aimed_by: list[tuple[int, ...]] = [()] * piece_code(len(pieces.types), 0)
    for name, spec in declared.items():
        victim = pieces.by_name[name].index
        for kind in sink.kinds(pieces, ("pieces", name, "initial-until-aimed-by"),
                               spec.get("initial-until-aimed-by", [])):
            for side in range(2):
                mover = piece_code(kind, side)
                aimed_by[mover] += (piece_code(victim, 1 - side),)
    return aimed_by
