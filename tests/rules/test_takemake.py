"""Take&Make chess against a reference written here from its published
rules (docs/rules/takemake.md), on python-chess: the orthodox
pseudo-legal moves of python-chess's board; each capture completed by
hand with its make moves (the taken piece's moves without capturing from
the capture cell, a pawn's the taken pawn's way), each move made by hand,
legality judged by the orthodox check rule on the board after the make.

Compared: perft 1-3 from the start (4 under the `oracle` marker), and the
legal move sets and the board along seeded random games, from the start
and from positions that reach each open case of the rules page (more games
under `oracle`).  Besides: every legal move's SAN reads back, and bad
declarations are located problems."""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess
import pytest
from declarations import errors_over
from references import PERFT_DEPTHS, RANDOM_GAMES, leaning_choice, reference_perft

import variantkit
from variantkit.game import perft

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
# The castling rights a piece leaving or reaching a cell withdraws.
RIGHTS_OF = {chess.E1: chess.BB_A1 | chess.BB_H1, chess.A1: chess.BB_A1,
             chess.H1: chess.BB_H1, chess.E8: chess.BB_A8 | chess.BB_H8,
             chess.A8: chess.BB_A8, chess.H8: chess.BB_H8}


@dataclass
class State:
    board: chess.Board   # pieces, side to move, castling rights, en passant cell


def initial_state(fen: str = chess.STARTING_FEN) -> State:
    return State(chess.Board(fen))


def pawn_steps(board: chess.Board, square: int, color: chess.Color) -> list[int]:
    """Where a pawn of `color` on `square` may step without capturing."""
    step = 8 if color else -8
    ends = []
    one = square + step
    if 0 <= one < 64 and board.piece_at(one) is None:
        ends.append(one)
        two = one + step
        if chess.square_rank(square) == (1 if color else 6) and board.piece_at(two) is None:
            ends.append(two)
    return ends


def make_ends(board: chess.Board, cell: int, taken: chess.Piece) -> list[int]:
    """The cells a piece standing on `cell` reaches without capturing,
    moving as `taken` moves (`board` is the board after the capture)."""
    if taken.piece_type == chess.PAWN:
        return pawn_steps(board, cell, taken.color)
    probe = board.copy(stack=False)
    probe.set_piece_at(cell, taken)
    return [c for c in chess.SquareSet(probe.attacks_mask(cell)) if board.piece_at(c) is None]


def without_rights(board: chess.Board, *cells: int) -> None:
    for cell in cells:
        board.castling_rights &= ~RIGHTS_OF.get(cell, 0)


def legal(state: State) -> dict[str, State]:
    """The legal moves (as variantkit writes them) and their states."""
    before = state.board
    us = before.turn
    out: dict[str, State] = {}
    done: set[tuple[int, int]] = set()
    for move in before.generate_pseudo_legal_moves():
        frm, cell = move.from_square, move.to_square
        mover = before.piece_at(frm)
        assert mover is not None
        if not before.is_capture(move):
            board = before.copy(stack=False)
            board.push(move)   # python-chess's own make: castling, en passant cell
            if not board.is_attacked_by(not us, board.king(us) or 0):
                out[move.uci()] = State(board)
            continue
        if (frm, cell) in done:   # one capture, whatever it would promote to
            continue
        done.add((frm, cell))
        taken_at = cell + (-8 if us else 8) if before.is_en_passant(move) else cell
        taken = before.piece_at(taken_at)
        assert taken is not None
        board = before.copy(stack=False)
        board.remove_piece_at(taken_at)
        board.remove_piece_at(frm)
        board.set_piece_at(cell, mover)
        for end in make_ends(board, cell, taken):
            if mover.piece_type == chess.PAWN and chess.square_rank(end) == (0 if us else 7):
                continue   # no pawn's make ends on its own first rank
            last = mover.piece_type == chess.PAWN and chess.square_rank(end) == (7 if us else 0)
            for promotion in PROMOTIONS if last else (None,):
                after = board.copy(stack=False)
                after.remove_piece_at(cell)
                after.set_piece_at(end, chess.Piece(promotion or mover.piece_type, us))
                after.turn = not us
                after.ep_square = None
                after.halfmove_clock = 0
                without_rights(after, frm, cell, end)
                king = after.king(us)
                if king is None or after.is_attacked_by(not us, king):
                    continue
                name = chess.square_name
                text = f"{name(frm)}{name(cell)},{name(cell)}{name(end)}"
                out[text + (chess.piece_symbol(promotion) if promotion else "")] = State(after)
    return out


@pytest.mark.parametrize("depths", PERFT_DEPTHS)
def test_perft_from_the_start(depths: tuple[int, ...]) -> None:
    ours = variantkit.load("takemake").new_game()
    for depth in depths:
        assert perft(ours, depth) == reference_perft(legal, initial_state(), depth), depth


def reference_fen(state: State) -> str:
    """The reference's position string, its en passant cell written only
    where some legal move takes there, as variantkit writes it."""
    fields = state.board.fen(en_passant="fen").split()
    if fields[3] != "-" and not any(m.startswith(fields[3] + ",", 2) for m in legal(state)):
        fields[3] = "-"
    return " ".join(fields)


def play_random_game(seed: int, plies: int, fen: str = chess.STARTING_FEN) -> int:
    """Play one seeded random game in both from `fen`, comparing every
    position and every legal move's SAN read back; return the plies played."""
    rng = random.Random(seed)
    ours = variantkit.load("takemake").new_game(fen)
    state = initial_state(fen)
    for ply in range(plies):
        moves = legal(state)
        where = f"takemake seed {seed} ply {ply}: {ours.fen()}"
        assert ours.fen().split()[:4] == reference_fen(state).split()[:4], where
        ours_moves = ours.legal_moves()
        assert sorted(str(m) for m in ours_moves) == sorted(moves), where
        for move in ours_moves:
            assert ours.parse_san(ours.san(move)) == move, (where, move)
        if not moves or ours.outcome() is not None:
            return ply
        played = sorted(moves)
        rare = [m for m in played if "," in m or state.board.is_castling(
            chess.Move.from_uci(m))]
        move = leaning_choice(rng, played, rare, 0.7)
        ours.push(move)
        state = moves[move]
    return plies


@pytest.mark.parametrize(("seeds", "plies", "least"), RANDOM_GAMES)
def test_random_games(seeds: range, plies: int, least: int) -> None:
    assert sum(play_random_game(seed, plies) for seed in seeds) >= least


# Positions that reach the open cases of the rules page.
POSITIONS = [
    "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",   # Bxc6 and a make
    "rnbq2nr/ppp2ppp/4p3/3p4/1k1P4/P1N2N2/1PP1PPPP/R2QKB1R b - - 0 1",  # a king takes, escapes
    "r1bqkbnr/1ppppppp/2n2N2/p7/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1",  # check by a knight
    "2n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",        # a pawn takes a knight on its last rank
    "4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1",        # a pawn's knight make barred from rank 1
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",        # en passant, then a black pawn's make
    "4k3/8/8/8/8/8/3p4/2B1K3 w - - 0 1",        # a taken pawn's make goes its own way
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",     # castling, rooks taking rooks
    "4k3/8/8/8/8/3p4/4P3/4K3 b - - 0 1",        # a pawn takes and double-steps as White's
    "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1",         # a make onto the last rank promotes
]


@pytest.mark.pure_in_oracle   # on the compiled build in make test
@pytest.mark.parametrize("fen", POSITIONS)
def test_open_cases(fen: str) -> None:
    for seed in range(3):
        play_random_game(seed, 30, fen)


@pytest.mark.parametrize(("fen", "moves"), [
    (POSITIONS[0], {"b5c6,c6a5", "b5c6,c6b4", "b5c6,c6d4", "b5c6,c6e7", "b5c6,c6b8"}),
    # The king in check takes the knight and escapes with its make.
    (POSITIONS[1], {"b4c3,c3a4", "b4c3,c3b5", "b4c3,c3e4"}),
    # The pawn takes the knight on c8 and makes a knight move: to a6, b6,
    # d6, e7 (no promotion there) ; its capture on its last rank stays a pawn.
    (POSITIONS[3], {"b7c8,c8a7", "b7c8,c8b6", "b7c8,c8d6", "b7c8,c8e7"}),
])
def test_the_makes_of_a_capture(fen: str, moves: set[str]) -> None:
    game = variantkit.load("takemake").new_game(fen)
    frm = next(iter(moves))[:4]
    assert {str(m) for m in game.legal_moves() if str(m).startswith(frm + ",")} == moves


def test_san_and_promotion_by_a_make() -> None:
    """The pawn takes the rook on d8 and makes a rook move: along its last
    rank it promotes; down the file it stays a pawn, short of its first rank."""
    game = variantkit.load("takemake").new_game(POSITIONS[9])
    moves = {str(m) for m in game.legal_moves() if str(m).startswith("c7d8,")}
    assert moves == {*(f"c7d8,d8{end}8{piece}" for end in "abc" for piece in "qrbn"),
                     *(f"c7d8,d8d{rank}" for rank in range(2, 8))}
    assert game.san("c7d8,d8c8q") == "cxd8-c8=Q+"
    game.push_san("cxd8-c8=Q")
    assert game.fen() == "2Q1k3/8/8/8/8/8/8/4K3 b - - 0 1"
    game.pop()
    assert game.fen() == POSITIONS[9]


def test_en_passant_is_written_and_read_back() -> None:
    """The position string names the en passant cell while a make completes
    the capture there, and reads back with it."""
    game = variantkit.load("takemake").new_game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    game.push("d7d5")
    assert game.fen() == "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
    again = variantkit.load("takemake").new_game(game.fen())
    assert "e5d6,d6d5" in {str(m) for m in again.legal_moves()}
    again.push("e5d6,d6d5")
    assert again.fen() == "4k3/8/8/3P4/8/8/8/4K3 b - - 0 2"


BAD = [  # a declaration's mistake, and what its problem says
    ("capture-effects: {capturer: [makes, turns]}", "capture-effects-clash"),
    ("capture-effects: {capturer: makes, make-barred: {dragon: rank-1}}", "unknown-piece"),
    ("capture-effects: {capturer: makes, make-barred: {pawn: rank-9}}", "unknown-region"),
    ("capture-effects: {capturer: turns, make-barred: {pawn: rank-1}}", "make-barred-unused"),
]


@pytest.mark.parametrize(("line", "rule"), BAD)
def test_a_bad_declaration_is_a_located_problem(line: str, rule: str) -> None:
    errors = errors_over("chess", line)
    assert [p.rule for p in errors] == [rule]
    assert errors[0].line == 4, errors[0]
