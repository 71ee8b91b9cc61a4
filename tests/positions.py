"""Building position strings for scenario tests from {cell name: letter}.

The pieces are placed on an empty game and written out by the library's own
placement writer, so one helper serves every topology.
"""

from __future__ import annotations

from variantkit import Game, Variant
from variantkit.notation.fen import placement as write_placement


def placement(variant: Variant, pieces: dict[str, str]) -> str:
    """The placement field with `pieces` on their cells and nothing else."""
    game = Game(variant)
    for name, letter in pieces.items():
        code = variant.code_of_letter(letter)
        assert code is not None, f"no piece letter {letter!r}"
        game.position.place(variant.board.cell(name), code)
    return write_placement(game.position)
