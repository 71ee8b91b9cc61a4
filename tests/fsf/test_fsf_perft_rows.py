"""Fairy-Stockfish's own perft suite, row by row: each row of
tests/data/fsf_perft_rows.csv (variant, position string or `startpos`,
depth, node count, whether Fairy-Stockfish counts it in Chess960 mode) is
a fact taken from Fairy-Stockfish's tests/perft.sh.  Every row whose
variant is bundled must give the same count here; a row for a variant not
bundled is skipped and says so.  Counted under `make oracle` only: the
suite's deepest rows hold hundreds of millions of nodes."""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest

import variantkit

ROWS_FILE = Path(__file__).parent.parent / "data" / "fsf_perft_rows.csv"


class Row(NamedTuple):
    variant: str
    position: str
    depth: int
    nodes: int
    chess960: bool


def read_rows() -> list[Row]:
    with ROWS_FILE.open(newline="") as handle:
        return [Row(r["variant"], r["position"], int(r["depth"]), int(r["nodes"]),
                    r["chess960"] == "true") for r in csv.DictReader(handle)]


ROWS = read_rows()
BUNDLED = frozenset(variantkit.variants())


def row_id(row: Row) -> str:
    same = [r for r in ROWS if r.variant == row.variant]
    return f"{row.variant}-{same.index(row) + 1}"


@cache
def load(name: str) -> variantkit.Variant:
    return variantkit.load(name)


def test_the_rows_file_is_read() -> None:
    assert len(ROWS) == 155
    assert len({row_id(row) for row in ROWS}) == len(ROWS)
    assert all(row.depth >= 1 and row.nodes >= 1 for row in ROWS)


@pytest.mark.oracle
@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_perft_row_equals_fairy_stockfish(row: Row) -> None:
    if row.variant not in BUNDLED:
        pytest.skip(f"{row.variant} is not bundled")
    variant = load(row.variant)
    game = variant.new_game(None if row.position == "startpos" else row.position)
    assert variantkit.perft(game, row.depth) == row.nodes
