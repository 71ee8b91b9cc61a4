"""Standard algebraic notation (variantkit.notation.san): against python-chess and
Fairy-Stockfish (pyffish) where the games are shared, round trips of every
legal move's SAN on every bundled game, and hostile input."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pyffish
import pytest
from catalogue import on_both_builds
from hypothesis import given, settings
from hypothesis import strategies as st

import variantkit
from variantkit import Game, IllegalMoveError, Move
from variantkit.notation.san import MAX_TEXT, legal_san, name_parts, san_moves

# On the pure build under `make oracle` only: SAN is not compiled, and the
# pure core's moves on these boards are checked by the catalogue tests in
# `make test` (this module's pure run cost `make test` a minute).
pytestmark = pytest.mark.pure_in_oracle

EXAMPLES = sorted(Path(__file__).parent.parent.parent.joinpath("examples").glob("*.yaml"))
TRICE_START_FEN = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"
# Our variant, the pyffish variant that plays the same game, its start position.
SHARED = {
    "chess": ("chess", None),
    "trice": ("capablanca", TRICE_START_FEN),
    "capablanca": ("capablanca", None),
    "crazyhouse": ("crazyhouse", None),
}


def load(name: str) -> variantkit.Variant:
    path = Path(__file__).parent.parent.parent / "examples" / f"{name}.yaml"
    return variantkit.load(path if path.exists() else name)


def random_positions(game: Game, seed: int, plies: int) -> list[Game]:
    """The positions of one seeded random game (the start included)."""
    rng = random.Random(seed)
    out = [game.copy()]
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
        out.append(game.copy())
    return out


def compare_with_pyffish(name: str, seed: int, plies: int) -> None:
    sf_variant, fen = SHARED[name]
    start = load(name).new_game(fen)
    base = start.fen()
    game = start.copy()
    played: list[str] = []
    for position in random_positions(game, seed, plies):
        moves = position.legal_moves()
        ours = legal_san(position)
        theirs = [pyffish.get_san(sf_variant, position.fen(), str(m)) for m in moves]
        assert ours == theirs, f"SAN differs at {position.fen()}"
        if position.plies > start.plies:
            played.append(str(position.move_stack[-1]))
    assert san_moves(start, played) == pyffish.get_san_moves(sf_variant, base, played)


@pytest.mark.parametrize("name", sorted(SHARED))
def test_san_matches_pyffish(name: str) -> None:
    compare_with_pyffish(name, 1, 20)


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(SHARED))
@pytest.mark.parametrize("seed", range(2, 8))
def test_san_matches_pyffish_deeply(name: str, seed: int) -> None:
    compare_with_pyffish(name, seed, 150)


@pytest.mark.parametrize("seed", range(2))
def test_san_matches_python_chess(seed: int) -> None:
    game = variantkit.load("chess").new_game()
    for position in random_positions(game, seed, 120):
        board = chess.Board(position.fen())
        for move, text in zip(position.legal_moves(), legal_san(position), strict=True):
            assert text == board.san(chess.Move.from_uci(str(move))), position.fen()
            assert board.parse_san(text).uci() == str(move)


def every_variant() -> list[str]:
    return variantkit.variants() + [p.stem for p in EXAMPLES]


def assert_round_trips(name: str, seed: int, plies: int, wide_plies: int = 3) -> None:
    """Every legal move's SAN reads back, along a seeded random game of
    `plies`, or `wide_plies` where the start has over 200 moves (walls:
    every move times its wall cells)."""
    game = load(name).new_game()
    if len(game.legal_moves()) > 200:
        plies = min(plies, wide_plies)
    for position in random_positions(game, seed, plies):
        texts = legal_san(position)
        assert len(set(texts)) == len(texts), f"two moves share a SAN at {position.fen()}"
        # Each reading looks at every legal move: where each move also
        # places a wall (duck chess 1,200 moves, amazons 2,176), twenty of them.
        pairs = list(zip(position.legal_moves(), texts, strict=True))
        for move, text in pairs[::1 if len(pairs) <= 300 else len(pairs) // 20]:
            assert position.parse_san(text) == move, (text, position.fen())
            assert position.parse_san(str(move)) == move


# A short game each in make test: SAN is pure Python on both builds and
# each reading goes through the legal moves, so games of 24 plies (3 where
# walls widen the moves) cost it 30 s more CPU; make oracle plays four
# games of 120 plies each.
@pytest.mark.parametrize("name", on_both_builds(every_variant()))
def test_every_legal_move_round_trips(name: str) -> None:
    assert_round_trips(name, 7, 12, wide_plies=1)


@pytest.mark.oracle
@pytest.mark.parametrize("name", every_variant())
@pytest.mark.parametrize("seed", range(8, 12))
def test_every_legal_move_round_trips_deeply(name: str, seed: int) -> None:
    assert_round_trips(name, seed, 120)


def test_disambiguation_by_file_rank_and_square() -> None:
    # Three queens reach d4: a1 and a4 share the file, a4 and h4 the rank.
    game = variantkit.load("chess").new_game(fen="2k5/8/8/8/Q6Q/8/8/Q3K2Q w - - 0 1")
    assert game.san("a1d4") == "Q1d4"
    assert game.san("a4d4") == "Qa4d4"
    assert game.san("h4d4") == "Qhd4"
    board = chess.Board(game.fen())
    for move in game.legal_moves:
        assert game.san(move) == board.san(chess.Move.from_uci(str(move)))


def test_chess_marks() -> None:
    game = variantkit.load("chess").new_game()
    for text in ["f3", "e5", "g4"]:
        game.push_san(text)
    assert game.san("d8h4") == "Qh4#"
    game.push_san("Qh4#")
    assert game.is_checkmate() and game.is_game_over() and not game.is_stalemate()
    promo = variantkit.load("chess").new_game(fen="1n6/P7/2k5/8/8/8/8/4K2R w K - 0 1")
    assert promo.san("a7a8q") == "a8=Q+"
    assert promo.san("a7b8n") == "axb8=N+"
    assert promo.san("e1g1") == "O-O"
    en_passant = variantkit.load("chess").new_game(
        fen="4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    assert en_passant.san("e5d6") == "exd6"


def test_lenient_reading() -> None:
    game = variantkit.load("chess").new_game(
        fen="r3k3/1P6/8/4p3/8/5N2/8/R3K2R w KQq - 0 1")
    assert game.parse_san("0-0") == Move("e1", "g1")
    assert game.parse_san("Kg1") == Move("e1", "g1")
    assert game.parse_san("O-O-O") == Move("e1", "c1")
    assert game.parse_san("Ne5") == game.parse_san("Nxe5") == Move("f3", "e5")
    assert game.parse_san("Nfxe5") == Move("f3", "e5")
    assert game.parse_san("bxa8=Q") == game.parse_san("bxa8Q") == game.parse_san("bxa8=q") \
        == Move("b7", "a8", "q")
    assert game.parse_san("b8Q+") == Move("b7", "b8", "q")
    assert game.parse_san("f3e5") == Move("f3", "e5")
    assert game.parse_san("b7b8Q") == Move("b7", "b8", "q")
    assert game.parse_san("  Ra2!? ") == Move("a1", "a2")


@pytest.mark.parametrize(("text", "message"), [
    ("Nf5", "illegal move 'Nf5'; the legal knight moves are"),
    ("Bc4", "white has no legal move with that piece"),
    ("zz9", "'zz9' is not a move here: expected SAN such as"),
    ("e2e5", "illegal move 'e2e5'; legal moves from e2: e2e3, e2e4"),
    ("", "empty move text"),
    ("+#", "empty move text"),
    ("N" * (MAX_TEXT + 1), "too long"),
])
def test_bad_input_is_explained(text: str, message: str) -> None:
    game = variantkit.load("chess").new_game()
    game.push("c2c3")
    game.push("c7c6")
    with pytest.raises(IllegalMoveError, match=None) as caught:
        game.push_san(text)
    assert message in str(caught.value)
    assert game.plies == 2


def test_ambiguous_and_wrong_types() -> None:
    game = variantkit.load("chess").new_game(fen="k7/8/8/8/8/8/8/N1N1K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="ambiguous move 'Nb3': it could be Nab3 or Ncb3"):
        game.parse_san("Nb3")
    with pytest.raises(IllegalMoveError):
        game.san("a1a2")
    over = variantkit.load("chess").new_game(fen="k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.parse_san("Ka7")


def test_san_of_the_wrong_type() -> None:
    game = variantkit.load("chess").new_game()
    with pytest.raises(IllegalMoveError, match="not 42"):
        game.parse_san(42)  # type: ignore[arg-type]


def test_suborn_plane_shift_and_other_boards() -> None:
    diplomat = variantkit.load("diplomat").new_game(
        fen="2BKRD3bkrd1/1PPPP2hppp1pH/5P5p2/1 b - - 2 4")
    suborn = next(m for m in diplomat.legal_moves if m.suborn)
    assert diplomat.san(suborn) == "D~n2"
    assert diplomat.parse_san("D~n2") == suborn
    strato = variantkit.load("strato").new_game()
    assert strato.san("Ae2Be4") == "Be4"          # the pawn's move to Be4, no letter
    assert strato.san("Ab1Ca3") == "NCa3"
    game = variantkit.load("strato").new_game()
    for text in ["Be4", "Be5", "NCa3"]:
        game.push_san(text)
    assert str(game.move_stack[-1]) == "Ab1Ca3"
    assert name_parts("Be4") == ["B", "e", "4"]
    assert name_parts("f10") == ["f", "10"]


def test_strato_castlings() -> None:
    # In-plane castlings are O-O and O-O-O; the vertical ones are king moves.
    strato = variantkit.load("strato").new_game(
        fen="8/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8|r3k2r/8/8/8/8/8/8/8 w KQkq - 0 1 -")
    texts = dict(zip((str(m) for m in strato.legal_moves), legal_san(strato), strict=True))
    assert (texts["Ae1Ag1"], texts["Ae1Ac1"]) == ("O-O", "O-O-O")
    assert (texts["Ae1Bg1"], texts["Ae1Bc1"]) == ("KBg1", "KBc1")
    assert strato.parse_san("O-O-O") == Move("Ae1", "Ac1")


def test_legal_moves_view() -> None:
    game = variantkit.load("chess").new_game()
    view = game.legal_moves
    assert len(view) == view.count() == 20 and bool(view)
    assert Move("g1", "f3") in view and "e2e4" in view and "e2e5" not in view
    assert 42 not in view
    assert [str(m) for m in view] == [str(m) for m in game.legal_moves()]
    game.push("e2e4")
    assert "e7e5" in view  # a live view of the current position
    assert repr(view).startswith("<LegalMoves (a6, a5, b6, b5,") and "Nf6" in repr(view)


def test_stalemate_and_text_board() -> None:
    game = variantkit.load("chess").new_game(fen="k7/8/1QK5/8/8/8/8/8 b - - 0 1")
    assert game.is_stalemate() and not game.is_checkmate() and game.is_game_over()
    assert str(game).splitlines()[0] == "8 k . . . . . . ."
    assert "FEN" not in str(game)
    assert game._repr_svg_().startswith("<svg")
    html = game._repr_html_()
    assert "<svg" in html and "game over: draw by stalemate" in html


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(variantkit.variants()),
       picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_san_plays_the_same_game_as_move_strings(name: str, picks: list[int]) -> None:
    by_string = variantkit.load(name).new_game()
    by_san = by_string.copy()
    for pick in picks:
        moves = by_string.legal_moves()
        if not moves:
            break
        move = moves[pick % len(moves)]
        by_san.push_san(by_string.san(move))
        by_string.push(move)
        assert by_san.fen() == by_string.fen()


STRATO = variantkit.load("strato")   # loaded once: reading a move changes no game


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80))
def test_any_text_is_a_move_or_a_clear_error(text: str) -> None:
    game = STRATO.new_game()
    try:
        move = game.parse_san(text)
    except IllegalMoveError as exc:
        assert str(exc)
    else:
        assert move in game.legal_moves
