"""Aiming pieces (`initial-until-aimed-by`): a piece loses its initial
moves once an enemy piece of the listed types aims at it."""

from __future__ import annotations

from typing import NamedTuple

from variantkit.betza import PieceDeclaration
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink


class Aims(NamedTuple):
    """Per moving piece code, the enemy piece codes that lose their initial
    moves when it aims at them (none: no piece is aimed at)."""

    aimed_by: list[tuple[int, ...]]

    @property
    def any(self) -> bool:
        """Whether some piece aims at others."""
        return any(self.aimed_by)


def needs_general(aims: Aims) -> bool:
    """Whether this rule needs the general position (`core.general`)."""
    return aims.any


def compile_aims(sink: Sink, declared: dict[str, PieceDeclaration], pieces: PieceSet) -> Aims:
    """`initial-until-aimed-by` of every piece."""
    aimed_by: list[tuple[int, ...]] = [()] * piece_code(len(pieces.types), 0)
    for name, spec in declared.items():
        victim = pieces.by_name[name].index
        for kind in sink.kinds(pieces, ("pieces", name, "initial-until-aimed-by"),
                               spec.get("initial-until-aimed-by", [])):
            for side in range(2):
                mover = piece_code(kind, side)
                aimed_by[mover] += (piece_code(victim, 1 - side),)
    return Aims(aimed_by)
