"""Swaps (`swaps:`): instead of a move, a piece changes places with an
enemy piece of its own kind (Messigny chess), for the pieces a game names;
and whether a swap may answer a swap.  Compiled into one `Swaps` record:
per piece code, the enemy code it may change places with."""

from __future__ import annotations

from typing import Literal, NamedTuple, TypedDict

from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

# `swaps:` as the schema admits it.
SwapsDeclaration = TypedDict("SwapsDeclaration", {
    "with": Literal["same-kind"],
    "pieces": list[str],
    "after-swap": Literal["forbidden", "allowed"],
}, total=False)


class Swaps(NamedTuple):
    """The swaps as the general position plays them."""

    # Per piece code: the enemy piece code it may change places with (-1:
    # none); [] without swaps.
    partner: list[int]
    # The codes of the pieces that may swap, White's then Black's.
    codes: tuple[tuple[int, ...], tuple[int, ...]]
    # Whether a swap may answer a swap.
    after_swap: bool
    # Per piece code: the cells where the setup puts it, for pieces that do
    # not castle: a swap that brings one there leaves it unmoved, as a
    # position string reads it (a pawn back on its own second rank may make
    # its double step).
    home: list[int]

    @property
    def any(self) -> bool:
        return bool(self.partner)


NO_SWAPS = Swaps([], ((), ()), True, [])


def needs_general(swaps: Swaps) -> bool:
    """Whether these rules need the general position (`core.general`)."""
    return swaps.any


def compile_swaps(sink: Sink, spec: SwapsDeclaration | None, pieces: PieceSet,
                  setup_cells: dict[int, int], castling_codes: set[int],
                  n_codes: int) -> Swaps:
    """The `swaps:` section as a record; NO_SWAPS without one.  Every piece
    swaps unless `pieces` names those that do."""
    if spec is None:
        return NO_SWAPS
    kinds = sink.kinds(pieces, ("swaps", "pieces"), spec["pieces"]) if "pieces" in spec \
        else [kind.index for kind in pieces.types]
    partner = [-1] * n_codes
    for kind in kinds:
        for side in range(2):
            partner[piece_code(kind, side)] = piece_code(kind, 1 - side)
    home = [0] * n_codes
    for cell, code in setup_cells.items():
        if code not in castling_codes:
            home[code] |= 1 << cell
    codes = (tuple(piece_code(kind, 0) for kind in kinds),
             tuple(piece_code(kind, 1) for kind in kinds))
    return Swaps(partner, codes, spec.get("after-swap", "forbidden") == "allowed", home)
