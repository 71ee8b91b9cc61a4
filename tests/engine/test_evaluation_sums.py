"""The evaluation's board sums, kept from one position scored to the next
(`Evaluation._board_sums`), against the sums made whole; and the search,
which reads them, against the scores, moves and node counts it gave when
every evaluation summed the whole board."""

from __future__ import annotations

import random

import pytest

import variantkit
from variantkit.engine.evaluation import Evaluation
from variantkit.engine.search import Engine

# Drops, promotions, explosions that take several pieces, capture effects
# (rebirth, a change of side), turns of several moves, walls, gating,
# remote captures, flips, no royal piece, boards wider than a machine word.
SUMMED = ["chess", "crazyhouse", "shogi", "atomic", "circe", "andernach", "monster", "duck",
          "seirawan", "ultima", "flipello", "antichess", "horde", "trice", "xiangqi", "makruk"]


@pytest.mark.parametrize("name", SUMMED)
def test_scores_from_kept_sums_equal_scores_summed_whole(name: str) -> None:
    """Along a seeded random game that now and then takes moves back, an
    evaluation that keeps its sums from the position before scores as one
    that sums the whole board each time."""
    variant = variantkit.load(name)
    position = variant.new_game().position
    kept, whole = Evaluation(variant), Evaluation(variant)
    rng = random.Random(name)
    checked = 0
    for _ in range(60):
        moves = position.legal_internal()
        if moves and (not position.history or rng.random() < 0.8):
            position.make_internal(rng.choice(moves))
        elif position.history:
            for _ in range(min(len(position.history), rng.randint(1, 3))):
                position.unmake_internal()
        whole.clear()
        assert kept.score(position) == whole.score(position), position.history
        checked += 1
    assert checked == 60


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# (variant, position string or None, random plies from it, depth, best
# move, score, nodes), as the search found them when every evaluation
# summed the whole board.
SEARCHED = [
    ("chess", KIWIPETE, 0, 4, "e2a6", -32, 3701),
    ("chess", None, 0, 4, "b1c3", 10, 965),
    ("trice", None, 0, 4, "g1f3", 10, 1387),
    ("xiangqi", None, 0, 4, "b3g3", 10, 2717),
    ("atomic", None, 0, 4, "b1c3", 11, 2043),
    ("chess", None, 16, 3, "d1h5", 774, 265),
    ("trice", None, 16, 3, "g5f6", 700, 868),
    ("crazyhouse", None, 16, 3, "c2c3", -15, 2870),
    ("shogi", None, 16, 3, "b2d4", 21, 992),
    ("xiangqi", None, 16, 3, "c6b6", -25, 575),
    ("circe", None, 16, 3, "f2a7", -4, 1494),
    ("andernach", None, 16, 3, "e4f5", 691, 299),
    ("monster", None, 16, 2, "e5e6", -2471, 93),
    ("makruk", None, 16, 3, "g3h4", -17, 318),
    ("capablanca", None, 16, 3, "g1d4", 238, 1054),
    ("diplomat", None, 16, 3, "g1h2", -465, 979),
    ("seirawan", None, 16, 3, "b1a3", 240, 1286),
    ("antichess", None, 16, 3, "d1c1", -343, 355),
]


@pytest.mark.parametrize(("name", "fen", "plies", "depth", "move", "score", "nodes"), SEARCHED)
def test_search_finds_what_it_found_summing_whole_boards(
        name: str, fen: str | None, plies: int, depth: int, move: str, score: int,
        nodes: int) -> None:
    variant = variantkit.load(name)
    game = variant.new_game(fen=fen)
    position, rng = game.position, random.Random(name)
    for _ in range(plies):
        position.make_internal(rng.choice(position.legal_internal()))
    engine = Engine(variant)
    found = engine.best_move(game, depth=depth)
    assert (str(found), engine.info.score, engine.info.nodes) == (move, score, nodes)
