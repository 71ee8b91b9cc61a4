"""Royal pieces whose royalty depends on how many a side has
(`royals: {check: last, last: N}`), on small positions of a variant with
three kings a side."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit
from variantkit.game import Game

# Three kings a side; a side with at most two of them keeps them out of check.
TRIO = """\
variantkit: 1
name: trio
inherits: chess
royals: {per-side: any, check: last, last: 2}
castling: []
setup: rnbkkbnk/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNK w - - 0 1
"""


@pytest.fixture(scope="module")
def trio(tmp_path_factory: pytest.TempPathFactory) -> variantkit.Variant:
    path = tmp_path_factory.mktemp("royals") / "trio.yaml"
    path.write_text(TRIO, encoding="utf-8")
    return variantkit.load(str(path))


def moves(game: Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def test_with_more_royal_pieces_than_last_none_is_in_check(trio: variantkit.Variant) -> None:
    # Three white kings, the rook on e7 attacks the one on e1.
    game = trio.new_game("7k/4r3/8/8/8/8/8/K1K1K3 w - - 0 1")
    assert not game.is_check()
    assert "a1a2" in moves(game)     # the attacked king may be left standing


def test_with_last_royal_pieces_each_is_kept_safe(trio: variantkit.Variant) -> None:
    game = trio.new_game("7k/4r3/8/8/8/8/8/K3K3 w - - 0 1")
    assert game.is_check()
    assert moves(game) == {"e1d1", "e1f1", "e1d2", "e1f2"}
    # A king may not step into an attack either, though the other one is safe.
    quiet = trio.new_game("4k3/8/8/8/8/8/7r/K3K3 w - - 0 1")
    assert not quiet.is_check()
    assert "e1e2" not in moves(quiet) and "e1d1" in moves(quiet)


def test_a_capture_down_to_last_makes_the_rest_royal(trio: variantkit.Variant) -> None:
    game = trio.new_game("7k/4r3/8/8/8/8/8/K1K1K3 b - - 0 1")
    game.push("e7e1")
    # Two kings left, the rook now attacks c1.
    assert game.is_check()
    assert "a1a2" not in moves(game)


def test_mate_of_one_of_the_last_royal_pieces_ends_the_game(trio: variantkit.Variant) -> None:
    # The h1 king is attacked by the rook on h8 and boxed in by the g-file rook.
    game = trio.new_game("4k1rr/8/8/8/8/8/8/K6K w - - 0 1")
    assert game.is_check()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "black"


@pytest.mark.parametrize(("body", "at"), [
    ("royals: {per-side: any, last: 2}\n", (4, 31)),
    ("royals: {per-side: any, check: any, last: 2}\n", (4, 43)),
])
def test_last_without_check_last_is_refused_where_it_stands(
        tmp_path: Path, body: str, at: tuple[int, int]) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("variantkit: 1\nname: x\ninherits: chess\n" + body, encoding="utf-8")
    with pytest.raises(variantkit.VariantError) as info:
        variantkit.load(str(path))
    found = [(p.line, p.column, p.rule) for p in info.value.problems]
    assert found == [(*at, "bad-royals")]
    assert "write `check: last`" in info.value.problems[0].message
