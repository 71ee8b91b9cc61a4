"""Counted endings (`end: counting`), primitives restricted in check
(`in-check`), initial moves lost to an aiming piece and initial rights in
the castling field: the makruk family against pyffish (Fairy-Stockfish),
and each rule on its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from fsf_oracle import Oracle

import variantkit
from variantkit import InvalidFenError, Outcome, VariantError

# Endgames where counts start, restart and run out within a few dozen plies
# of random play: two rooks (8 moves), the last pawn taken by a bare king,
# a khon taken from a side counting its board's honour, Cambodian chess's
# board's honour with pawns, ASEAN against a rook, makpong's king in check,
# and Cambodian first leaps with a rook about to aim at the king.
ENDGAMES = [
    ("makruk", "8/8/3k4/8/8/3K4/8/RR6 w - - 0 1"),
    ("makruk", "8/8/8/8/3k4/3P4/8/R3K3 b - - 0 1"),
    ("makruk", "8/8/3ks3/8/8/3K4/8/R7 w - - 0 1"),
    ("cambodian", "8/8/3kp3/8/8/3KS3/8/8 w - - 0 1"),
    ("asean", "8/8/3k4/8/8/3KR3/8/8 w - - 0 1"),
    ("makpong", "3k4/8/8/8/8/8/3r4/3K4 w - - 0 1"),
    ("cambodian", "4k3/8/8/8/8/8/6r1/3KM2R b DEe - 0 1"),
    ("karouk", "4k3/8/8/8/8/8/6r1/3KM2R b DEe - 1+1 0 1"),
]


@pytest.mark.parametrize(("name", "fen"), ENDGAMES)
def test_endgames_play_as_pyffish(name: str, fen: str) -> None:
    results = Oracle(name).random_games(games=3, max_plies=40, seed=3, fen=fen)
    assert len(results) == 3


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "fen"), ENDGAMES)
def test_many_endgames_play_as_pyffish(name: str, fen: str) -> None:
    results = Oracle(name).random_games(games=20, max_plies=200, seed=5, fen=fen)
    assert len(results) == 20


def test_two_rooks_against_a_bare_king_run_out_of_count() -> None:
    """All three games end: the count gives eight moves, from four pieces."""
    results = Oracle("makruk").random_games(games=3, max_plies=40, seed=1,
                                            fen="8/8/3k4/8/8/3K4/8/RR6 w - - 0 1")
    assert all(isinstance(r, Outcome) for r in results)
    assert any(r is not None and r.reason == "counting" for r in results)


def test_the_count_ends_the_game_when_it_passes_its_limit() -> None:
    game = variantkit.load("makruk").new_game("8/8/3k4/8/8/4R3/3K4/8 b - 32 32 40")
    assert game.outcome() is None
    game.push("d6d5")
    assert game.outcome() == Outcome(None, "counting")
    assert game.legal_moves, "the game is over, but moves are still listed as pyffish does"
    game.pop()
    assert game.fen() == "8/8/3k4/8/8/4R3/3K4/8 b - 32 32 40"


# One move each, and the position string after it as pyffish writes it.
COUNTS = [
    # A bare king against a khon: 44 moves, counted from three pieces.
    ("makruk", "8/8/3k4/8/8/3KS3/8/8 w - - 0 1", "d3d2",
     "8/8/3k4/8/8/4S3/3K4/8 b - 88 6 1"),
    # The board's honour: 64 moves, from 0.
    ("makruk", "8/8/3kr3/8/8/3KSM2/8/8 w - - 0 1", "d3d2",
     "8/8/3kr3/8/8/4SM2/3K4/8 b - 128 0 1"),
    # A bare king that takes the last pawn counts at once, one ply lower.
    ("makruk", "8/8/8/8/3k4/3P4/8/R3K3 b - - 0 1", "d4d3",
     "8/8/8/8/8/3k4/8/R3K3 w - 32 5 2"),
    # A capture that bares the side to move starts its count again.
    ("makruk", "8/8/3k4/8/3s4/8/8/3RK3 w - 128 10 40", "d1d4",
     "8/8/3k4/8/3R4/8/8/4K3 b - 32 6 40"),
    # ASEAN counts from zero, and only for a bare king.
    ("asean", "8/8/3k4/8/8/3KN3/8/8 w - - 0 1", "d3d2",
     "8/8/3k4/8/8/4N3/3K4/8 b - 128 0 1"),
    ("asean", "8/8/3kq3/8/8/2QKN3/8/8 w - - 0 1", "d3d2",
     "8/8/3kq3/8/8/2Q1N3/3K4/8 b - - 1 1"),
    # Cambodian chess counts the board with pawns standing, up to three pieces.
    ("cambodian", "8/8/3kpp2/8/8/3KS3/8/8 w - - 0 1", "d3d2",
     "8/8/3kpp2/8/8/4S3/3K4/8 b - 126 0 1"),
    ("cambodian", "8/8/2pkpp2/8/8/3KS3/8/8 w - - 0 1", "d3d2",
     "8/8/2pkpp2/8/8/4S3/3K4/8 b - - 1 1"),
]


@pytest.mark.parametrize(("name", "fen", "move", "after"), COUNTS)
def test_counts_start_as_pyffish_writes_them(name: str, fen: str, move: str,
                                             after: str) -> None:
    game = variantkit.load(name).new_game(fen)
    game.push(move)
    assert game.fen() == after
    game.pop()
    assert game.fen() == fen


def test_a_position_string_with_a_bad_count_is_refused() -> None:
    makruk = variantkit.load("makruk")
    with pytest.raises(InvalidFenError, match="counting limit must be a whole number"):
        makruk.new_game("8/8/3k4/8/8/4R3/3K4/8 b - 99999999999999 3 40")
    with pytest.raises(InvalidFenError, match="unknown en passant cell '32x'"):
        makruk.new_game("8/8/3k4/8/8/4R3/3K4/8 b - 32x 3 40")


def test_makpong_king_may_only_take_the_checking_piece() -> None:
    fen = "3k4/8/8/8/8/8/3r4/3K4 w - - 0 1"
    assert sorted(map(str, variantkit.load("makpong").new_game(fen).legal_moves)) == ["d1d2"]
    assert "d1c1" in variantkit.load("makruk").new_game(fen).legal_moves


def test_cambodian_leaps_and_their_rights() -> None:
    cambodian = variantkit.load("cambodian")
    game = cambodian.new_game()
    assert {"d1b2", "d1f2"} <= {str(m) for m in game.legal_moves}
    game.push("d1f2")
    assert game.fen().split()[2] == "Ede"
    # No leap while in check.
    checked = cambodian.new_game("3k4/8/8/8/8/8/8/r2KM3 w DE - 0 1")
    assert sorted(map(str, checked.legal_moves)) == ["d1c2", "d1d2", "d1e2"]
    # A rook moving onto the king's rank takes the king's leap, even
    # behind other pieces; on another file it does not.
    fen = "4k3/8/8/8/8/8/6r1/3KM2R b DEe - 0 1"
    aimed = cambodian.new_game(fen)
    aimed.push("g2g1")
    assert aimed.fen().split()[2] == "Ee"
    aimed.pop()
    aimed.push("g2e2")
    assert aimed.fen().split()[2] == "DEe"
    # A right missing from the string is a piece that has moved.
    assert "d1b2" not in cambodian.new_game(
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w Ede - 0 1").legal_moves


def test_an_unknown_right_letter_is_refused() -> None:
    with pytest.raises(InvalidFenError, match="unknown castling right 'A'"):
        variantkit.load("cambodian").new_game(
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w ADEde - 0 1")


def test_plain_variants_keep_one_generator_list() -> None:
    """Only variants that restrict a primitive in check get a second list."""
    chess = variantkit.load("chess")
    assert chess.rules.codes.check_generators is chess.rules.codes.generators
    cambodian = variantkit.load("cambodian")
    assert cambodian.rules.codes.check_generators is not cambodian.rules.codes.generators


def _problems(tmp_path: Path, text: str) -> list[tuple[str, int | None]]:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError) as info:
        variantkit.load(str(path))
    return [(p.rule, p.line) for p in info.value.problems]


@pytest.mark.parametrize(("text", "expected"), [
    ("variantkit: 1\nname: x\ninherits: makruk\nend:\n  counting:\n    bare:\n"
     "      start: zero\n      last-pawn: true\n", ("bad-counting", 8)),
    ("variantkit: 1\nname: x\ninherits: giveaway\npieces:\n  king:\n    moves:\n"
     "      - {step: all, in-check: never}\n", ("bad-in-check", 7)),
    ("variantkit: 1\nname: x\ninherits: diplomat\nposition-string:\n"
     "  initial-rights: [king]\n", ("initial-rights-board", 5)),
    ("variantkit: 1\nname: x\ninherits: makruk\nend:\n  counting:\n    bare:\n      limits:\n"
     "        - {pieces: {queen: 1}, moves: 8}\n", ("unknown-piece", 8)),
    ("variantkit: 1\nname: x\ninherits: chess\npieces:\n  king:\n    moves:\n"
     "      - {step: all, in-check: sometimes}\n", ("schema", 7)),
    ("variantkit: 1\nname: x\ninherits: chess\nend:\n  counting: {pawns: [pawn]}\n",
     ("schema", 5)),
    ("variantkit: 1\nname: x\ninherits: chess\npieces:\n  king:\n"
     "    initial-until-aimed-by: [dragon]\n", ("unknown-piece", 6)),
])
def test_bad_declarations_are_located(tmp_path: Path, text: str,
                                      expected: tuple[str, int]) -> None:
    assert expected in _problems(tmp_path, text)


def test_capture_checker_in_a_chess_like_game() -> None:
    """`in-check` works in the plain game too (a variant with one royal piece
    and no other special rule): the king may only take a lone checker."""
    variant = variantkit.load_text(
        "variantkit: 1\nname: x\ninherits: chess\npieces:\n  king:\n    moves:\n"
        "      - {step: all, in-check: capture-checker}\n")
    assert not variant.rules.general  # the plain position serves it
    one = variant.new_game("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    assert sorted(map(str, one.legal_moves)) == ["e1e2"]
    # Two checkers: the king may take neither, and nothing else helps.
    two = variant.new_game("4k3/8/8/8/8/3n4/4r3/4K3 w - - 0 1")
    assert not two.legal_moves and two.is_checkmate()
    assert sorted(map(str, variantkit.load("chess").new_game(two.fen()).legal_moves)) \
        == ["e1d1", "e1e2", "e1f1"]
