"""Remote captures (`remote: true` on a move): the move takes the enemy
piece on the cell it reaches, the capturer staying where it stands.

A small test variant has an archer that steps to empty cells and takes
remotely along orthogonal lines (the first piece on a line) and by a
knight-like vector, a king that also takes remotely two cells ahead, a
rook and a xiangqi cannon (whose screens a remote capture may take away).
A reference written here from those rules, which knows nothing of the
compiled tables, gives the legal moves (a move is legal when no enemy
capture, remote or not, could then take the king); compared along seeded
random games, with perft 1-3, once on the plain position and once under
`must-capture` (the general position).  Besides: each case by name
(check given and parried by a remote capture, a pinned archer taking, a
screen taken away), SAN read back, and the located problems."""

from __future__ import annotations

import random

import pytest

import variantkit
from variantkit.errors import VariantError
from variantkit.game import perft

FILES, RANKS = 6, 6
HEAD = """
variantkit: 1
name: archers
description: Archers that take without moving, on a small board.
board: {grid: {files: 6, ranks: 6}}
sides: {white: {forward: n}, black: {forward: s}}
pieces:
  king:
    letter: K
    royal: true
    moves:
      - {step: all}
      - {leap: [[0, 2]], remote: true}
  rook: {letter: R, betza: R}
  cannon:
    letter: C
    moves:
      - {ride: orthogonal, only: move}
      - {hop: orthogonal, only: capture}
  archer:
    letter: A
    moves:
      - {step: all, only: move}
      - {ride: orthogonal, remote: true}
      - {leap: [[1, 2]], remote: true}
"""
STARTS = [
    "k5/2r3/6/2A3/6/K3R1 w - - 0 1",
    "kc1a2/1r4/6/2A3/2R3/K1C3 w - - 0 1",
    "1k4/1a1c2/2r3/6/1AC3/1K2R1 b - - 0 1",
    "2k3/2a3/6/2K3/2A3/6 w - - 0 1",
]
RULES = ["", "must-capture: true\n"]


def variant_of(start: str, rules: str = "") -> variantkit.Variant:
    return variantkit.load_text(HEAD + rules + f'setup: "{start}"\n')


# -- the reference ---------------------------------------------------------------
Cell = tuple[int, int]
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
KING_STEPS = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]


def read(fen: str) -> tuple[dict[Cell, str], bool]:
    board: dict[Cell, str] = {}
    rows, side = fen.split()[0].split("/"), fen.split()[1]
    for r, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, RANKS - 1 - r)] = ch
                f += 1
    return board, side == "w"


def name(cell: Cell) -> str:
    return "abcdef"[cell[0]] + str(cell[1] + 1)


def inside(cell: Cell) -> bool:
    return 0 <= cell[0] < FILES and 0 <= cell[1] < RANKS


def pseudo(board: dict[Cell, str], white: bool) -> list[tuple[Cell, Cell, bool]]:
    """(from, to, remote) of every move of `white`'s pieces, check aside."""
    out: list[tuple[Cell, Cell, bool]] = []
    ahead = 1 if white else -1

    def mine(cell: Cell) -> bool:
        return cell in board and board[cell].isupper() == white

    def theirs(cell: Cell) -> bool:
        return cell in board and board[cell].isupper() != white

    def line(here: Cell, dx: int, dy: int) -> list[Cell]:
        cells, to = [], (here[0] + dx, here[1] + dy)
        while inside(to):
            cells.append(to)
            to = (to[0] + dx, to[1] + dy)
        return cells

    for here, piece in list(board.items()):
        if piece.isupper() != white:
            continue
        kind = piece.upper()
        if kind == "K":
            for dx, dy in KING_STEPS:
                to = (here[0] + dx, here[1] + dy)
                if inside(to) and not mine(to):
                    out.append((here, to, False))
            to = (here[0], here[1] + 2 * ahead)
            if theirs(to):
                out.append((here, to, True))
        elif kind == "R":
            for dx, dy in ORTHOGONAL:
                for to in line(here, dx, dy):
                    if not mine(to):
                        out.append((here, to, False))
                    if to in board:
                        break
        elif kind == "C":
            for dx, dy in ORTHOGONAL:
                screens = 0
                for to in line(here, dx, dy):
                    if to in board:
                        if screens == 1:
                            if theirs(to):
                                out.append((here, to, False))
                            break
                        screens += 1
                    elif screens == 0:
                        out.append((here, to, False))
        elif kind == "A":
            for dx, dy in KING_STEPS:
                to = (here[0] + dx, here[1] + dy)
                if inside(to) and to not in board:
                    out.append((here, to, False))
            for dx, dy in ORTHOGONAL:
                first = next((to for to in line(here, dx, dy) if to in board), None)
                if first is not None and theirs(first):
                    out.append((here, first, True))
            to = (here[0] + 1, here[1] + 2 * ahead)   # [1, 2], mirrored in the rank for Black
            if inside(to) and theirs(to):
                out.append((here, to, True))
    return out


def after(board: dict[Cell, str], move: tuple[Cell, Cell, bool]) -> dict[Cell, str]:
    frm, to, remote = move
    board = dict(board)
    if remote:
        del board[to]
    else:
        board[to] = board.pop(frm)
    return board


def written(move: tuple[Cell, Cell, bool]) -> str:
    frm, to, remote = move
    return f"{name(frm)}{name(to)},{name(to)}{name(frm)}" if remote else name(frm) + name(to)


def reference(fen: str, must_capture: bool = False) -> dict[str, tuple[Cell, Cell, bool]]:
    """Every legal move, by its move string."""
    board, white = read(fen)
    legal = []
    for move in pseudo(board, white):
        then = after(board, move)
        king = next(c for c, p in then.items() if p == ("K" if white else "k"))
        if all(to != king for _, to, _ in pseudo(then, not white)):
            legal.append(move)
    if must_capture:
        captures = [m for m in legal if m[2] or m[1] in board]
        legal = captures or legal
    return {written(m): m for m in legal}


# -- the comparison -----------------------------------------------------------
def legal_strings(game: variantkit.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("start", STARTS)
def test_random_games_match_the_reference(start: str, rules: str) -> None:
    variant = variant_of(start, rules)
    rng = random.Random(start + rules)
    for _ in range(8):
        game = variant.new_game()
        for _ in range(30):
            fen = game.fen()
            expected = reference(fen, bool(rules))
            assert legal_strings(game) == set(expected), fen
            if not expected:
                break
            move = rng.choice(sorted(expected))
            game.push(move)
            assert read(game.fen())[0] == after(read(fen)[0], expected[move]), (fen, move)
            text = game.fen()
            game.pop()
            assert game.fen() == fen
            game.push(move)
            assert game.fen() == text


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("start", STARTS)
def test_perft_matches_the_reference(start: str, rules: str) -> None:
    game = variant_of(start, rules).new_game()

    def count(depth: int) -> int:
        moves = reference(game.fen(), bool(rules))
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            game.push(move)
            total += count(depth - 1)
            game.pop()
        return total

    for depth in (1, 2, 3):
        assert perft(game, depth) == count(depth), depth


def test_each_case_by_name() -> None:
    # White: king a1, archer c3, rook e1; Black: king a6, rook c5.
    game = variant_of(STARTS[0]).new_game()
    game.push("c3c5,c5c3")   # along its file, the first piece: the rook
    assert game.fen() == "k5/6/6/2A3/6/K3R1 b - - 0 1"
    game.pop()
    # A remote capture gives check: the archer on a2 sees the king up its file.
    game = variant_of("6/6/k5/6/A5/K5 b - - 0 1").new_game()
    assert game.is_check()
    # Not a3, a5 (its file) nor b4 (its [1, 2]); the king takes it from two
    # cells ahead of it, staying on a4.
    assert legal_strings(game) == {"a4b3", "a4b5", "a4a2,a2a4"}
    # A pinned archer takes, since it does not move off the rook's file.
    game = variant_of("k1r3/6/r1A3/6/6/2K3 w - - 0 1").new_game()
    legal = legal_strings(game)
    assert {"c4a4,a4c4", "c4c6,c6c4", "c4c5"} <= legal
    assert "c4b5" not in legal
    # Taking one of a cannon's two screens (a4, a3) would let it take the king.
    game = variant_of("c4k/6/r2A2/R5/6/K5 w - - 0 1").new_game()
    legal = legal_strings(game)
    assert "d4d5" in legal
    assert "d4a4,a4d4" not in legal and "a3a4" not in legal
    # A king that takes remotely stays on its cell.
    game = variant_of("k5/6/3r2/6/3K2/6 w - - 0 1").new_game()
    game.push("d2d4,d4d2")
    assert game.piece_at("d2") == "K" and game.piece_at("d4") is None


def test_san_reads_back() -> None:
    game = variant_of(STARTS[1]).new_game()
    rng = random.Random(1)
    written_remote = set()
    for _ in range(40):
        moves = list(game.legal_moves())
        if not moves:
            break
        for move in moves:
            text = game.san(move)
            assert game.parse_san(text) == move, text
            if move.via:
                written_remote.add(text)
        game.push(rng.choice(moves))
    assert written_remote
    assert all("x" in text and "-" in text for text in written_remote)


@pytest.mark.parametrize(("move", "problem"), [
    ("{step: all, only: move, remote: true}", "does not go with `only: move`"),
    ("{plane-shift: {planes: 1}, remote: true}", "does not go with `plane-shift`"),
    ("{suborn: {}, remote: true}", "does not go with `suborn`"),
])
def test_bad_remote_declarations(move: str, problem: str) -> None:
    text = HEAD.replace("      - {leap: [[1, 2]], remote: true}", f"      - {move}")
    with pytest.raises(VariantError, match=problem):
        variantkit.load_text(text + f'setup: "{STARTS[0]}"\n')


def test_remote_captures_do_not_go_with_explosions() -> None:
    with pytest.raises(VariantError, match="does not go with `explosion`"):
        variantkit.load_text(HEAD + "explosion: {}\n" + f'setup: "{STARTS[0]}"\n')


def test_the_engine_takes_remotely_and_plays_a_legal_game() -> None:
    # The archer on c3 takes the undefended rook on c5 without moving.
    game = variant_of("k5/6/2r3/6/2A3/K5 w - - 0 1").new_game()
    engine = variantkit.Engine(game.variant)
    assert str(engine.best_move(game, depth=2)) == "c2c4,c4c2"
    game = variant_of(STARTS[1]).new_game()
    for _ in range(30):
        if game.is_game_over():
            break
        move = engine.best_move(game, depth=1)
        assert move in game.legal_moves()
        game.push(move)


def test_the_playground_plays_a_remote_capture_on_its_victim() -> None:
    from variantkit.web.pairs import clicked_cell

    game = variant_of(STARTS[0]).new_game()
    move = next(m for m in game.legal_moves() if m.via)
    assert (move.from_cell, move.to_cell, clicked_cell(move)) == ("c3", "c3", "c5")
