"""The shogi family's general rules, each against pyffish where it has a
say: shogi-style promotion (`promotes-to`, `leaving`, `optional:
where-it-can-move`, `on-capture`, pieces that turn back), drops as another
type and drops that mate and lose, royals that count only when last,
repetition results and perpetual check, sides turned half a circle, and
a region reached safely.  Whole games and perft trees are compared in
tests/fsf/test_fsf_catalogue.py."""

from __future__ import annotations

from pathlib import Path

import pyffish
import pytest

import variantkit
from variantkit import Outcome


def moves_of(name: str, fen: str) -> set[str]:
    return {str(m) for m in variantkit.load(name).new_game(fen).legal_moves}


def same_moves(name: str, fen: str) -> set[str]:
    ours = moves_of(name, fen)
    assert ours == set(pyffish.legal_moves(name, fen, [])), fen
    return ours


# -- promotion ----------------------------------------------------------------


def test_a_move_into_out_of_or_within_the_zone_may_promote() -> None:
    # White's bishop on b7 (in the zone) leaving it, the rook entering it.
    fen = "4k4/9/1B7/9/9/9/9/7R1/4K4[] w - - 0 1"
    moves = same_moves("shogi", fen)
    assert {"b7c6", "b7c6+", "b7a8", "b7a8+", "h2h7", "h2h7+", "h2h6"} <= moves
    assert "h2h6+" not in moves     # neither end in the zone


def test_promotion_is_compulsory_only_where_the_piece_would_be_stuck() -> None:
    fen = "4k4/P8/9/8L/9/9/9/9/4K4[] w - - 0 1"
    moves = same_moves("shogi", fen)
    assert {"a8a9+", "i6i7", "i6i7+", "i6i8", "i6i8+", "i6i9+"} <= moves
    assert not {"a8a9", "i6i9"} & moves          # pawn and lance on the last rank
    fen = "4k4/9/9/9/1N7/9/9/9/4K4[] w - - 0 1"
    moves = same_moves("shogi", fen)
    assert {"b5a7", "b5a7+"} <= moves            # the knight can still move from a7
    fen = "4k4/9/1N7/9/9/9/9/9/4K4[] w - - 0 1"
    moves = same_moves("shogi", fen)
    assert "b7a9+" in moves and "b7a9" not in moves   # ...but not from the last two


def test_without_optional_promotion_is_compulsory_both_ways() -> None:
    fen = "4k3/8/1B6/8/8/8/8/4K3[] w - - 0 1"
    moves = same_moves("euroshogi", fen)
    assert "b6c5+" in moves and "b6c5" not in moves   # leaving the zone promotes too
    assert "b6c7+" in moves and "b6c7" not in moves


def test_promotions_reset_the_half_move_count() -> None:
    fen = "4k4/9/2P6/L8/1S7/9/9/9/4K4[] w - - 5 10"
    game = variantkit.load("shogi").new_game(fen)
    for move, count in (("c7c8+", "0"), ("e9f9", "1"), ("a6a7", "2")):
        game.push(move)
        assert game.fen().split()[-2] == count


def test_kyoto_pieces_turn_over_at_every_move_and_back_with_minus() -> None:
    name = "kyotoshogi"
    start = pyffish.get_fen(name, pyffish.start_fen(name), [])
    moves = same_moves(name, start)
    assert {"b1b2+", "a1a2-", "d1d2-", "e1e2+", "c1c2"} <= moves
    assert not any(m.startswith(("a1", "b1")) and m[-1] not in "+-" for m in moves)
    game = variantkit.load(name).new_game(start)
    game.push("a1a2-")
    assert game.piece_at("a2") == "L"
    assert str(game.move_stack[-1]) == "a1a2-"   # as played, not as the piece is now
    assert game.fen() == pyffish.get_fen(name, start, ["a1a2-"])
    assert game.fen().split()[-2] == "1"   # a turn that can be undone keeps the count


def test_micro_pieces_turn_over_only_when_they_capture() -> None:
    fen = "kb+r+l/p3/4/1P1P/+L+RBK[] w - - 0 1"
    moves = same_moves("micro", fen)
    assert all(m[-1] not in "+-" for m in moves)
    fen = "k3/p3/1b2/1P1P/+L+RBK[] w - - 0 1"
    moves = same_moves("micro", fen)
    assert "b2b3+" in moves and "b2b3" not in moves   # the pawn captures: a knight now
    assert "c1b2" not in moves


# -- drops -------------------------------------------------------------------


def test_kyoto_drops_either_side_of_a_piece() -> None:
    fen = "p+nks+l/5/5/5/+LSK+NP[Pn] w - - 0 1"
    moves = same_moves("kyotoshogi", fen)
    assert {"P@c3", "+P@c3"} <= moves
    game = variantkit.load("kyotoshogi").new_game(fen)
    game.push("+P@c3")
    assert game.piece_at("c3") == "+P" and game.hand("white") == {}
    assert game.fen() == pyffish.get_fen("kyotoshogi", fen, ["+P@c3"])
    game.pop()
    assert game.fen() == pyffish.get_fen("kyotoshogi", fen, [])


def test_a_pawn_drop_that_mates_is_legal_and_loses() -> None:
    fen = "1p1+Ps/s1k2/sg1g1/1P3/+s1KpP/3g1[Gp] b - - 1 24"
    game = variantkit.load("gorogoro").new_game(fen)
    assert "P@c3" in same_moves("gorogoro", fen)
    game.push("P@c3")
    assert not list(game.legal_moves) and game.is_check()
    assert game.outcome() == Outcome("white", "drop-mate")
    assert pyffish.game_result("gorogoro", fen, ["P@c3"]) > 0   # for White, to move


# -- the end of the game ------------------------------------------------------


def play(name: str, fen: str, moves: list[str]) -> variantkit.Game:
    game = variantkit.load(name).new_game(fen)
    for move in moves:
        game.push(move)
    return game


# White's rook checks the king at every move, back and forth.
PERPETUAL = (["a2a9", "e9e8"] + ["a9a8", "e8e9", "a8a9", "e9e8"] * 3)[:13]


@pytest.mark.parametrize(("name", "fen", "winner", "reason"), [
    ("shogi", "4k4/9/9/9/9/9/9/R8/4K4[] w - - 0 1", "black", "repetition"),
    # Fairy-Stockfish applies no perpetual check to sho shogi's kings.
    ("shoshogi", "4k4/9/9/9/9/9/9/R8/4K4 w - - 0 1", None, "repetition"),
])
def test_a_perpetual_check_loses_at_the_fourth_repetition(
        name: str, fen: str, winner: str | None, reason: str) -> None:
    game = play(name, fen, PERPETUAL[:-1])
    assert game.outcome() is None
    assert not pyffish.is_optional_game_end(name, fen, PERPETUAL[:-1])[0]
    game.push(PERPETUAL[-1])
    assert game.outcome() == Outcome(winner, reason)
    ended, value = pyffish.is_optional_game_end(name, fen, PERPETUAL)
    assert ended and (value > 0) == (winner == "black") and (value == 0) == (winner is None)


def test_minishogi_repetition_loses_for_white_and_tori_wins_for_the_mover() -> None:
    shuffle = ["b1a2", "d5e4", "a2b1", "e4d5"] * 3
    game = play("minishogi", "3k1/5/5/5/1K3[] w - - 0 1", shuffle)
    assert game.outcome() == Outcome("black", "repetition")
    game = play("torishogi", "3k3/7/7/7/7/7/1K5[] w - - 0 1",
                ["b1a2", "d7e6", "a2b1", "e6d7"] * 3)
    assert game.outcome() == Outcome("white", "repetition")
    assert pyffish.is_optional_game_end("torishogi", "3k3/7/7/7/7/7/1K5[] w - - 0 1",
                                        ["b1a2", "d7e6", "a2b1", "e6d7"] * 3) == (True, 32000)


# -- royals that count only when last -------------------------------------------


def test_two_kings_are_never_in_check_and_the_last_one_is() -> None:
    two = "4k4/9/9/9/9/9/r8/9/K3+E4 w - - 0 1"
    moves = same_moves("shoshogi", two)
    assert "a1a2" in moves    # into the rook's file: either king may be left attacked
    one = "4k4/9/9/9/9/9/r8/9/K8 w - - 0 1"
    assert same_moves("shoshogi", one) == {"a1b1", "a1b2"}
    assert variantkit.load("shoshogi").new_game(one).is_check()


def test_promoting_a_second_king_does_not_answer_a_check() -> None:
    # The elephant on d6 could promote on d7, but the king must answer the rook.
    fen = "4k4/9/9/3E5/9/9/r8/9/K8 w - - 0 1"
    moves = same_moves("shoshogi", fen)
    assert moves == {"a1b1", "a1b2"}


# -- turned sides and safe regions -------------------------------------------------


def test_a_turned_side_keeps_its_quails_left_and_right() -> None:
    # Black's right quail on a4 slides diagonally back to its own left: north-east.
    fen = "6k/7/7/r6/7/7/3K3[] b - - 0 1"
    moves = same_moves("torishogi", fen)
    assert {"a4b5", "a4c6", "a4d7"} <= moves


@pytest.mark.parametrize(("fen", "ended"), [
    ("1L1/1l1/3/3[] b - - 0 1", False),   # on the far rank, but Black's lion attacks it
    ("1L1/3/l2/3[] b - - 0 1", True),     # there and safe: White has won
])
def test_the_lion_must_reach_the_far_rank_safely(fen: str, ended: bool) -> None:
    game = variantkit.load("dobutsu").new_game(fen)
    assert (game.outcome() == Outcome("white", "region")) == ended
    assert pyffish.is_immediate_game_end("dobutsu", fen, [])[0] == ended


# -- declarations refused -----------------------------------------------------


@pytest.mark.parametrize(("body", "rule"), [
    # a promotion rule without pieces
    ("remove:\n  promotion: [pieces, choices]\npromotion:\n"
    "  regions: {white: rank-8, black: rank-1}\n", "promotion-pieces"),
    # `check: last` with one royal piece per side
    ("royals: {check: last}\n", "bad-royals"),
    # a turned side that does not move along the files
    ("sides:\n  black: {forward: e, turned: true}\n", "bad-turned"),
])
def test_declarations_refused(tmp_path: Path, body: str, rule: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("variantkit: 1\nname: x\ninherits: chess\n" + body, encoding="utf-8")
    with pytest.raises(variantkit.VariantError, match=rule):
        variantkit.load(str(path))
