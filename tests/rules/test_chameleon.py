"""Chameleon chess against a reference written here from its published
rules (docs/rules/chameleon.md) on python-chess, independent of the
compiler's tables: python-chess's pseudo-legal moves and its castlings,
each kept when it leaves the mover's king unattacked, the piece that moved
(not a king, a pawn, a castling's rook or a promotion) then changed by hand
along the cycle queen, knight, bishop, rook, queen.  Perft 1-3 from the
start (4 under the `oracle` marker), the legal move sets along seeded random
games, and positions that reach each open case of the rules page."""

from __future__ import annotations

import random

import chess
import pytest
from references import RANDOM_GAMES, leaning_choice, reference_perft

import variantkit
from variantkit.game import Game, perft
from variantkit.notation.san import legal_san, parse_san

START = chess.STARTING_FEN
CYCLE = {chess.QUEEN: chess.KNIGHT, chess.KNIGHT: chess.BISHOP,
         chess.BISHOP: chess.ROOK, chess.ROOK: chess.QUEEN}


def legal(board: chess.Board) -> dict[str, chess.Board]:
    """The legal moves (UCI) and the board after each, its piece changed."""
    us = board.turn
    out: dict[str, chess.Board] = {}
    moves = [m for m in board.generate_pseudo_legal_moves() if not board.is_castling(m)]
    moves += [m for m in board.generate_castling_moves() if board.is_legal(m)]
    for move in moves:
        after = board.copy(stack=False)
        kind = board.piece_type_at(move.from_square)
        castles = board.is_castling(move)
        after.push(move)
        king = after.king(us)
        if king is not None and after.attackers(not us, king):
            continue
        if kind in CYCLE and not castles and not move.promotion:
            after.set_piece_at(move.to_square, chess.Piece(CYCLE[kind], us))
        out[move.uci()] = after
    return out


def chameleon(fen: str = START) -> Game:
    return variantkit.load("chameleon").new_game(fen)


def test_perft_from_the_start() -> None:
    """Chess's 20 and 400, then 8,972: a knight that has moved is a bishop."""
    ours = chameleon()
    figures = [perft(ours, depth) for depth in (1, 2, 3)]
    assert figures == [20, 400, 8972]
    assert figures == [reference_perft(legal, chess.Board(), depth) for depth in (1, 2, 3)]


@pytest.mark.oracle
def test_perft_4_from_the_start() -> None:
    assert perft(chameleon(), 4) == reference_perft(legal, chess.Board(), 4)


def play_random_game(seed: int, plies: int, fen: str = START) -> int:
    """One seeded random game in both, comparing the boards, the legal move
    sets and check, with every move's SAN read back now and then; the plies
    played."""
    rng = random.Random(seed)
    ours = chameleon(fen)
    board = chess.Board(fen)
    for ply in range(plies):
        moves = legal(board)
        where = f"seed {seed} ply {ply}: {ours.fen()}"
        assert ours.fen().split()[0] == board.board_fen(), where
        assert sorted(str(m) for m in ours.legal_moves()) == sorted(moves), where
        king = board.king(board.turn)
        assert ours.is_check() == bool(king is not None
                                       and board.attackers(not board.turn, king)), where
        if ply % 10 == 0:
            assert [str(parse_san(ours, text)) for text in legal_san(ours)] \
                == [str(m) for m in ours.legal_moves()], where
        if not moves:
            return ply
        played = sorted(moves)
        rare = [m for m in played if board.is_castling(chess.Move.from_uci(m))
                or board.is_capture(chess.Move.from_uci(m)) or len(m) == 5]
        move = leaning_choice(rng, played, rare, 0.5)
        ours.push(move)
        board = moves[move]
    return plies


@pytest.mark.parametrize(("seeds", "plies", "least"), RANDOM_GAMES)
def test_random_games(seeds: range, plies: int, least: int) -> None:
    assert sum(play_random_game(seed, plies) for seed in seeds) >= least


def test_the_cycle() -> None:
    """A knight's moves make it a bishop, a rook, a queen, a knight again;
    a capture changes it too."""
    game = chameleon("k7/8/8/8/8/8/8/4K2N w - - 0 1")
    seen = []
    for move, reply in (("h1g3", "a8a7"), ("g3d6", "a7b7"), ("d6d4", "b7b8"),
                        ("d4d7", None)):
        game.push(move)
        seen.append(game.fen().split()[0])
        if reply:
            game.push(reply)
    assert seen == ["k7/8/8/8/8/6B1/8/4K3", "8/k7/3R4/8/8/8/8/4K3",
                    "8/1k6/8/8/3Q4/8/8/4K3", "1k6/3N4/8/8/8/8/8/4K3"]
    assert game.is_check()   # the knight on d7 checks b8
    taking = chameleon("4k3/8/8/8/8/2n5/8/B3K3 w - - 0 1")
    taking.push("a1c3")
    assert taking.fen().split()[0] == "4k3/8/8/8/8/2R5/8/4K3"


def test_promotion_changes_from_the_next_move() -> None:
    """A pawn promotes to the piece chosen, which changes only from its own
    next move on."""
    game = chameleon("8/P3k3/8/8/8/8/8/4K3 w - - 0 1")
    game.push("a7a8q")
    assert game.fen().split()[0] == "Q7/4k3/8/8/8/8/8/4K3"
    game.push("e7d6")
    game.push("a8a1")
    assert game.fen().split()[0] == "8/8/3k4/8/8/8/8/N3K3"


def test_castling_rook_stays() -> None:
    """Castling is the king's move: its rook does not change."""
    game = chameleon("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    game.push("e1g1")
    assert game.fen().split()[0] == "4k3/8/8/8/8/8/8/5RK1"


def test_check_by_the_new_kind() -> None:
    """Check is given by what the piece has become: a queen moving in line
    with the king becomes a knight and gives no check; a rook moving to c2
    becomes a queen and checks along the diagonal."""
    game = chameleon("8/8/8/8/8/8/8/R3K2k w - - 0 1")
    game.push("a1a6")   # a queen on a6 now
    assert game.fen().split()[0] == "8/8/Q7/8/8/8/8/4K2k"
    game = chameleon("6k1/8/8/8/8/8/8/Q3K3 w - - 0 1")
    game.push("a1a8")   # a knight on a8: no check along the rank
    assert not game.is_check()
    game = chameleon("8/7k/8/8/8/8/8/2R1K3 w - - 0 1")
    game.push("c1c2")   # a queen on c2: check along the diagonal
    assert game.is_check()


def test_lone_knight_is_not_dead_material() -> None:
    """A knight becomes a bishop, then a rook: king and knight against king
    play on; the two kings alone are a draw."""
    assert chameleon("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1").outcome() is None
    assert chameleon("4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome() is not None
