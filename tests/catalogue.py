"""The bundled catalogue, thinned for tests that exercise a face (drawing,
PGN, the engine) rather than rules: one variant per kind of board, since the
Fairy-Stockfish catalogue adds games, not new drawings or notations.  The
rules of every variant are tested in full by tests/test_fsf_catalogue.py."""

from __future__ import annotations

from functools import cache

import variantkit
from variantkit.cli.inspect import board_label
from variantkit.loader import load_document


@cache
def one_per_board() -> list[str]:
    """The first bundled variant (by name) of each board, plus chess."""
    chosen: dict[str, str] = {}
    for name in variantkit.variants():
        chosen.setdefault(board_label(load_document(name).data["board"]), name)
    return sorted(set(chosen.values()) | {"chess"})
