"""Every bundled variant that Fairy-Stockfish knows, against pyffish.

The variants are found by name (`fsf_oracle.fsf_variants`), so a new file in
variants/ named as a Fairy-Stockfish variant is checked without touching this
module.  `make test` compares, on the compiled build, the perft tree of
every variant to depth 2 and one seeded random game, and the trees of a
sample that declares every rule (`catalogue.one_per_rule`) to depth 3 (2
where the tree is very wide: `fsf_oracle.perft_depth`), on the pure build
too (`catalogue.on_both_builds`); `make oracle` walks the others' trees to
depth 3, every tree a ply deeper, plays more and longer games, and runs
the rest on the pure build.
"""

from __future__ import annotations

from typing import Any

import pytest
from catalogue import on_both_builds, one_per_rule
from fsf_oracle import Oracle, fsf_variants, game_plies, perft_depth

NAMES = fsf_variants()


# The sample gives every rule its depth-3 tree in make test; the depth-3
# trees of the 49 variants outside it cost make test about 70 s of CPU,
# their depth-2 trees a sixteenth of that.
QUICK_DEPTH = 2


def perft_trees() -> list[Any]:  # pytest.param's values
    """(variant, depth) parameters: each variant's `perft_depth`, but at
    most QUICK_DEPTH outside the sample, whose full depth is then walked
    under `make oracle` only."""
    params = []
    for param in on_both_builds(NAMES):
        (name,) = param.values
        depth = perft_depth(name)
        quick = depth if name in one_per_rule() else min(depth, QUICK_DEPTH)
        params.append(pytest.param(name, quick, marks=param.marks))
        if quick < depth:
            params.append(pytest.param(name, depth, marks=pytest.mark.oracle))
    return params


@pytest.mark.parametrize(("name", "depth"), perft_trees())
def test_perft_tree_equals_pyffish(name: str, depth: int) -> None:
    Oracle(name).walk(depth)


# On the pure build, in make oracle only: the sample's perft trees are make
# test's check of that build against pyffish.  One game each in make test:
# nearly all of a game's time is pyffish's (five calls of about 2 ms a
# position), and a second game each cost it about 150 s of CPU; make oracle
# plays ten longer ones.
@pytest.mark.pure_in_oracle
@pytest.mark.parametrize("name", NAMES)
def test_random_game_equals_pyffish(name: str) -> None:
    Oracle(name).random_games(games=1, max_plies=game_plies(name), seed=1)


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_deep_perft_tree_equals_pyffish(name: str) -> None:
    Oracle(name).walk(perft_depth(name) + 1)


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_many_random_games_equal_pyffish(name: str) -> None:
    Oracle(name).random_games(games=10, max_plies=300, seed=2)


# Positions holding each of `fairy`'s five extra pieces (archbishop,
# chancellor, fers, commoner, silver) for both sides, with castling rights
# and a promotion, since its start position holds none of them.
FAIRY_POSITIONS = (
    "r3k2r/1P6/1s6/3m4/2C5/5f2/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/1S3a2/3M4/2c5/5F2/6p1/R3K2R b KQkq - 0 1",
)


@pytest.mark.parametrize("fen", FAIRY_POSITIONS)
def test_fairy_pieces_equal_pyffish(fen: str) -> None:
    Oracle("fairy").walk(2, fen)
