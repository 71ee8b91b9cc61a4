"""Royals by count, declared end conditions, forced capture and explosions,
one small hand-made position per rule (worked out from the rules, not read
off the engine).  Fairy-Stockfish checks the same games along perft trees
and random games in test_fsf_catalogue.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variantkit
from variantkit import InvalidFenError, Outcome


def moves(name: str, fen: str) -> set[str]:
    return {str(m) for m in variantkit.load(name).new_game(fen=fen).legal_moves()}


def outcome(name: str, fen: str) -> Outcome | None:
    return variantkit.load(name).new_game(fen=fen).outcome()


# -- counted checks -----------------------------------------------------------
def test_checks_are_counted_in_the_position_string_and_taken_back() -> None:
    game = variantkit.load("3check").new_game()
    assert game.fen().split()[4] == "3+3"
    for move in ["e2e4", "f7f6", "f1b5"]:     # no check, no check, no check
        game.push(move)
    game.push("c7c6")
    game.push("d1h5")                         # check
    assert game.is_check()
    assert game.fen() == "rnbqkbnr/pp1pp1pp/2p2p2/1B5Q/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 2+3 1 3"
    game.pop()
    assert game.fen().split()[4] == "3+3"


def test_the_third_check_wins_and_ends_the_game() -> None:
    game = variantkit.load("3check").new_game(
        fen="rnbqkbnr/pp1pp1pp/2p2p2/1B6/4P3/8/PPPP1PPP/RNBQK1NR w KQkq - 1+3 0 3")
    assert game.outcome() is None
    game.push("d1h5")
    assert game.outcome() == Outcome("white", "check-count")
    assert game.legal_moves() == []


def test_a_bad_checks_field_is_refused() -> None:
    three = variantkit.load("3check")
    for field in ["4+3", "3+", "a+b", "1+2+3"]:
        with pytest.raises(InvalidFenError, match="checks field"):
            three.new_game(fen=f"4k3/8/8/8/8/8/8/4K3 w - - {field} 0 1")
    # Without the field, each side still has all its checks to give.
    assert three.new_game(fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1").fen().split()[4] == "3+3"


# -- a royal piece reaching a region ------------------------------------------
def test_a_king_on_the_hill_wins() -> None:
    game = variantkit.load("kingofthehill").new_game(fen="4k3/8/8/8/8/4K3/8/8 w - - 0 1")
    game.push("e3d4")
    assert game.outcome() == Outcome("white", "region")
    assert game.legal_moves() == []


def test_racing_kings_black_may_answer_whites_arrival() -> None:
    # White reaches the eighth rank; Black's king can reach it too: play on.
    fen = "8/1k4K1/8/8/8/8/8/8 w - - 0 1"
    game = variantkit.load("racingkings").new_game(fen=fen)
    game.push("g7g8")
    assert game.outcome() is None
    game.push("b7b8")
    assert game.outcome() == Outcome(None, "region")
    # Black cannot get there in one move: White has won.
    assert outcome("racingkings", "6K1/8/1k6/8/8/8/8/8 b - - 0 1") == Outcome("white", "region")
    # Black gets there first: White has no answer.
    assert outcome("racingkings", "1k6/8/6K1/8/8/8/8/8 w - - 0 1") == Outcome("black", "region")


def test_racing_kings_moves_never_give_check() -> None:
    # The rook would check from a6 or e1: those moves are refused.
    legal = moves("racingkings", "8/8/4k3/8/8/8/8/R5K1 w - - 0 1")
    assert "a1a6" not in legal and "a1e1" not in legal and "a1a7" in legal


# -- forced capture, the king as an ordinary piece ------------------------------
def test_antichess_captures_are_compulsory_and_the_king_is_taken() -> None:
    assert moves("antichess", "8/8/8/3k4/4P3/8/8/8 w - - 0 1") == {"e4d5"}
    assert moves("antichess", "8/8/8/3k4/8/8/4P3/8 w - - 0 1") == {"e2e3", "e2e4"}
    # Nothing to capture: every move, the king's into attack included.
    assert "d5e5" in moves("antichess", "8/8/8/3k4/5P2/8/8/8 b - - 0 1")


def test_antichess_losing_every_piece_or_being_stalemated_wins() -> None:
    assert outcome("antichess", "8/8/8/3k4/8/8/8/8 w - - 0 1") == Outcome("white", "extinction")
    # White's pawn is blocked and White has nothing else: stalemated, White wins.
    assert outcome("antichess", "8/8/8/8/8/4p3/4P3/8 w - - 0 1") == Outcome("white", "stalemate")


def test_suicide_stalemate_goes_to_the_side_with_fewer_pieces() -> None:
    fen = "8/8/7p/8/8/4p3/4P3/8 w - - 0 1"   # White stalemated, one piece against two
    assert outcome("suicide", fen) == Outcome("white", "stalemate")
    assert outcome("suicide", "8/8/8/8/8/4p3/4P3/8 w - - 0 1") == Outcome(None, "stalemate")


def test_losers_a_capture_that_leaves_the_king_in_check_does_not_count() -> None:
    # The bishop on e2 is pinned by the rook on e8: its capture on d3 is
    # illegal, so White need not capture and any legal move will do.
    assert moves("losers", "4r2k/8/8/8/8/3p4/4B3/4K3 w - - 0 1") == {
        "e1d1", "e1d2", "e1f1", "e1f2"}


def test_losers_a_lone_king_wins() -> None:
    assert outcome("losers", "7k/8/8/8/8/8/8/4K2R b - - 0 1") == Outcome("black", "extinction")


def test_codrus_losing_the_king_wins() -> None:
    assert outcome("codrus", "8/8/8/3q4/8/8/8/4K3 w - - 0 1") == Outcome("black", "extinction")


# -- extinction ----------------------------------------------------------------
def test_extinction_losing_every_piece_of_one_kind_loses() -> None:
    fen = "r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"   # Black has no knight
    assert outcome("extinction", fen) == Outcome("white", "extinction")
    assert outcome("extinction", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") \
        is None


def test_three_kings_losing_one_king_loses() -> None:
    fen = "knbq1bnk/pppppppp/8/8/8/8/PPPPPPPP/KNBQKBNK b - - 0 1"
    assert outcome("threekings", fen) == Outcome("white", "extinction")
    # Kings are ordinary pieces: one may be left attacked.
    legal = moves("threekings", "k6k/8/8/8/8/4k3/8/K2KR2K b - - 0 1")
    assert "e3e2" in legal


def test_horde_first_rank_double_steps_and_a_white_side_with_nothing_left() -> None:
    legal = moves("horde", "4k3/8/8/8/8/8/8/P7 w - - 0 1")
    assert legal == {"a1a2", "a1a3"}
    assert outcome("horde", "4k3/8/8/8/8/8/8/8 w - - 0 1") == Outcome("black", "extinction")


# -- explosions ------------------------------------------------------------------
def test_a_capture_blows_up_the_pieces_around_it_except_pawns() -> None:
    fen = "4k3/8/3P4/2nrb3/2p1p3/8/8/3RK3 w - - 0 1"
    game = variantkit.load("atomic").new_game(fen=fen)
    game.push("d1d5")
    # The rook on d5 is taken and the white rook goes with it, and so do the
    # knight and the bishop beside it; the pawns around it stay.
    assert game.fen().split()[0] == "4k3/8/3P4/8/2p1p3/8/8/4K3"
    game.pop()
    assert game.fen() == fen


def test_atomic_legality_follows_from_the_blast() -> None:
    # The king never captures (it would blow itself up).
    assert "e1e2" not in moves("atomic", "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1")
    # A capture beside one's own king blows it up: illegal.
    assert "a2d2" not in moves("atomic", "4k3/8/8/8/8/8/R2p4/4K3 w - - 0 1")


def test_atomic_blowing_up_the_enemy_king_wins_whatever_it_leaves() -> None:
    # White is in check from the rook on h1; Rxd3 blows up the king on d4.
    game = variantkit.load("atomic").new_game(fen="8/8/8/8/3k4/3p4/8/3RK2r w - - 0 1")
    assert game.is_check()
    game.push("d1d3")
    assert game.outcome() == Outcome("white", "extinction")


def test_atomic_kings_side_by_side_are_never_in_check() -> None:
    game = variantkit.load("atomic").new_game(fen="8/8/8/8/8/8/3k4/r3K3 w - - 0 1")
    assert not game.is_check()
    assert game.checked_cell() is None


def test_nocheckatomic_the_king_may_be_left_attacked() -> None:
    assert "e1e2" in moves("nocheckatomic", "4r2k/8/8/8/8/8/8/4K3 w - - 0 1")
    assert not variantkit.load("nocheckatomic").new_game(
        fen="4r2k/8/8/8/8/8/8/4K3 w - - 0 1").is_check()


# -- several royal pieces ----------------------------------------------------------
def test_coregal_a_queen_may_not_be_left_attacked() -> None:
    game = variantkit.load("coregal").new_game(fen="4k3/8/8/8/8/8/3r4/Q3K3 w - - 0 1")
    assert game.is_check() is False
    game = variantkit.load("coregal").new_game(fen="4k3/8/8/8/r7/8/8/Q3K3 w - - 0 1")
    assert game.is_check() and game.checked_cell() == "a1"
    assert all(m.from_cell == "a1" or m.to_cell == "a4" for m in game.legal_moves())


# -- bare king -------------------------------------------------------------------------
def test_shatranj_bare_king() -> None:
    # Black bared, and it is White's move: Black had its reply, and loses.
    assert outcome("shatranj", "k7/8/8/8/8/8/8/KR6 w - - 0 1") == Outcome("white", "bare-king")
    # Black bared, Black to move, White has one piece: Black may still bare
    # White in reply (here it cannot reach the rook, but the game goes on).
    assert outcome("shatranj", "k7/8/8/8/8/8/8/KR6 b - - 0 1") is None
    # White has two pieces: no reply can bare it, Black loses at once.
    assert outcome("shatranj", "k7/8/8/8/8/8/8/KRR5 b - - 0 1") == Outcome("white", "bare-king")
    # Two bare kings play on.
    assert outcome("shatranj", "k7/8/8/8/8/8/8/K7 w - - 0 1") is None


def test_armageddon_draws_go_to_black() -> None:
    assert outcome("armageddon", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") == Outcome("black", "stalemate")


# -- invariants ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["3check", "atomic", "antichess", "coregal", "horde"])
@settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_push_and_pop_restore_counts_and_blown_up_pieces(name: str, data: st.DataObject) -> None:
    """Along a walk chosen by hypothesis, every legal move pushed and popped
    gives back the same position string (check counts, exploded pieces),
    and the position string reads back as the same position."""
    variant = variantkit.load(name)
    game = variant.new_game()
    for _ in range(data.draw(st.integers(0, 30), label="plies")):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
    here, here_moves = game.fen(), sorted(str(m) for m in game.legal_moves())
    for move in game.legal_moves():
        game.push(move)
        assert variant.new_game(fen=game.fen()).fen() == game.fen()
        game.pop()
        assert game.fen() == here
    assert sorted(str(m) for m in game.legal_moves()) == here_moves
    assert game.copy().fen() == here
