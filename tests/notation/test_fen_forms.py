"""Every form of position string that Fairy-Stockfish and lichess write is
read, into the position pyffish reads from the same string: the pocket as
an extra rank, the checks given after the clocks, Chess960 castling rights
(X-FEN and Shredder-FEN) in variants that castle; `Game.fen(style=...)`
writes the other forms, and each reads back."""

from __future__ import annotations

import pyffish
import pytest
from fsf_oracle import Oracle, after

import variantkit
from variantkit.errors import InvalidFenError

# Not run again on the pure build (tests/conftest.py): position strings are read
# by pure-Python code in both builds; the catalogue tests hold the generator
# the games then use to pyffish on both builds.
PURE_PASS = False

# Rows of Fairy-Stockfish's perft suite (variant, position string, depth,
# leaves) in the forms variantkit did not read: the pocket as an extra rank,
# the checks given after the clocks, Chess960 castling rights.
PERFT_ROWS = [
    ("3check", "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0", 3, 12407),
    ("crazyhouse", "2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1", 3, 88634),
]
# Its Chess960 rows are compared in Chess960 mode by tests/rules/test_960.py.


def legal(game: variantkit.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


@pytest.mark.parametrize(("name", "fen", "depth", "leaves"), PERFT_ROWS)
def test_fairy_stockfish_perft_rows_read(name: str, fen: str, depth: int, leaves: int) -> None:
    game = variantkit.load(name).new_game(fen)
    assert legal(game) == set(pyffish.legal_moves(name, fen, []))
    Oracle(name).compare_fen(game.fen(), after(name, fen, []), fen)
    assert variantkit.perft(game, depth) == leaves


# -- the pocket as an extra rank -----------------------------------------------------

@pytest.mark.parametrize(("name", "lichess", "brackets"), [
    ("crazyhouse", "2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1"),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/Pp w - - 0 1",
     "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[Pp] w - - 0 1"),
])
def test_the_pocket_as_an_extra_rank(name: str, lichess: str, brackets: str) -> None:
    variant = variantkit.load(name)
    game = variant.new_game(lichess)
    assert game.fen() == brackets == after(name, lichess, [])
    assert legal(game) == set(pyffish.legal_moves(name, lichess, []))
    assert game.fen(style="lichess") == lichess
    assert variant.new_game(game.fen(style="lichess")).fen() == brackets


def test_a_rank_too_many_without_hands_is_still_refused() -> None:
    with pytest.raises(InvalidFenError, match="has 9 rows, the board has 8"):
        variantkit.load("chess").new_game("2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1")


@pytest.mark.parametrize(("fen", "message"), [
    ("2k5/8/8/8/8/8/8/4K3/3 w - - 0 1", "'3' in the hand '[3]' is not a piece"),
    ("2k5/8/8/8/8/8/8/4K3/Qn/q w - - 0 1", "has 10 rows, the board has 8"),
    ("2k5/8/8/8/8/8/8/4K3/Q[n] w - - 0 1", "has 9 rows, the board has 8"),
])
def test_bad_pockets_are_refused(fen: str, message: str) -> None:
    with pytest.raises(InvalidFenError, match=message.replace("[", r"\[").replace("]", r"\]")):
        variantkit.load("crazyhouse").new_game(fen)


# -- the checks given, after the clocks ----------------------------------------------

def test_checks_given_after_the_clocks() -> None:
    variant = variantkit.load("3check")
    board = "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - -"
    after_clocks = variant.new_game(f"{board} 1 39 +2+0")
    before_clocks = variant.new_game(f"{board} 1+3 1 39")
    assert after_clocks.fen() == before_clocks.fen() == f"{board} 1+3 1 39"
    assert after_clocks.fen(style="lichess") == f"{board} 1 39 +2+0"
    start = variant.new_game()
    assert start.fen(style="lichess").endswith(" 0 1 +0+0")
    assert variant.new_game(start.fen(style="lichess")).fen() == start.fen()


@pytest.mark.parametrize(("tail", "message"), [
    ("0 1 +4+0", "checks field must be two counts from 0 to 3"),
    ("0 1 +2", "not '\\+2'"),
    ("0 1 ++", "checks field"),
    ("3+3 0 1 +0+0", "position string has 7 fields, at most 6"),
    ("0 1 +" + "9" * 5000 + "+0", "checks field"),
])
def test_bad_checks_fields_are_refused(tail: str, message: str) -> None:
    with pytest.raises(InvalidFenError, match=message):
        variantkit.load("3check").new_game(f"4k3/8/8/8/8/8/8/4K3 w - - {tail}")


# -- Chess960 castling in variants that castle -----------------------------------------

def test_rights_by_file_read_chess960_mode() -> None:
    chess = variantkit.load("chess")
    # White's king-side rook is not the outermost: its file names it, and the
    # position plays in Chess960 mode (tests/rules/test_960.py), as pyffish's.
    fen = "r3k2r/8/8/8/8/8/8/1K1R3R w Dkq - 0 1"
    game = chess.new_game(fen)
    assert game.fen() == pyffish.get_fen("chess", fen, [], True) \
        == "r3k2r/8/8/8/8/8/8/1K1R3R w Dha - 0 1"
    assert chess.new_game(game.fen()).fen() == game.fen()
    assert chess.new_game().fen(style="shredder").split()[2] == "HAha"
    assert "b1d1" in legal(game)
    assert legal(game) == set(pyffish.legal_moves("chess", fen, [], True))


def test_shredder_style_keeps_letters_where_files_name_gates() -> None:
    # Seirawan chess names its gating files in the castling field: a file
    # there is a gate, so castling keeps its letters.
    game = variantkit.load("seirawan").new_game()
    assert game.fen(style="shredder") == game.fen()
    assert game.fen().split()[2] == "KQBCDFGkqbcdfg"


@pytest.mark.parametrize(("rights", "message"), [
    ("KQkqK", "repeats a letter"),
    ("Z", "unknown castling right 'Z'"),
    ("C", "unknown castling right 'C'"),
])
def test_bad_960_rights_are_refused(rights: str, message: str) -> None:
    with pytest.raises(InvalidFenError, match=message):
        variantkit.load("chess").new_game(f"r3k2r/8/8/8/8/8/8/1K1R3R w {rights} - 0 1")


def test_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown position string style 'xboard'"):
        variantkit.load("chess").new_game().fen(style="xboard")
