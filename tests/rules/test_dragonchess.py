"""Dragonchess (variants/dragonchess.yaml) against a reference written
here from the rules as docs/rules/dragonchess.md decides them, on
(level, file, rank) coordinates of its own and knowing nothing of the
compiled tables: each piece's moves by the level it stands on, the
dragon's captures from the sky of the ground cell below it and the four
cells beside that one, the basilisk's freeze of the enemy piece right
above it, the warrior's promotion to a hero, check by any capture of a
piece that is not frozen.

Compared: perft 1-2 from the start (3 under `oracle`), the legal move
sets along seeded random games, and positions that reach each open
case."""

from __future__ import annotations

import random

import pytest

import variantkit
from variantkit.game import perft

VARIANT = variantkit.load("dragonchess")
FILES, RANKS, LEVELS = 12, 8, 3
LETTERS = "abcdefghijkl"
Cell = tuple[int, int, int]   # level (1 underworld, 2 ground, 3 sky), file, rank (0-based)
Board = dict[Cell, str]
# A move: from, to, whether it takes without moving, promotion letter or "".
RefMove = tuple[Cell, Cell, bool, str]


# -- positions --------------------------------------------------------------------
def read(fen: str) -> tuple[Board, bool]:
    placement, side = fen.split()[:2]
    board: Board = {}
    for level, plane in enumerate(placement.split("|"), start=1):
        for r, row in enumerate(plane.split("/")):
            f, digits = 0, ""
            for ch in row + " ":
                if ch.isdigit():
                    digits += ch
                    continue
                if digits:
                    f += int(digits)
                    digits = ""
                if ch != " ":
                    board[(level, f, RANKS - 1 - r)] = ch
                    f += 1
    return board, side == "w"


def name(cell: Cell) -> str:
    return f"{cell[0]}{LETTERS[cell[1]]}{cell[2] + 1}"


def inside(cell: Cell) -> bool:
    return 1 <= cell[0] <= LEVELS and 0 <= cell[1] < FILES and 0 <= cell[2] < RANKS


def shift(cell: Cell, dz: int, dx: int, dy: int) -> Cell:
    return (cell[0] + dz, cell[1] + dx, cell[2] + dy)


KING = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(a * sa, b * sb) for a, b in ((1, 2), (2, 1)) for sa in (1, -1) for sb in (1, -1)]
ZEBRA = [(a * sa, b * sb) for a, b in ((3, 2), (2, 3)) for sa in (1, -1) for sb in (1, -1)]
SYLPH_HOME = {True: [(3, f, 1) for f in range(0, 12, 2)],
              False: [(3, f, 6) for f in range(0, 12, 2)]}


def frozen(board: Board, white: bool) -> set[Cell]:
    """The cells of `white`'s pieces that an enemy basilisk right below freezes."""
    basilisk = "b" if white else "B"
    return {c for c, p in board.items() if p.isupper() == white
            and board.get(shift(c, -1, 0, 0)) == basilisk}


def pseudo(board: Board, white: bool) -> list[RefMove]:
    """Every move of `white`'s pieces that are not frozen, check aside."""
    out: list[RefMove] = []
    ahead = 1 if white else -1
    still = frozen(board, white)

    def mine(c: Cell) -> bool:
        return c in board and board[c].isupper() == white

    def theirs(c: Cell) -> bool:
        return c in board and board[c].isupper() != white

    for here, piece in list(board.items()):
        if piece.isupper() != white or here in still:
            continue
        kind, level = piece.upper(), here[0]

        def add(to: Cell, move: bool = True, take: bool = True, here: Cell = here) -> None:
            if inside(to) and ((move and to not in board) or (take and theirs(to))):
                out.append((here, to, False, ""))

        def slide(dirs: list[tuple[int, int, int]], most: int = 99, here: Cell = here) -> None:
            for dz, dx, dy in dirs:
                to = shift(here, dz, dx, dy)
                for _ in range(most):
                    if not inside(to) or mine(to):
                        break
                    out.append((here, to, False, ""))
                    if to in board:
                        break
                    to = shift(to, dz, dx, dy)

        if kind == "S":
            if level == 3:
                for dx in (1, -1):
                    add(shift(here, 0, dx, ahead), take=False)
                add(shift(here, 0, 0, ahead), move=False)
                add(shift(here, -1, 0, 0), move=False)
            elif level == 2:
                add(shift(here, 1, 0, 0), take=False)
                for home in SYLPH_HOME[white]:
                    add(home, take=False)
        elif kind == "G":
            if level == 3:
                for dx, dy in ZEBRA:
                    add(shift(here, 0, dx, dy))
                for dx, dy in DIAGONAL:
                    add(shift(here, -1, dx, dy))
            elif level == 2:
                for dx, dy in DIAGONAL:
                    add(shift(here, 0, dx, dy))
                    add(shift(here, 1, dx, dy))
        elif kind == "R":
            for dx, dy in ORTHOGONAL:
                add(shift(here, 0, dx, dy))
            slide([(0, dx, dy) for dx, dy in DIAGONAL])
            for dx, dy in [(0, 0)] + ORTHOGONAL:
                victim = shift(here, -1, dx, dy)
                if inside(victim) and theirs(victim):
                    out.append((here, victim, True, ""))
        elif kind == "W":
            last = RANKS - 1 if white else 0
            targets = [(shift(here, 0, 0, ahead), True, False)] + \
                [(shift(here, 0, dx, ahead), False, True) for dx in (1, -1)]
            for to, move, take in targets:
                if inside(to) and ((move and to not in board) or (take and theirs(to))):
                    out.append((here, to, False, "h" if to[2] == last else ""))
        elif kind == "O":
            slide([(0, dx, dy) for dx, dy in ORTHOGONAL])
        elif kind == "U":
            for dx, dy in KNIGHT:
                add(shift(here, 0, dx, dy))
        elif kind == "H":
            if level == 2:
                for dx, dy in DIAGONAL:
                    add(shift(here, 0, dx, dy))
                    add(shift(here, 0, 2 * dx, 2 * dy))
                    add(shift(here, 1, dx, dy))
                    add(shift(here, -1, dx, dy))
            else:
                for dx, dy in DIAGONAL:
                    add(shift(here, 2 - level, dx, dy))
        elif kind == "T":
            slide([(0, dx, dy) for dx, dy in DIAGONAL])
        elif kind == "C":
            for dx, dy in KING:
                add(shift(here, 0, dx, dy))
            add(shift(here, 1, 0, 0))
            add(shift(here, -1, 0, 0))
        elif kind == "M":
            if level == 2:
                slide([(0, dx, dy) for dx, dy in KING])
            else:
                for dx, dy in ORTHOGONAL:
                    add(shift(here, 0, dx, dy))
            slide([(1, 0, 0), (-1, 0, 0)], most=2)
        elif kind == "K":
            if level == 2:
                for dx, dy in KING:
                    add(shift(here, 0, dx, dy))
            add(shift(here, 1, 0, 0))
            add(shift(here, -1, 0, 0))
        elif kind == "P":
            for dx, dy in KING:
                add(shift(here, 0, dx, dy))
            if level == 2:
                for dx, dy in KNIGHT:
                    add(shift(here, 0, dx, dy))
            for dz in (1, -1, 2, -2):
                for dx, dy in ORTHOGONAL:
                    far = 3 - abs(dz)   # two cells aside with one level, one with two
                    add(shift(here, dz, far * dx, far * dy))
        elif kind == "B":
            for dx in (-1, 0, 1):
                add(shift(here, 0, dx, ahead))
            add(shift(here, 0, 0, -ahead), take=False)
        elif kind == "E":
            if level == 1:
                slide([(0, dx, dy) for dx, dy in ORTHOGONAL], most=2)
                for dx, dy in DIAGONAL:
                    add(shift(here, 0, dx, dy), take=False)
                for dx, dy in ORTHOGONAL:
                    if shift(here, 0, dx, dy) not in board:
                        add(shift(here, 1, dx, dy), move=False)
            elif level == 2 and inside(shift(here, -1, 0, 0)) \
                    and shift(here, -1, 0, 0) not in board:
                for dx, dy in ORTHOGONAL:
                    add(shift(here, -1, dx, dy))
        elif kind == "D":
            if level in (1, 2):
                for dx, dy in [(0, ahead), (1, 0), (-1, 0)]:
                    add(shift(here, 0, dx, dy), take=False)
                for dx in (1, -1):
                    add(shift(here, 0, dx, ahead), move=False)
            if level == 1:
                add(shift(here, 1, 0, 0), move=False)
            elif level == 2:
                add(shift(here, -1, 0, 0), take=False)
    return out


def after(board: Board, move: RefMove) -> Board:
    frm, to, remote, promotion = move
    board = dict(board)
    if remote:
        del board[to]
        return board
    piece = board.pop(frm)
    board[to] = promotion.upper() if piece.isupper() and promotion else \
        promotion if promotion else piece
    return board


def written(move: RefMove) -> str:
    frm, to, remote, promotion = move
    if remote:
        return f"{name(frm)}{name(to)},{name(to)}{name(frm)}"
    return name(frm) + name(to) + promotion


def in_check(board: Board, white: bool) -> bool:
    king = next(c for c, p in board.items() if p == ("K" if white else "k"))
    return any(to == king for _, to, _, _ in pseudo(board, not white))


def reference(fen: str) -> dict[str, RefMove]:
    """Every legal move, by its move string."""
    board, white = read(fen)
    return {written(m): m for m in pseudo(board, white) if not in_check(after(board, m), white)}


# -- the comparison -----------------------------------------------------------------
def legal_strings(game: variantkit.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def reference_perft(game: variantkit.Game, depth: int) -> int:
    moves = reference(game.fen())
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.push(move)
        total += reference_perft(game, depth - 1)
        game.pop()
    return total


def test_perft_one_and_two_match_the_reference() -> None:
    game = VARIANT.new_game()
    assert perft(game, 1) == reference_perft(game, 1)
    assert perft(game, 2) == reference_perft(game, 2)


@pytest.mark.oracle
def test_perft_three_matches_the_reference() -> None:
    game = VARIANT.new_game()
    assert perft(game, 3) == reference_perft(game, 3)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_match_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    game = VARIANT.new_game()
    for _ in range(60):
        fen = game.fen()
        expected = reference(fen)
        assert legal_strings(game) == set(expected), fen
        if not expected:
            break
        # Captures first half the time, so that the levels mix and the
        # rarer moves come up.
        captures = [m for m, r in expected.items() if r[2] or r[1] in read(fen)[0]]
        move = rng.choice(sorted(captures if captures and rng.random() < 0.5 else expected))
        game.push(move)
        assert read(game.fen())[0] == after(read(fen)[0], expected[move]), (fen, move)


# -- each open case, by name ---------------------------------------------------------
def fen_of(pieces: dict[str, str], white: bool = True) -> str:
    """A position string from cell names (`2g1`) and letters."""
    planes = []
    for level in range(1, LEVELS + 1):
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            row, empty = "", 0
            for f in range(FILES):
                piece = pieces.get(name((level, f, rank)))
                if piece is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + piece
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        planes.append("/".join(rows))
    return "|".join(planes) + (" w" if white else " b") + " - - 0 1"


def legal_at(pieces: dict[str, str], white: bool = True) -> set[str]:
    fen = fen_of(pieces, white)
    legal = legal_strings(VARIANT.new_game(fen))
    assert legal == set(reference(fen)), fen
    return legal


def test_the_dragon_breathes_on_five_ground_cells_and_stays() -> None:
    pieces = {"2a1": "K", "2l8": "k", "3g5": "R", "2g5": "w", "2h5": "t", "2g4": "o",
              "2h6": "u", "2f5": "W"}
    legal = legal_at(pieces)
    breaths = {m for m in legal if "," in m}
    assert breaths == {"3g52g5,2g53g5", "3g52h5,2h53g5", "3g52g4,2g43g5"}   # not h6, not own f5
    game = VARIANT.new_game(fen_of(pieces))
    assert game.san("3g52g5,2g53g5") == "Rx2g5-3g5"
    assert str(game.parse_san("Rx2g5-3g5")) == "3g52g5,2g53g5"
    game.push("3g52h5,2h53g5")
    assert game.piece_at("3g5") == "R" and game.piece_at("2h5") is None


def test_the_dragon_breath_gives_check_and_a_pinned_dragon_breathes() -> None:
    game = VARIANT.new_game(fen_of({"2g5": "k", "3g5": "R", "2a1": "K"}, white=False))
    assert game.is_check()
    # Gold's king has stepped up to the sky; its dragon on 3c3 stands
    # between it and Scarlet's dragon on 3e5.
    legal = legal_at({"3b2": "K", "3c3": "R", "3e5": "r", "2c3": "w", "2l8": "k"})
    assert "3c32c3,2c33c3" in legal
    assert "3c33d3" not in legal


def test_the_basilisk_freezes_the_piece_above_it() -> None:
    pieces = {"1e4": "B", "2e4": "o", "2e1": "K", "2l8": "k"}
    legal = legal_at(pieces, white=False)
    assert not any(m.startswith("2e4") for m in legal)       # frozen
    game = VARIANT.new_game(fen_of(pieces, white=True))
    assert not game.is_check()                              # the frozen oliphant gives none
    del pieces["1e4"], pieces["2e1"]
    pieces["1f4"], pieces["2a1"] = "B", "K"
    legal = legal_at(pieces, white=False)
    assert any(m.startswith("2e4") for m in legal)            # free again


def test_the_warrior_promotes_to_a_hero() -> None:
    legal = legal_at({"2a7": "W", "2a1": "K", "2l8": "k"})
    assert "2a72a8h" in legal and "2a72a8" not in legal


def test_heroes_kings_and_mages_between_boards() -> None:
    legal = legal_at({"3e4": "H", "1a1": "K", "2l8": "k", "2d5": "w"})
    assert {m for m in legal if m.startswith("3e4")} == \
        {"3e42d3", "3e42f3", "3e42d5", "3e42f5"}
    assert {m for m in legal if m.startswith("1a1")} == {"1a12a1"}   # the king: back up only
    legal = legal_at({"2e4": "M", "3e4": "w", "2a1": "K", "2l8": "k"})
    assert "2e43e4" in legal and "2e41e4" in legal
    legal = legal_at({"1e4": "M", "2e4": "W", "2a1": "K", "2l8": "k"})
    assert not any(m.startswith("1e43") for m in legal)       # not over its own warrior


def test_sylphs_dwarves_and_elementals() -> None:
    legal = legal_at({"2b5": "S", "3b5": "w", "3a2": "G", "2a1": "K", "2l8": "k"})
    assert {m for m in legal if m.startswith("2b5")} == \
        {"2b53c2", "2b53e2", "2b53g2", "2b53i2", "2b53k2"}    # not above (taken), not a2 (own)
    legal = legal_at({"1c3": "D", "2c3": "w", "2a1": "K", "2l8": "k"})
    assert "1c32c3" in legal                                   # up by taking
    legal = legal_at({"1c3": "E", "1c4": "D", "2c5": "w", "2d3": "w", "2a1": "K", "2l8": "k"})
    assert "1c32d3" in legal and "1c32c5" not in legal         # c4 below the way is taken
    legal = legal_at({"2c3": "E", "1c3": "D", "2a1": "K", "2l8": "k"})
    assert not any(m.startswith("2c3") for m in legal)         # the cell below is taken


def test_a_bad_freezing_primitive_is_a_located_problem() -> None:
    text = """
variantkit: 1
name: x
description: x
board: {grid: {files: 4, ranks: 4, planes: 2}}
pieces:
  king: {letter: K, royal: true, betza: K}
  basilisk:
    letter: B
    betza: W
    freezes: {step: upward}
setup: "k3/4/4/B3|4/4/4/K3 w - - 0 1"
"""
    with pytest.raises(variantkit.VariantError, match=r":11:\d+: .*upward"):
        variantkit.load_text(text)
