"""Building position strings for scenario tests from {cell name: letter}.

The placement follows the board's own layout (rows separated by `/`, planes
by `|`), so one helper serves every topology.
"""

from __future__ import annotations

from variantkit import Variant


def placement(variant: Variant, pieces: dict[str, str]) -> str:
    """The placement field with `pieces` on their cells and nothing else."""
    unknown = set(pieces) - set(variant.board.names)
    assert not unknown, f"no such cells: {sorted(unknown)}"
    groups = []
    for rows in variant.board.layout:
        texts = []
        for row in rows:
            text, empty = "", 0
            for cell in row:
                letter = pieces.get(variant.board.names[cell])
                if letter is None:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + letter
                empty = 0
            texts.append(text + (str(empty) if empty else ""))
        groups.append("/".join(texts))
    return "|".join(groups)
