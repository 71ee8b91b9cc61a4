"""The same game declared twice plays identically: a board declared as a
graph (tests/data/*_graph.yaml) against the generator it imitates.

- chess on an explicit 8x8 graph against chess on the grid: perft 1-4 from
  the start and from Kiwipete, and the legal moves and position strings of
  seeded random games;
- Diplomat on an explicit 43-cell graph, centre turns and all, against the
  polar Diplomat: perft 1-4, and random games;
- Gliński's chess on an explicit 91-cell graph against the hex board:
  perft 1-3.

Perft 5 of chess and Diplomat runs with `make oracle` (marker `oracle`).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import variantkit
from variantkit import perft

DATA = Path(__file__).parent.parent / "data"
EXAMPLES = Path(__file__).parent.parent.parent / "examples"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PAIRS = {
    "chess": (DATA / "chess_graph.yaml", "chess"),
    "diplomat": (DATA / "diplomat_graph.yaml", "diplomat"),
    "glinski": (DATA / "glinski_graph.yaml", EXAMPLES / "glinski.yaml"),
}


def loaded(game: str) -> tuple[variantkit.Variant, variantkit.Variant]:
    graph, generated = PAIRS[game]
    # The graph file inherits its generator's file, which may live elsewhere:
    # it is read as if stored in that file's folder.
    folder = generated.parent if isinstance(generated, Path) else None
    return (variantkit.load_text(graph.read_text(encoding="utf-8"), str(graph), folder),
            variantkit.load(generated))


@pytest.fixture(scope="module", params=list(PAIRS))
def pair(request: pytest.FixtureRequest) -> tuple[variantkit.Variant, variantkit.Variant]:
    return loaded(request.param)


def test_the_graph_boards_load_without_problems(
        pair: tuple[variantkit.Variant, variantkit.Variant]) -> None:
    graph, generated = pair
    assert graph.problems == []
    assert graph.board.size == generated.board.size
    assert sorted(graph.board.names) == sorted(generated.board.names)
    assert graph.new_game().fen() == generated.new_game().fen()


@pytest.mark.parametrize(("game", "fen", "depth"), [
    *[("chess", None, d) for d in range(1, 5)],
    *[("chess", KIWIPETE, d) for d in range(1, 4)],
    *[("diplomat", None, d) for d in range(1, 5)],
    *[("glinski", None, d) for d in range(1, 4)],
])
def test_perft_equals_the_generated_board(game: str, fen: str | None, depth: int) -> None:
    graph, generated = loaded(game)
    assert perft(graph.new_game(fen), depth) == perft(generated.new_game(fen), depth)


@pytest.mark.oracle
@pytest.mark.parametrize("game", ["chess", "diplomat"])
def test_perft_5_equals_the_generated_board(game: str) -> None:
    graph, generated = loaded(game)
    assert perft(graph.new_game(), 5) == perft(generated.new_game(), 5)


@pytest.mark.parametrize("seed", range(3))
def test_random_games_agree(pair: tuple[variantkit.Variant, variantkit.Variant],
                            seed: int) -> None:
    graph_variant, generated_variant = pair
    graph, generated = graph_variant.new_game(), generated_variant.new_game()
    rng = random.Random(seed)
    for _ in range(120):
        moves = sorted(str(m) for m in generated.legal_moves())
        assert sorted(str(m) for m in graph.legal_moves()) == moves, generated.fen()
        assert graph.fen() == generated.fen()
        assert graph.is_check() == generated.is_check()
        if not moves or generated.outcome() is not None:
            assert str(graph.outcome()) == str(generated.outcome())
            break
        choice = rng.choice(moves)
        graph.push(choice)
        generated.push(choice)


@pytest.mark.parametrize(("parent", "start", "depth"), [
    ("strato", "{grid: {files: 8, ranks: 8, planes: 3, plane-names: [A, B, C]}}", 2),
    (str(EXAMPLES / "glinski.yaml"), "{hex: {side: 6}}", 2),
    (str(EXAMPLES / "cylinder.yaml"), "{grid: {files: 8, ranks: 8, wrap: files}}", 3),
    ("diplomat", "{polar: {sectors: abcdefghijklmn, rings: ['1', '2', '3'], centre: '4'}}", 4),
])
def test_a_graph_started_from_a_generator_plays_as_it(tmp_path: Path, parent: str, start: str,
                                                      depth: int) -> None:
    path = tmp_path / "v.yaml"
    inherits = parent
    if parent.endswith(".yaml"):  # a variant inherits files in its own folder: a copy
        inherits = Path(parent).name
        (tmp_path / inherits).write_text(Path(parent).read_text(encoding="utf-8"),
                                         encoding="utf-8")
    path.write_text(f"variantkit: 1\nname: g\ninherits: {inherits}\n"
                    f"board:\n  graph:\n    from: {start}\n", encoding="utf-8")
    graph, generated = variantkit.load(path), variantkit.load(parent)
    assert graph.problems == []
    assert perft(graph.new_game(), depth) == perft(generated.new_game(), depth)
