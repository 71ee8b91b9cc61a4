"""The games whose turns have several moves (`turns:`), Marseillais,
Progressive and Monster chess, against a reference written here from the
published rules (docs/rules/marseillais.md, progressive.md, monster.md),
on python-chess: each move is a legal
python-chess move of the side whose turn it is (so no move leaves its own
king in check; in Monster chess, a pseudo-legal move judged by the king
capture the published rules describe), and the turn's rules are applied by hand around it: the
side to move is given back while the turn goes on, a check ends the turn,
and en passant is opened for the double steps of the turn just over.

Compared: perft in whole turns from the start (depth 1-2; 3 under the
`oracle` marker), the legal move sets, the board and the side to move
along seeded random games (a whole turn's perft from positions along
them), and positions reaching the open cases of the rules page.  Besides:
position strings inside a turn, the engine playing a legal game, and one
UCI session played move by move."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import chess
import pytest
from click.testing import CliRunner

import variantkit
from variantkit.cli import cli
from variantkit.engine.search import Engine
from variantkit.game import Game, perft
from variantkit.pgn import read_pgn, write_pgn
from variantkit.protocols.channel import Channel
from variantkit.protocols.uci import UciSession


@dataclass
class TurnRules:
    """A game's turn structure, as its rules page states it."""

    length: Callable[[bool, int], int]   # moves of a turn (side, move number)
    check_ends: bool
    leading_en_passant: bool             # later moves may take en passant after en passant


MARSEILLAIS = TurnRules(lambda white, number: 1 if white and number == 1 else 2, True, True)
PROGRESSIVE = TurnRules(lambda white, number: 2 * number - (1 if white else 0), True, False)
MONSTER = TurnRules(lambda white, number: 2 if white else 1, False, False)
MONSTER_START = "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1"


@dataclass
class Reference:
    """A position of a turn game: a python-chess board (its `turn` the side
    whose turn it is), the moves played in the turn, the en passant
    targets open to the side to move and the double steps it has made."""

    rules: TurnRules
    board: chess.Board = field(default_factory=chess.Board)
    number: int = 1      # the move number (a White turn and Black's reply)
    played: int = 0
    open: list[int] = field(default_factory=list)              # target squares
    made: list[tuple[int, int]] = field(default_factory=list)  # (target, pawn square)

    def legal(self) -> list[chess.Move]:
        board = self.board.copy(stack=False)
        board.ep_square = None
        moves = list(board.legal_moves)
        allowed = self.open if self.played == 0 or self.rules.leading_en_passant else []
        for target in allowed:
            board.ep_square = target
            moves += [m for m in board.legal_moves if board.is_en_passant(m)]
        return moves

    def push(self, move: chess.Move) -> None:
        board = self.board
        mover = board.turn
        en_passant = move.to_square in self.open and board.piece_type_at(move.from_square) \
            == chess.PAWN and chess.square_file(move.from_square) != chess.square_file(
                move.to_square) and board.piece_at(move.to_square) is None
        double = board.piece_type_at(move.from_square) == chess.PAWN \
            and abs(move.to_square - move.from_square) == 16
        board.ep_square = move.to_square if en_passant else None
        board.push(move)
        made = [(t, p) for t, p in self.made if p != move.from_square]
        if double:
            made.append(((move.from_square + move.to_square) // 2, move.to_square))
        self.played += 1
        ended = self.played >= self.rules.length(mover, self.number) \
            or (self.rules.check_ends and board.is_check())
        if ended:
            self.played = 0
            self.open = [t for t, _ in made if board.piece_at(t) is None]
            self.made = []
            if mover == chess.BLACK:
                self.number += 1
        else:
            board.turn = mover
            self.made = made
            self.open = [t for t in self.open if t != move.to_square] \
                if en_passant and self.rules.leading_en_passant else []
        board.clear_stack()

    def copy(self) -> Reference:
        return type(self)(self.rules, self.board.copy(stack=False), self.number, self.played,
                          list(self.open), list(self.made))


class MonsterReference(Reference):
    """Monster chess: a king may be captured.  Black may not leave its king
    where White's two moves could take it; White's first move may leave its
    own king attacked if some second move leaves it safe, and its second
    may not leave it attacked."""

    def pseudo(self) -> list[chess.Move]:
        board = self.board.copy(stack=False)
        board.ep_square = None
        moves = list(board.pseudo_legal_moves)
        for target in self.open if self.played == 0 else []:
            board.ep_square = target
            moves += [m for m in board.pseudo_legal_moves if board.is_en_passant(m)]
        return moves

    def legal(self) -> list[chess.Move]:
        legal = []
        for move in self.pseudo():
            child = self.copy()
            child.push(move)
            if child.board.turn == self.board.turn:   # White's second move is to come
                ok = bool(child.legal())
            else:
                ok = not child.king_capturable(self.board.turn)
            if ok:
                legal.append(move)
        return legal

    def king_capturable(self, side: bool) -> bool:
        """Whether the side to move can take `side`'s king within the moves
        of its turn left."""
        board = self.board
        king = board.king(side)
        if king is not None and board.is_attacked_by(not side, king):
            return True
        if self.rules.length(board.turn, self.number) - self.played <= 1:
            return False
        for move in self.pseudo():
            child = self.copy()
            child.push(move)
            if child.board.turn != side and child.king_capturable(side):
                return True
        return False

    def in_check(self) -> bool:
        side = self.board.turn
        if side == chess.WHITE:
            return self.board.is_check()
        white = self.copy()
        white.board.turn = chess.WHITE
        white.number += 1
        return white.king_capturable(chess.BLACK)


def seeds(count: int) -> list[Any]:  # pytest.param's values
    """Seeds 0 to `count` - 1 for random games: the first on both builds in
    `make test`, the others on the pure build under `make oracle` only."""
    return [pytest.param(seed, marks=[pytest.mark.pure_in_oracle] if seed else [])
            for seed in range(count)]


def reference_perft(ref: Reference, depth: int) -> int:
    """Sequences of `depth` whole turns (a turn cut short by no legal move
    counts as whole)."""
    if depth == 0:
        return 1
    moves = ref.legal()
    if not moves:
        return 1 if ref.played and depth == 1 else 0
    total = 0
    for move in moves:
        child = ref.copy()
        child.push(move)
        total += reference_perft(child, depth - (child.board.turn != ref.board.turn))
    return total


def uci_set(ref: Reference) -> set[str]:
    return {m.uci() for m in ref.legal()}


def game_set(game: Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def same(game: Game, ref: Reference) -> None:
    assert game_set(game) == uci_set(ref), game.fen()
    assert game.fen().split()[0] == ref.board.board_fen()
    assert game.turn == ("white" if ref.board.turn else "black")
    assert game.position.turn_played() == ref.played


def play_random(name: str, rules: TurnRules, seed: int, plies: int,
                start: list[str] | None = None) -> tuple[Game, Reference]:
    game = variantkit.load(name).new_game()
    ref = Reference(rules) if rules is not MONSTER \
        else MonsterReference(rules, chess.Board(MONSTER_START))
    for text in start or []:
        game.push(text)
        ref.push(chess.Move.from_uci(text))
    chooser = random.Random(seed)
    for _ in range(plies):
        same(game, ref)
        moves = sorted(uci_set(ref))
        if not moves:
            break
        text = chooser.choice(moves)
        game.push(text)
        ref.push(chess.Move.from_uci(text))
        again = variantkit.load(name).new_game(game.fen())
        assert again.fen() == game.fen()
        assert game_set(again) == game_set(game), game.fen()
    return game, ref


# -- Marseillais chess -----------------------------------------------------------

@pytest.mark.parametrize(("depth", "expected"), [(1, 20), (2, 8902)])
def test_marseillais_perft_counts_whole_turns(depth: int, expected: int) -> None:
    game = variantkit.load("marseillais").new_game()
    assert perft(game, depth) == expected == reference_perft(Reference(MARSEILLAIS), depth)


@pytest.mark.oracle
def test_marseillais_perft_3() -> None:
    game = variantkit.load("marseillais").new_game()
    assert perft(game, 3) == 4866854 == reference_perft(Reference(MARSEILLAIS), 3)


@pytest.mark.parametrize("seed", seeds(3))
def test_marseillais_random_games(seed: int) -> None:
    game, ref = play_random("marseillais", MARSEILLAIS, seed, 60)
    if not ref.legal():
        return
    assert perft(game, 1) == reference_perft(ref, 1)


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(3, 30))
def test_marseillais_more_random_games(seed: int) -> None:
    play_random("marseillais", MARSEILLAIS, seed, 120)


def test_marseillais_a_check_by_the_first_move_ends_the_turn() -> None:
    game = variantkit.load("marseillais").new_game()
    for text in ["e2e4", "e7e5", "f7f6", "d1h5"]:
        game.push(text)
    assert game.turn == "black" and game.position.turn_played() == 0
    assert game.is_check()


def test_marseillais_en_passant_of_either_move_of_the_turn() -> None:
    # White's d- and f-pawns step past Black's e4 pawn in one turn: either
    # may be taken by the first move, and the other then by the second.
    start = ["e2e3", "e7e5", "e5e4", "d2d4", "f2f4"]
    game, ref = play_random("marseillais", MARSEILLAIS, 0, 0, start)
    legal = game_set(game)
    assert {"e4d3", "e4f3"} <= legal
    game.push("e4d3")
    ref.push(chess.Move.from_uci("e4d3"))
    same(game, ref)
    assert "e4f3" not in game_set(game)   # the capturing pawn has left e4
    # A first move that is no en passant closes the other.
    game, ref = play_random("marseillais", MARSEILLAIS, 0, 0, start + ["g8f6"])
    assert not {"e4d3", "e4f3"} & game_set(game)


def test_marseillais_two_en_passant_captures_in_one_turn() -> None:
    start = ["e2e3", "e7e5", "c7c5", "h2h3", "h3h4", "e5e4", "c5c4", "b2b4", "f2f4"]
    game, ref = play_random("marseillais", MARSEILLAIS, 0, 0, start)
    assert {"c4b3", "e4f3"} <= game_set(game)
    game.push("c4b3")
    ref.push(chess.Move.from_uci("c4b3"))
    same(game, ref)
    assert "e4f3" in game_set(game)   # en passant again, after en passant
    written = game.fen()
    assert written.split()[3] == "f3" and written.endswith(" 1/2")
    assert game_set(variantkit.load("marseillais").new_game(written)) == game_set(game)


def test_marseillais_position_string_inside_a_turn() -> None:
    game = variantkit.load("marseillais").new_game()
    game.push("e2e4")
    game.push("c7c5")
    assert game.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 1/2:c6"
    again = variantkit.load("marseillais").new_game(game.fen())
    again.push("a7a6")
    game.push("a7a6")
    assert again.fen() == game.fen()
    assert variantkit.load("chess").new_game().fen() == chess.STARTING_FEN


def engine_plays_legal_moves(name: str, ref: Reference, plies: int, depth: int = 2) -> None:
    """The engine's moves in `name` from the start are legal by the
    reference `ref`, and leave the position it leaves."""
    variant = variantkit.load(name)
    game = variant.new_game()
    engine = Engine(variant)
    for _ in range(plies):
        if not ref.legal():
            break
        move = engine.best_move(game, depth=depth)
        assert str(move) in uci_set(ref)
        game.push(move)
        ref.push(chess.Move.from_uci(str(move)))
        same(game, ref)


def test_marseillais_engine_plays_a_legal_game() -> None:
    engine_plays_legal_moves("marseillais", Reference(MARSEILLAIS), 16)


def test_marseillais_uci_asks_again_while_the_turn_goes_on() -> None:
    out = io.StringIO()
    session = UciSession(Channel(io.BytesIO(), out))
    ref = Reference(MARSEILLAIS)
    played: list[str] = []
    for _ in range(3):
        session.command("setoption name UCI_Variant value marseillais")
        session.command("position startpos moves " + " ".join(played))
        session.command("go depth 1")
        assert session.thinking is not None
        session.thinking.wait()
        best = out.getvalue().splitlines()[-1].split()[1]
        assert best in uci_set(ref)
        ref.push(chess.Move.from_uci(best))
        played.append(best)
    assert ref.board.turn and ref.number == 2   # Black's turn of two moves: asked twice


# -- Progressive chess -----------------------------------------------------------

@pytest.mark.parametrize(("depth", "expected"), [(1, 20), (2, 8902)])
def test_progressive_perft_counts_whole_turns(depth: int, expected: int) -> None:
    game = variantkit.load("progressive").new_game()
    assert perft(game, depth) == expected == reference_perft(Reference(PROGRESSIVE), depth)


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(3, 30))
def test_progressive_more_random_games(seed: int) -> None:
    # (perft 3 from the start, White's turns of three moves below 8,902
    # sequences, is too large to count here)
    play_random("progressive", PROGRESSIVE, seed, 120)


@pytest.mark.parametrize("seed", seeds(3))
def test_progressive_random_games(seed: int) -> None:
    game, ref = play_random("progressive", PROGRESSIVE, seed, 70)
    if ref.legal() and ref.rules.length(ref.board.turn, ref.number) - ref.played == 1:
        assert perft(game, 1) == reference_perft(ref, 1)


def test_progressive_turns_grow_and_a_check_ends_one() -> None:
    game = variantkit.load("progressive").new_game()
    for text in ["e2e4", "e7e5", "g8f6"]:
        game.push(text)
    assert game.turn == "white"
    for text in ["d1h5", "b1c3"]:
        game.push(text)
        assert game.turn == "white"
    assert game.fen().endswith(" 2/3")
    game.push("h5f7")   # the third move, check: Black's turn of four moves begins
    assert game.turn == "black" and game.is_check()
    game.push("e8f7")
    assert game.turn == "black" and game.position.turn_played() == 1
    # A check given by the first move ends the turn early.
    game = variantkit.load("progressive").new_game()
    for text in ["e2e4", "f7f6", "g7g5"]:
        game.push(text)
    game.push("d1h5")
    assert game.turn == "black" and game.is_checkmate()


def test_progressive_en_passant_first_move_only() -> None:
    # White's b- and d-pawns step past Black's c4 pawn in White's turn of
    # three moves: either may be taken by Black's first move, not later.
    start = ["e2e3", "c7c5", "c5c4", "b2b4", "d2d4", "h2h3"]
    game, ref = play_random("progressive", PROGRESSIVE, 0, 0, start)
    assert {"c4b3", "c4d3"} <= game_set(game)
    written = game.fen()
    assert written.split()[3] == "b3d3"
    assert game_set(variantkit.load("progressive").new_game(written)) == game_set(game)
    game.push("a7a6")
    ref.push(chess.Move.from_uci("a7a6"))
    same(game, ref)
    assert not {"c4b3", "c4d3"} & game_set(game)


def test_progressive_position_string_keeps_the_turns_double_steps() -> None:
    start = ["e2e3", "a7a6", "a6a5", "b2b4", "d2d4"]
    game, _ = play_random("progressive", PROGRESSIVE, 0, 0, start)
    assert game.fen().endswith(" 2/3:b3d3")
    again = variantkit.load("progressive").new_game(game.fen())
    for position in (game, again):
        position.push("h2h3")
    assert again.fen() == game.fen()


def test_progressive_engine_plays_a_legal_game() -> None:
    engine_plays_legal_moves("progressive", Reference(PROGRESSIVE), 12)


# -- Monster chess ----------------------------------------------------------------

def monster_reference() -> MonsterReference:
    return MonsterReference(MONSTER, chess.Board(MONSTER_START))


@pytest.mark.parametrize(("depth", "expected"), [(1, 99), (2, 1976)])
def test_monster_perft_counts_whole_turns(depth: int, expected: int) -> None:
    game = variantkit.load("monster").new_game()
    assert perft(game, depth) == expected == reference_perft(monster_reference(), depth)


@pytest.mark.oracle
def test_monster_perft_3() -> None:
    game = variantkit.load("monster").new_game()
    assert perft(game, 3) == 204810 == reference_perft(monster_reference(), 3)


@pytest.mark.parametrize("seed", seeds(2))
def test_monster_random_games(seed: int) -> None:
    game, ref = play_random("monster", MONSTER, seed, 50)
    assert isinstance(ref, MonsterReference)
    assert game.is_check() == ref.in_check()


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(2, 16))
def test_monster_more_random_games(seed: int) -> None:
    game, ref = play_random("monster", MONSTER, seed, 80)
    assert isinstance(ref, MonsterReference)
    assert game.is_check() == ref.in_check()


def test_monster_white_king_passes_through_check() -> None:
    # The king takes a bishop the b3 knight guards with its first move,
    # and must step out of the knight's reach with its second.
    fen = "r2qkbnr/pppppppp/8/8/8/1n6/2PbPP2/4K3 w kq - 0 1"
    game = variantkit.load("monster").new_game(fen)
    ref = MonsterReference(MONSTER, chess.Board(fen))
    same(game, ref)
    assert "e1d2" in game_set(game)
    assert game.san("e1d2") == "Kxd2"
    game.push("e1d2")
    ref.push(chess.Move.from_uci("e1d2"))
    same(game, ref)
    assert game.turn == "white" and game.is_check()
    assert "d2c1" not in game_set(game) and "d2d1" in game_set(game)


def test_monster_black_in_check_from_two_moves_away() -> None:
    # The published example: after d4-d5-d6 White threatens d7 and dxe8.
    fen = "4k3/8/3PP3/8/8/8/2q5/7K b - - 0 2"
    game = variantkit.load("monster").new_game(fen)
    assert game.is_check() and game.is_checkmate()
    assert game.outcome() is not None and game.outcome().winner == "white"
    # A black king two king steps from White's: in check.
    game = variantkit.load("monster").new_game("8/8/3k4/8/3K4/8/8/8 b - - 0 2")
    assert game.is_check()
    assert game_set(game) == uci_set(MonsterReference(
        MONSTER, chess.Board("8/8/3k4/8/3K4/8/8/8 b - - 0 2")))


def test_monster_engine_plays_a_legal_game() -> None:
    engine_plays_legal_moves("monster", monster_reference(), 10, depth=1)


# -- faces: PGN and the terminal game -------------------------------------------------

def test_pgn_numbers_each_white_turn() -> None:
    game = variantkit.load("marseillais").new_game()
    for text in ["e2e4", "e7e5", "g8f6", "d2d4", "b1c3"]:
        game.push(text)
    written = write_pgn(game)
    assert written.splitlines()[-1] == "1. e4 e5 Nf6 2. d4 Nc3 *"
    assert [str(m) for m in read_pgn(written).move_stack] == \
        [str(m) for m in game.move_stack]


def test_terminal_game_plays_the_engine_s_whole_turn() -> None:
    result = CliRunner().invoke(cli, ["play", "marseillais", "--depth", "1"],
                                input="e2e4\nd2d4\nundo\nquit\n")
    out = result.output
    assert result.exit_code == 0 and "Traceback" not in out, out
    assert out.count("Black plays ") == 2
    # `d2d4` is White's first move of its second turn; undo takes it back alone.
    assert "Taken back: d2d4." in out


def test_en_passant_open_behind_a_double_step_none_may_take() -> None:
    # White's c-pawn's double step, first, is open to no pawn; the g-pawn's,
    # second, to f4: the position string names g3 all the same.
    start = ["e2e3", "f7f5", "f5f4", "c2c4", "g2g4"]
    game, ref = play_random("marseillais", MARSEILLAIS, 0, 0, start)
    same(game, ref)
    assert "f4g3" in game_set(game)
    assert game.fen().split()[3] == "g3"
    assert game_set(variantkit.load("marseillais").new_game(game.fen())) == game_set(game)
