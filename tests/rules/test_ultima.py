"""Ultima (docs/rules/ultima.md) against a brute-force reference written
here from the published rules, on a plain dictionary board: each piece's
moves and captures spelt out for its own kind (the chameleon's case by
case), frozen pieces found by looking around every immobilizer and
chameleon, check as "some enemy move would take the king", legality by
trying every move.

Compared: perft 1-3 from the start, and the legal moves (each with the
board it leaves) along seeded random games, from the start and from
positions that reach each open case of the rules page: frozen pieces and
immobilizers, each of the chameleon's imitations, multi-captures,
check by every kind of piece, checkmate and stalemate."""

from __future__ import annotations

import random

import pytest

import variantkit
from variantkit.game import Game, perft

Cell = tuple[int, int]            # file, rank from 0
Piece = tuple[int, str]           # side (0 White), kind letter in upper case
Board = dict[Cell, Piece]
Move = tuple[Cell, Cell, frozenset[Cell]]   # from, to, cells whose pieces it takes

QUEEN = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
START = "clmwkmli/pppppppp/8/8/8/8/PPPPPPPP/ILMWKMLC w - - 0 1"


def on(cell: Cell) -> bool:
    return 0 <= cell[0] < 8 and 0 <= cell[1] < 8


def add(cell: Cell, d: tuple[int, int], k: int = 1) -> Cell:
    return cell[0] + k * d[0], cell[1] + k * d[1]


def read(fen: str) -> tuple[Board, int]:
    board: Board = {}
    rows, turn = fen.split()[:2]
    for r, row in enumerate(rows.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - r)] = (0 if ch.isupper() else 1, ch.upper())
                f += 1
    return board, 0 if turn == "w" else 1


def write(board: Board) -> str:
    rows = []
    for r in range(7, -1, -1):
        row, gap = "", 0
        for f in range(8):
            piece = board.get((f, r))
            if piece is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + (piece[1] if piece[0] == 0 else piece[1].lower())
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows)


def frozen(board: Board, side: int) -> set[Cell]:
    """`side`'s pieces next to an enemy immobilizer (frozen or not), and its
    immobilizers next to an enemy chameleon."""
    out = set()
    for cell, (owner, kind) in board.items():
        if owner != side:
            continue
        for d in QUEEN:
            near = board.get(add(cell, d))
            if near and near[0] != side and (near[1] == "I" or (near[1] == "M" and kind == "I")):
                out.add(cell)
    return out


Step = tuple[int, int]


def slides(board: Board, cell: Cell, dirs: list[Step]) -> list[tuple[Cell, Step]]:
    out = []
    for d in dirs:
        to = add(cell, d)
        while on(to) and to not in board:
            out.append((to, d))
            to = add(to, d)
    return out


def king_of(board: Board, side: int) -> Cell | None:
    return next((c for c, p in board.items() if p == (side, "K")), None)


def pinched(board: Board, frm: Cell, to: Cell, side: int, victim: str | None) -> set[Cell]:
    """The pincer's captures after moving frm -> to (any own piece pins)."""
    out = set()
    for d in ROOK:
        mid, far = add(to, d), add(to, d, 2)
        p, q = board.get(mid), board.get(far)
        if p and p[0] != side and (victim is None or p[1] == victim) \
                and q and q[0] == side and far != frm:
            out.add(mid)
    return out


def coordinated(board: Board, to: Cell, side: int, victim: str | None) -> set[Cell]:
    king = king_of(board, side)
    if king is None:
        return set()
    out = set()
    for cell in ((king[0], to[1]), (to[0], king[1])):
        p = board.get(cell)
        if p and p[0] != side and (victim is None or p[1] == victim):
            out.add(cell)
    return out


def withdrawn(board: Board, frm: Cell, d: tuple[int, int], side: int,
              victim: str | None) -> set[Cell]:
    behind = add(frm, (-d[0], -d[1]))
    p = board.get(behind)
    return {behind} if p and p[0] != side and (victim is None or p[1] == victim) else set()


def leaps(board: Board, frm: Cell, side: int, victim: str | None) -> list[Move]:
    out = []
    for d in QUEEN:
        jumped: set[Cell] = set()
        cell = add(frm, d)
        while on(cell):
            p = board.get(cell)
            if p is None:
                if jumped:
                    out.append((frm, cell, frozenset(jumped)))
            elif p[0] != side and (victim is None or p[1] == victim) \
                    and on(add(cell, d)) and add(cell, d) not in board:
                jumped.add(cell)
            else:
                break
            cell = add(cell, d)
    return out


def pseudo(board: Board, side: int) -> list[Move]:
    moves: list[Move] = []
    still = frozen(board, side)
    for frm, (owner, kind) in list(board.items()):
        if owner != side or frm in still:
            continue
        if kind == "K":
            for d in QUEEN:
                to = add(frm, d)
                if on(to) and (to not in board or board[to][0] != side):
                    moves.append((frm, to, frozenset()))
            continue
        # (The cells read around the landing cell are neither it nor the
        # start cell, which the pincer's partner may not be: the board as it
        # stands serves.)
        for to, d in slides(board, frm, ROOK if kind == "P" else QUEEN):
            taken: set[Cell] = set()
            if kind == "P":
                taken = pinched(board, frm, to, side, None)
            elif kind == "W":
                taken = withdrawn(board, frm, d, side, None)
            elif kind == "C":
                taken = coordinated(board, to, side, None)
            elif kind == "M":
                taken = withdrawn(board, frm, d, side, "W") | coordinated(board, to, side, "C")
                if d in ROOK:
                    taken |= pinched(board, frm, to, side, "P")
            moves.append((frm, to, frozenset(taken)))
        if kind == "L":
            moves += leaps(board, frm, side, None)
        if kind == "M":
            moves += leaps(board, frm, side, "L")
            for d in QUEEN:
                to = add(frm, d)
                if board.get(to) == (1 - side, "K"):
                    moves.append((frm, to, frozenset()))
    return moves


def play(board: Board, move: Move) -> Board:
    frm, to, taken = move
    after = {c: p for c, p in board.items() if c not in taken}
    after[to] = after.pop(frm)
    return after


def in_check(board: Board, side: int) -> bool:
    king = king_of(board, side)
    return any(to == king or king in taken for _, to, taken in pseudo(board, 1 - side))


def legal(board: Board, side: int) -> list[Move]:
    return [m for m in pseudo(board, side) if not in_check(play(board, m), side)]


def reference_perft(board: Board, side: int, depth: int) -> int:
    moves = legal(board, side)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(play(board, m), 1 - side, depth - 1) for m in moves)


def name(cell: Cell) -> str:
    return "abcdefgh"[cell[0]] + str(cell[1] + 1)


def reference_moves(board: Board, side: int) -> dict[str, str]:
    return {name(m[0]) + name(m[1]): write(play(board, m)) for m in legal(board, side)}


def our_moves(game: Game) -> dict[str, str]:
    out = {}
    for move in game.legal_moves:
        game.push(move)
        out[str(move)] = game.fen().split()[0]
        game.pop()
    return out


@pytest.mark.parametrize("depth", [1, 2, pytest.param(3, marks=pytest.mark.oracle)])
def test_perft_from_the_start(depth: int) -> None:
    ours = variantkit.load("ultima").new_game()
    board, side = read(START)
    assert perft(ours, depth) == reference_perft(board, side, depth)


# Positions reaching each open case: frozen pieces and immobilizers (a
# frozen immobilizer still freezes), the chameleon's imitations (a
# withdrawer, pincer, coordinator, leaper and king) and the immobilizer it
# freezes, leaps over several pieces, pinches of several pieces, check by
# each piece, checkmate and stalemate.
CASES = [
    START,
    "4k3/8/3i4/3I4/2M5/8/8/4K3 w - - 0 1",
    "4k3/8/8/2wM4/1p6/2P5/8/4K3 w - - 0 1",
    "c3k3/8/8/8/1l6/8/M7/4K3 w - - 0 1",
    "4k3/3p4/3l4/8/3l4/8/3L4/4K3 w - - 0 1",
    "4k3/8/1P1p1P2/8/2p5/2P5/P7/4K3 w - - 0 1",
    "k7/8/8/8/8/4w3/3m4/3K4 w - - 0 1",
    "k7/2W5/1C6/8/8/8/8/K7 b - - 0 1",
    "7k/8/8/8/8/8/8/K6i w - - 0 1",
    "2k5/8/8/8/8/8/8/C1PmK3 w - - 0 1",
    "7k/6I1/8/8/8/8/8/K7 b - - 0 1",
    "4k3/8/8/8/8/8/3pi3/4K3 w - - 0 1",
    "k7/8/1K6/8/8/8/8/1Q6 w - - 0 1".replace("Q", "W"),
]


@pytest.mark.parametrize("fen", CASES)
def test_moves_along_random_games(fen: str) -> None:
    compare_random_games(fen, games=1, plies=16)


@pytest.mark.oracle
@pytest.mark.parametrize("fen", CASES)
def test_moves_along_longer_random_games(fen: str) -> None:
    compare_random_games(fen + " ", games=4, plies=60)


def compare_random_games(fen: str, games: int, plies: int) -> None:
    """The legal moves and the boards they leave, along seeded random games
    from `fen` (its text the seed)."""
    variant = variantkit.load("ultima")
    rng = random.Random(fen)
    fen = fen.strip()
    for _ in range(games):
        game = variant.new_game(fen)
        board, side = read(fen)
        for _ply in range(plies):
            expected = reference_moves(board, side)
            assert our_moves(game) == expected, game.fen()
            assert game.is_check() == in_check(board, side), game.fen()
            if not expected:
                assert game.is_checkmate() == in_check(board, side)
                assert game.is_stalemate() == (not in_check(board, side))
                break
            move = rng.choice(sorted(expected))
            game.push(move)
            board = {c: p for c, p in read(expected[move] + " w")[0].items()}
            side = 1 - side
