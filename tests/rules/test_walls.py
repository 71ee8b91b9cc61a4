"""Walls put as part of a move (`walls:`): the move string `e2e4,e4e5`,
walls written `*` in position strings, SAN as Fairy-Stockfish writes it,
make/unmake, the rule's checks and the engine playing duck chess.  The
catalogue (tests/fsf/test_fsf_catalogue.py) compares the six bundled games with
walls against pyffish move by move; here are the forms and corner cases."""

from __future__ import annotations

import pyffish
import pytest

import variantkit
from variantkit import IllegalMoveError, Move, VariantError
from variantkit.engine.search import Engine
from variantkit.game import perft
from variantkit.pgn import read_pgn, write_pgn

DUCK_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_a_walled_move_is_written_as_fairy_stockfish_writes_it() -> None:
    game = variantkit.load("duck").new_game()
    move = game.push("e2e4,e4e5")
    assert move == Move("e2", "e4", wall="e5")
    assert str(move) == "e2e4,e4e5"
    assert game.fen() == "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    # A Move value names the same move as its string.
    game.push(Move("d7", "d5", wall="d4"))
    assert [str(m) for m in game.move_stack] == ["e2e4,e4e5", "d7d5,d5d4"]


def test_the_duck_moves_and_never_stays() -> None:
    game = variantkit.load("duck").new_game()
    game.push("e2e4,e4e5")
    moves = {str(m) for m in game.legal_moves()}
    assert "a7a6,a6e5" not in moves   # the duck must move on
    assert "a7a6,a6a7" in moves       # ... and may go to the cell just left
    game.push("a7a6,a6e6")
    assert game.fen().split()[0] == "rnbqkbnr/1ppppppp/p3*3/8/4P3/8/PPPP1PPP/RNBQKBNR"


def test_a_duck_move_clears_every_wall_before_it() -> None:
    # As pyffish: a position string may hold several walls; the duck's move
    # takes them all away.
    fen = "rnbqkbnr/pppppppp/8/4*3/4P3/2*5/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    game = variantkit.load("duck").new_game(fen)
    assert len(game.legal_moves()) == len(pyffish.legal_moves("duck", fen, [])) == 570
    game.push("a7a6,a6a7")
    assert game.fen() == pyffish.get_fen("duck", fen, ["a7a6,a6a7"])


def test_unmake_restores_position_walls_and_hash() -> None:
    for name, line in (("duck", ["e2e4,e4e5", "d7d5,d5c3", "e4d5,d5e4"]),
                       ("amazons", ["d1d7,d7d8", "a7b6,b6b1"]),
                       ("snailtrail", ["a1b2,b2a1", "g7f6,f6g7"])):
        game = variantkit.load(name).new_game()
        before = (game.fen(), game.position.hash, game.position.walls)
        for move in line:
            game.push(move)
        for _ in line:
            game.pop()
        assert (game.fen(), game.position.hash, game.position.walls) == before, name


@pytest.mark.parametrize(("fen", "move", "written"), [
    (DUCK_START, "e2e4,e4e5", "e4,e5"),
    (DUCK_START, "g1f3,f3f4", "Nf3,f4"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1,g1b1", "O-O,b1"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q,a8b3", "a8=Q,b3"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6,d6d5", "exd6,d5"),
])
def test_san_of_duck_moves_equals_pyffish(fen: str, move: str, written: str) -> None:
    game = variantkit.load("duck").new_game(fen)
    assert game.san(move) == written == pyffish.get_san("duck", fen, move)
    assert str(game.parse_san(written)) == move


def test_san_disambiguates_as_pyffish_among_walled_moves() -> None:
    start = pyffish.start_fen("amazons")
    game = variantkit.load("amazons").new_game()
    # The queen on a4 reaches d7 too: Qdd7.
    assert game.san("d1d7,d7d8") == "Qdd7,d8" == pyffish.get_san("amazons", start, "d1d7,d7d8")
    snail = variantkit.load("snailtrail").new_game()
    assert snail.san("a1b2,b2a1") == "Pb2,a1"


def test_pgn_round_trip_with_walls() -> None:
    game = variantkit.load("duck").new_game()
    for move in ("e2e4,e4e5", "d7d5,d5e3", "e4d5,d5e4"):
        game.push(move)
    text = write_pgn(game)
    assert "1. e4,e5 d5,e3 2. exd5,e4" in text
    assert read_pgn(text).fen() == game.fen()


@pytest.mark.parametrize(("text", "said"), [
    ("e4d5", "written 'e4d5,d5' and the wall's cell"),
    ("e4d5,e3e4", "after the comma comes the move's landing cell d5"),
    ("e4d5,d5e3", "after e4d5 the wall may go to a3"),
    ("e4d6,d6a1", "legal moves from e4, each then followed by its wall: e4d5, e4e5"),
    ("zz", "written as the move, a comma, its landing cell and the wall's cell"),
])
def test_a_bad_walled_move_says_why(text: str, said: str) -> None:
    game = variantkit.load("duck").new_game()
    game.push("e2e4,e4e5")
    game.push("d7d5,d5e3")
    with pytest.raises(IllegalMoveError, match=None) as caught:
        game.push(text)
    assert said in str(caught.value)


def test_perft_counts_walled_moves() -> None:
    assert perft(variantkit.load("snailtrail").new_game(), 3) == 45
    assert perft(variantkit.load("joust").new_game(), 2) == 62


def test_the_isolation_start_cells_never_take_a_wall() -> None:
    game = variantkit.load("isolation").new_game()
    walls = {m.wall for m in game.legal_moves()}
    assert "c1" not in walls and "d8" not in walls and "c2" in walls


# A small game of the author's own, so that nothing is inherited.
WALLED_GAME = """variantkit: 1
name: walled
board: {grid: {files: 4, ranks: 4}}
pieces: {stepper: {letter: S, betza: mK}}
royals: {per-side: any}
setup: 3s/4/4/S3 w - - 0 1
walls: """
WALLS_LINE = 7


@pytest.mark.parametrize(("walls", "rule"), [
    ("{kind: duck}\n", "walls-mark"),
    ("{kind: anywhere, region: [a1], except: [a1]}\nposition-string: {holes: '*'}\n",
     "walls-region"),
    ("{kind: anywhere, region: nowhere}\nposition-string: {holes: '*'}\n",
     "unknown-region"),
])
def test_the_rule_is_checked_with_located_errors(tmp_path: pytest.TempPathFactory,
                                                   walls: str, rule: str) -> None:
    path = tmp_path / "walled.yaml"  # type: ignore[operator]
    path.write_text(WALLED_GAME + walls)
    with pytest.raises(VariantError) as caught:
        variantkit.load(str(path))
    problems = [p for p in caught.value.problems if p.rule == rule]
    assert problems and problems[0].line == WALLS_LINE


def test_an_unknown_kind_is_a_schema_error(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "walled.yaml"  # type: ignore[operator]
    path.write_text(WALLED_GAME + "{kind: moat}\nposition-string: {holes: '*'}\n")
    with pytest.raises(VariantError) as caught:
        variantkit.load(str(path))
    assert any(p.line == WALLS_LINE and "moat" in p.message for p in caught.value.problems)


def test_a_game_of_ones_own_with_walls_plays(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "walled.yaml"  # type: ignore[operator]
    path.write_text(WALLED_GAME + "{kind: past}\nposition-string: {holes: '*'}\n")
    game = variantkit.load(str(path)).new_game()
    assert sorted(str(m) for m in game.legal_moves()) == ["a1a2,a2a1", "a1b1,b1a1", "a1b2,b2a1"]


def test_the_engine_plays_duck_chess_to_the_end() -> None:
    variant = variantkit.load("duck")
    engine = Engine(variant)
    game = variant.new_game("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1")
    while game.outcome() is None and game.plies < 200:
        move = engine.best_move(game, depth=1)
        assert move is not None and move.wall is not None
        game.push(move)
    assert game.outcome() is not None


def test_the_engine_takes_the_king_in_duck_chess() -> None:
    variant = variantkit.load("duck")
    game = variant.new_game("R3k3/8/8/8/8/8/8/4K3 w - - 0 1")
    game.push(Engine(variant).best_move(game, depth=1))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "white" and outcome.reason == "extinction"
