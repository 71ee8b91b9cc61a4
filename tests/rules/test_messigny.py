"""Messigny chess against a reference written here from its published
rules (docs/rules/messigny.md) on python-chess, independent of the
compiler's tables: python-chess's pseudo-legal moves and its castlings,
and the swaps written by hand (a piece and an enemy piece of its kind
change places; none right after a swap; kings swap too), each kept when
it leaves the mover's king unattacked.  Perft 1-3 from the start (3 from
the middlegame under the `oracle` marker), the legal move sets along seeded
random games, and positions that reach each open case of the rules page."""

from __future__ import annotations

import random

import chess
import pytest
from declarations import errors_over

import variantkit
from variantkit.game import Game, perft
from variantkit.notation.san import legal_san, parse_san

START = chess.STARTING_FEN


def swapped(board: chess.Board, frm: int, to: int) -> chess.Board:
    """The board after the piece on `frm` and the enemy piece on `to` change
    places: both have moved (a king's side loses its castlings, a rook its
    own), no en passant, the clock reset by a pawn's swap."""
    after = board.copy(stack=False)
    mine, theirs = board.piece_at(frm), board.piece_at(to)
    assert mine is not None and theirs is not None
    after.set_piece_at(frm, theirs)
    after.set_piece_at(to, mine)
    lost = chess.BB_SQUARES[frm] | chess.BB_SQUARES[to]
    if mine.piece_type == chess.KING:
        lost |= chess.BB_RANK_1 | chess.BB_RANK_8
    after.castling_rights &= ~lost
    after.ep_square = None
    after.halfmove_clock = 0 if mine.piece_type == chess.PAWN else board.halfmove_clock + 1
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def safe(board: chess.Board, side: chess.Color) -> bool:
    king = board.king(side)
    return king is None or not board.attackers(not side, king)


def legal(board: chess.Board, after_swap: bool) -> dict[str, tuple[chess.Board, bool]]:
    """The legal moves (UCI, a swap as `a1<->a8`), each with the board after
    it and whether it is a swap."""
    us = board.turn
    out: dict[str, tuple[chess.Board, bool]] = {}
    moves = [m for m in board.generate_pseudo_legal_moves() if not board.is_castling(m)]
    moves += [m for m in board.generate_castling_moves() if board.is_legal(m)]
    for move in moves:
        after = board.copy(stack=False)
        after.push(move)
        if safe(after, us):
            out[move.uci()] = (after, False)
    if after_swap:
        return out
    for frm in chess.SquareSet(board.occupied_co[us]):
        kind = board.piece_type_at(frm)
        for to in chess.SquareSet(board.pieces_mask(kind, not us)):
            after = swapped(board, frm, to)
            if safe(after, us):
                out[f"{chess.square_name(frm)}<->{chess.square_name(to)}"] = (after, True)
    return out


def reference_perft(board: chess.Board, after_swap: bool, depth: int) -> int:
    moves = legal(board, after_swap)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(after, swap, depth - 1) for after, swap in moves.values())


def messigny(fen: str = START) -> Game:
    return variantkit.load("messigny").new_game(fen)


def test_perft_from_the_start() -> None:
    """20 moves and 60 swaps: of the 78 swaps of like pieces, the 16 that
    put a black pawn on d2 or f2 and those of the queens and of the kings
    leave the white king attacked."""
    ours = messigny()
    figures = [perft(ours, depth) for depth in (1, 2, 3)]
    assert figures[0] == 80
    assert figures == [reference_perft(chess.Board(), False, depth) for depth in (1, 2, 3)]


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.mark.oracle
@pytest.mark.parametrize(("fen", "after_swap"), [
    (KIWIPETE, False),
    # Black to move just after White's swap of the knights e5 and f6.
    ("r3k2r/p1ppqpb1/bn2pNp1/3Pn3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 1 1 e5<->f6", True),
])
def test_perft_3_from_the_middlegame(fen: str, after_swap: bool) -> None:
    """Castling, en passant, promotion and pins beside the swaps (perft 4
    from the start is some ten million leaves: too many for the reference)."""
    board = chess.Board(" ".join(fen.split()[:6]))
    assert perft(messigny(fen), 3) == reference_perft(board, after_swap, 3)


def play_random_game(seed: int, plies: int, fen: str = START) -> int:
    """One seeded random game in both, comparing the boards, the legal move
    sets and every move's SAN read back; the plies played."""
    rng = random.Random(seed)
    ours = messigny(fen)
    board, after_swap = chess.Board(fen), False
    for ply in range(plies):
        moves = legal(board, after_swap)
        where = f"seed {seed} ply {ply}: {ours.fen()}"
        assert ours.fen().split()[0] == board.board_fen(), where
        assert sorted(str(m) for m in ours.legal_moves()) == sorted(moves), where
        if ply % 10 == 0:   # every move's SAN reads back as it (slow: one by one)
            assert [str(parse_san(ours, text)) for text in legal_san(ours)] \
                == [str(m) for m in ours.legal_moves()], where
        assert messigny(ours.fen()).fen() == ours.fen(), where
        if not moves:
            return ply
        swaps = [m for m in sorted(moves) if "<->" in m]
        move = rng.choice(swaps if swaps and rng.random() < 0.4 else sorted(moves))
        ours.push(move)
        board, after_swap = moves[move]
    return plies


@pytest.mark.pure_in_oracle   # on the compiled build in make test
def test_random_games() -> None:
    """Two games here (each ply offers some sixty swaps, all compared), more
    under `oracle`."""
    assert sum(play_random_game(seed, 60) for seed in range(2)) >= 75


@pytest.mark.oracle
def test_more_random_games() -> None:
    assert sum(play_random_game(seed, 150) for seed in range(100, 112)) >= 1000


def test_no_swap_answers_a_swap() -> None:
    """After a swap the reply may not swap, and the position string keeps
    the swap; a position read from it is the same."""
    game = messigny("4k3/r7/8/8/8/8/R7/4K3 w - - 0 1")
    assert "a2<->a7" in {str(m) for m in game.legal_moves()}
    game.push("a2<->a7")
    assert game.fen() == "4k3/R7/8/8/8/8/r7/4K3 b - - 1 1 a2<->a7"
    assert not any(m.swap for m in game.legal_moves())
    again = messigny(game.fen())
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, game.legal_moves()))
    game.push("e8d8")
    assert any(m.swap for m in game.legal_moves())
    assert len(game.fen().split()) == 6


def test_a_swap_escapes_check() -> None:
    """The white king on e1 is checked by the rook on e8: the rooks' swap
    takes the checker off the file, and the kings' swap takes the white
    king to a7, where nothing attacks it."""
    game = messigny("4r3/k7/8/8/1R6/8/8/4K3 w - - 0 1")
    assert game.is_check()
    assert {str(m) for m in game.legal_moves() if m.swap} == {"b4<->e8", "e1<->a7"}


def test_king_swap_into_check_is_illegal() -> None:
    """Rex inclusive: the kings swap, but not into check (the white king on
    e8 would stand next to the black queen)."""
    game = messigny()
    assert "e1<->e8" not in {str(m) for m in game.legal_moves()}
    game = messigny("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert legal_san(game)[-1] == "K<->e8+"


def test_swap_gives_mate() -> None:
    """A swap mates: the black king, swapped to g1, stands in the white
    rook's line, every cell around it is guarded, and it may not swap back."""
    game = messigny("7k/8/8/8/5N2/6B1/5PPP/R5K1 w - - 0 1")
    game.push("g1<->h8")
    assert game.outcome() is not None and game.outcome().reason == "checkmate"


def test_pawn_on_its_second_rank_may_double_step() -> None:
    """A white pawn swapped onto its own second rank may make its double
    step, as a pawn read there from a position string may."""
    game = messigny("4k3/8/8/8/4P3/8/3p4/4K3 w - - 0 1")
    game.push("e4<->d2")
    game.push("e8d7")
    assert "d2d4" in {str(m) for m in game.legal_moves()}


def test_swapped_rook_has_moved() -> None:
    """A rook that swaps has moved: castling with it is gone, even if it
    comes back by a later swap."""
    game = messigny("r3k3/8/8/8/8/8/8/R2QK3 w Qq - 0 1")
    game.push("a1<->a8")
    assert game.fen().split()[2] == "-"


BAD = [  # a declaration's mistake, and where and what its problem says
    ("swaps: {pieces: [rook, lion]}", 4, "unknown-piece"),
    ("swaps: {with: other-kind}", 4, "schema"),
    ("swaps: {after-swap: sometimes}", 4, "schema"),
]


@pytest.mark.parametrize(("line", "row", "rule"), BAD)
def test_a_bad_declaration_is_a_located_problem(line: str, row: int, rule: str) -> None:
    errors = errors_over("chess", line)
    assert [p.rule for p in errors] == [rule]
    assert errors[0].line == row, errors[0]


def test_rex_exclusive() -> None:
    """Without the king in `pieces`, the kings do not swap."""
    game = variantkit.load_text(
        "variantkit: 1\nname: x\ninherits: messigny\n"
        "swaps: {pieces: [queen, rook, bishop, knight, pawn]}\n").new_game(
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert not any(m.swap for m in game.legal_moves())
