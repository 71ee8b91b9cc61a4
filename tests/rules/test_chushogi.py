"""Chu shogi (variants/chushogi.yaml) against a reference written here from
its rules (docs/rules/chushogi.md), in plain Python on a dictionary board:
each piece's moves as chu players describe them, the lion's, horned
falcon's and soaring eagle's two-step moves, the promotion zone, the
lion-trading rules and the end by capture of the king and prince.

Compared: perft 1-2 from the start (counted by the reference), the legal
move sets along seeded random games from the start and from positions
that bring lions, falcons and eagles into contact, and positions that
reach each open case of the rules page by name."""

from __future__ import annotations

import random
import re

import pytest

import variantkit
from variantkit.game import perft

SIZE = 12
FILES = "abcdefghijkl"
Cell = tuple[int, int]
Board = dict[Cell, str]   # cell -> letter as written ("P", "+p", ...)

ALL8 = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
GOLD = ORTH + [(1, 1), (-1, 1)]
ELEPHANT = [d for d in ALL8 if d != (0, -1)]
# Per letter (White's view, forward is +y): single steps, rides, leaps over anything.
STEPS: dict[str, list[Cell]] = {
    "K": ALL8, "E": ELEPHANT, "G": GOLD, "S": DIAG + [(0, 1)],
    "C": [(1, 1), (-1, 1), (0, 1), (0, -1)], "F": DIAG + [(0, 1), (0, -1)],
    "T": DIAG + [(1, 0), (-1, 0), (0, -1)], "O": DIAG, "X": ORTH,
    "M": [(0, 1), (0, -1)], "V": [(1, 0), (-1, 0)], "H": ORTH, "D": DIAG,
    "P": [(0, 1)], "I": [(0, 1), (0, -1)],
    "+E": ALL8, "+S": [(1, 0), (-1, 0)], "+C": [(0, 1), (0, -1)],
    "+T": DIAG + [(1, 0), (-1, 0)], "+B": ORTH, "+R": DIAG, "+P": GOLD, "+I": ELEPHANT,
    "+H": [(0, 1)], "+D": [(1, 1), (-1, 1)],
}
RIDES: dict[str, list[Cell]] = {
    "L": [(0, 1)], "A": [(0, 1), (0, -1)], "M": [(1, 0), (-1, 0)], "V": [(0, 1), (0, -1)],
    "B": DIAG, "R": ORTH, "H": DIAG, "D": ORTH, "Q": ALL8,
    "+G": ORTH, "+S": [(0, 1), (0, -1)], "+C": [(1, 0), (-1, 0)], "+F": DIAG,
    "+T": [(0, 1), (0, -1)], "+X": ALL8, "+L": [(0, 1), (0, -1), (1, 1), (-1, 1)],
    "+A": [(0, 1), (0, -1), (1, -1), (-1, -1)], "+M": DIAG + [(1, 0), (-1, 0)],
    "+V": DIAG + [(0, 1), (0, -1)], "+B": DIAG, "+R": ORTH,
    "+H": DIAG + [(1, 0), (-1, 0), (0, -1)], "+D": ORTH + [(1, -1), (-1, -1)],
}
LEAPS: dict[str, list[Cell]] = {
    "O": [(2, 0), (-2, 0), (0, 2), (0, -2)], "X": [(2, 2), (-2, 2), (2, -2), (-2, -2)],
    "+H": [(0, 2)], "+D": [(2, 2), (-2, 2)],
}
LIONS = {"N", "+O"}
# The falcon's and eagle's lion power: along these lines, on or back.
LINE_POWER = {"+H": [(0, 1)], "+D": [(1, 1), (-1, 1)]}
PROMOTES = {"E", "G", "S", "C", "F", "T", "O", "X", "L", "A", "M", "V", "B", "R", "H", "D",
            "P", "I"}
ROYAL = {"K", "+E"}


def read(fen: str) -> tuple[Board, bool]:
    board: Board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f, plus, digits = 0, "", ""
        for ch in row + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                f, digits = f + int(digits), ""
            if ch == "+":
                plus = "+"
            elif ch != " ":
                board[(f, SIZE - 1 - r)] = plus + ch
                f, plus = f + 1, ""
    return board, fen.split()[1] == "w"


def name(cell: Cell) -> str:
    return FILES[cell[0]] + str(cell[1] + 1)


def cell_of(text: str) -> Cell:
    return FILES.index(text[0]), int(text[1:]) - 1


def inside(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def white_piece(letter: str) -> bool:
    return letter[-1].isupper()


def kind(letter: str) -> str:
    return letter.upper()


# A basic move: (from, to, midway cell taken or None); `to == from` with no
# midway piece is a pass.
Basic = tuple[Cell, Cell, Cell | None]


def basic_moves(board: Board, white: bool) -> list[Basic]:
    """Every move of the side's pieces, before promotion and the lion rules."""
    out: list[Basic] = []
    ahead = 1 if white else -1

    def own(cell: Cell) -> bool:
        return cell in board and white_piece(board[cell]) == white

    def enemy(cell: Cell) -> bool:
        return cell in board and white_piece(board[cell]) != white

    for here, letter in board.items():
        if white_piece(letter) != white:
            continue
        k = kind(letter)
        found: set[Basic] = set()
        for dx, dy in STEPS.get(k, []):
            to = (here[0] + dx, here[1] + dy * ahead)
            if inside(to) and not own(to):
                found.add((here, to, None))
        for dx, dy in LEAPS.get(k, []):
            to = (here[0] + dx, here[1] + dy * ahead)
            if inside(to) and not own(to):
                found.add((here, to, None))
        for dx, dy in RIDES.get(k, []):
            to = (here[0] + dx, here[1] + dy * ahead)
            while inside(to) and not own(to):
                found.add((here, to, None))
                if to in board:
                    break
                to = (to[0] + dx, to[1] + dy * ahead)
        if k in LIONS:
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    to = (here[0] + dx, here[1] + dy)
                    if (dx, dy) != (0, 0) and inside(to) and not own(to):
                        found.add((here, to, None))
            for dx, dy in ALL8:
                mid = (here[0] + dx, here[1] + dy)
                if not inside(mid) or own(mid):
                    continue
                for ex, ey in ALL8:
                    to = (mid[0] + ex, mid[1] + ey)
                    if not inside(to) or (own(to) and to != here):
                        continue
                    if enemy(mid):
                        found.add((here, to, mid))
                    elif to == here:
                        found.add((here, here, None))   # jitto
        for dx, dy in LINE_POWER.get(k, []):
            mid = (here[0] + dx, here[1] + dy * ahead)
            if not inside(mid) or own(mid):
                continue
            onward = (mid[0] + dx, mid[1] + dy * ahead)
            if enemy(mid):
                found.add((here, here, mid))
                if inside(onward) and not own(onward):
                    found.add((here, onward, mid))
            else:
                found.add((here, here, None))
        out += found
    return out


def takes(board: Board, move: Basic) -> list[str]:
    frm, to, mid = move
    taken = [board[mid]] if mid else []
    if to != frm and to in board:
        taken.append(board[to])
    return taken


def in_zone(cell: Cell, white: bool) -> bool:
    return cell[1] >= 8 if white else cell[1] <= 3


def may_promote(letter: str, move: Basic, board: Board, white: bool) -> bool:
    frm, to, mid = move
    if kind(letter) not in PROMOTES or mid is not None or to == frm:
        return False
    if not in_zone(frm, white):
        return in_zone(to, white)
    last = to[1] == (SIZE - 1 if white else 0)
    return bool(takes(board, move)) or (kind(letter) in ("P", "L") and last)


def play(board: Board, move: Basic, promote: bool) -> Board:
    frm, to, mid = move
    after = dict(board)
    piece = after.pop(frm)
    if mid:
        del after[mid]
    if promote:
        piece = "+" + piece
    after[to] = piece
    return after


def lions_taken_by_other(board: Board, move: Basic) -> bool:
    """Whether `move` takes a lion with a piece that is not one."""
    return kind(board[move[0]]) not in LIONS \
        and any(kind(t) in LIONS for t in takes(board, move))


def game_over(board: Board) -> bool:
    return any(not any(kind(p) in ROYAL and white_piece(p) == side for p in board.values())
               for side in (True, False))


def reference_moves(fen: str, struck: bool, refused: list[str] | None = None) -> set[str]:
    """Every legal move string; `struck`: the move before took a lion with
    a piece that is not one.  The lion captures the rules forbid go to
    `refused`, as "counter-strike" or "from afar"."""
    board, white = read(fen)
    if game_over(board):
        return set()
    out: set[str] = set()
    for move in basic_moves(board, white):
        frm, to, mid = move
        letter = board[frm]
        taken = takes(board, move)
        if any(kind(t) in LIONS for t in taken):
            if kind(letter) not in LIONS:
                if struck:
                    if refused is not None:
                        refused.append("counter-strike")
                    continue
            elif to != frm and to in board and kind(board[to]) in LIONS \
                    and max(abs(to[0] - frm[0]), abs(to[1] - frm[1])) > 1 \
                    and not (mid and kind(board[mid]) not in ("P", "I")):
                after = play(board, move, False)
                if any(reply[1] == to or reply[2] == to
                       for reply in basic_moves(after, not white)
                       if reply[1] != reply[0] or reply[2] is not None):
                    if refused is not None:
                        refused.append("from afar")
                    continue   # a protected lion, from afar, without a bridge
        text = f"{name(frm)}{name(mid)},{name(mid)}{name(to)}" if mid else name(frm) + name(to)
        out.add(text)
        if may_promote(letter, move, board, white):
            out.add(text + "+")
    return out


def struck_by(fen: str, move: str) -> bool:
    """Whether `move` (a string) played in `fen` takes a lion with a non-lion."""
    board, _ = read(fen)
    cells = [cell_of(c) for c in re.findall(r"[a-l][0-9]+", move)]
    if len(cells) == 4:   # a two-step capture: from, midway, midway, to
        return lions_taken_by_other(board, (cells[0], cells[3], cells[1]))
    return lions_taken_by_other(board, (cells[0], cells[1], None))


# -- the comparison -----------------------------------------------------------
VARIANT = variantkit.load("chushogi")


def legal_strings(game: variantkit.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def test_perft_one_and_two_from_the_start() -> None:
    game = VARIANT.new_game()
    first = reference_moves(game.fen(), False)
    assert perft(game, 1) == len(first) == 36
    second = 0
    for move in first:
        game.push(move)
        second += len(reference_moves(game.fen(), struck_by(VARIANT.setup_fen, move)))
        game.pop()
    assert perft(game, 2) == second == 1296


CONTACT = [
    # Lions face to face across the centre, bridges and protectors around them.
    "6k5/12/5p6/4g1p5/5n6/12/5N6/4P1G5/12/12/12/5K6 w - - 0 1",
    # Falcons and eagles in the zone, pawns to take on their lines.
    "5k6/4p1p5/3p1p1p4/4+H1+D5/12/12/12/12/5+d+h5/4P1P5/12/6K5 w - - 0 1",
    # A lion, a promoted kirin and rooks: counter-strikes.
    "k11/12/4r7/12/4n1+o5/12/4N1R5/12/4R7/12/12/11K b - - 0 1",
    # A bare king and a prince.
    "6k5/12/6e5/12/3p2N5/12/12/4+E7/12/12/12/K11 w - - 0 1",
]


def random_game(start: str | None, seed: int, plies: int,
                refused: list[str] | None = None) -> None:
    game = VARIANT.new_game(start)
    rng = random.Random(seed)
    struck = False
    for _ in range(plies):
        fen = game.fen()
        legal = legal_strings(game)
        assert legal == reference_moves(fen, struck, refused), fen
        if not legal:
            break
        move = rng.choice(sorted(legal))
        struck = struck_by(fen, move)
        game.push(move)


@pytest.mark.parametrize("seed", range(3))
def test_random_games_from_the_start(seed: int) -> None:
    random_game(None, seed, 60)


def test_random_games_from_contact_positions() -> None:
    refused: list[str] = []
    for start in CONTACT:
        for seed in range(4):
            random_game(start, seed, 30, refused)
    # The games reach both lion rules.
    assert {"counter-strike", "from afar"} <= set(refused)


def moves_in(fen: str) -> set[str]:
    return legal_strings(VARIANT.new_game(fen))


def test_the_lion_takes_twice_stays_and_passes() -> None:
    legal = moves_in("6k5/12/12/12/12/6p5/5Np5/12/12/12/12/K11 w - - 0 1")
    assert {"f6g6,g6g7", "f6g6,g6f6", "f6g7,g7g6", "f6f6", "f6g7,g7h8"} <= legal


def test_a_protected_lion_two_cells_away_needs_a_bridge() -> None:
    # The black lion on f9 is protected by the pawn on f10.
    base = "6k5/12/5p6/5n6/{}/5N6/12/12/12/12/12/K11 w - - 0 1"
    assert "f7f9" not in moves_in(base.format("12"))                   # from afar: no
    assert "f7f8,f8f9" in moves_in(base.format("5g6"))                 # a gold as bridge
    assert "f7f8,f8f9" not in moves_in(base.format("5p6"))             # a pawn is none
    assert "f7f8,f8f9" not in moves_in(base.format("5i6"))             # nor a go-between
    unprotected = "6k5/12/12/5n6/12/5N6/12/12/12/12/12/K11 w - - 0 1"
    assert "f7f9" in moves_in(unprotected)
    # Next to it, a lion always takes a lion.
    assert "f8f9" in moves_in("6k5/12/5p6/5n6/5N6/12/12/12/12/12/12/K11 w - - 0 1")


def test_no_counter_strike_after_a_lion_is_taken_by_another_piece() -> None:
    start = "k11/12/6r5/4n7/12/12/4R1N5/12/12/12/12/11K w - - 0 1"
    game = VARIANT.new_game(start)
    game.push("l1k1")
    assert "g10g6" in legal_strings(game)        # the rook may take the lion...
    game = VARIANT.new_game(start)
    game.push("e6e9")                            # ...but not right after a rook took one
    legal = legal_strings(game)
    assert "g10g6" not in legal
    assert "g10g7" in legal


def test_the_game_ends_when_king_and_prince_are_taken() -> None:
    game = VARIANT.new_game("12/12/12/12/12/12/12/12/12/12/3N8/1+Ek9 w - - 0 1")
    assert game.outcome() is None      # White's prince stands for its king
    game.push("d2c1")
    assert str(game.outcome()) == "white wins by extinction"
    assert legal_strings(game) == set()


def test_protocols_carry_two_step_moves_both_ways() -> None:
    from variantkit.protocols.usi import UsiDialect
    from variantkit.protocols.xboard import cecp_move, variantkit_move

    game = VARIANT.new_game("6k5/12/12/12/12/6p5/5Np5/12/12/12/12/K11 w - - 0 1")
    usi = UsiDialect()
    moves = game.legal_moves()
    assert any(m.via for m in moves)
    for move in moves:
        assert usi.move_in(VARIANT, usi.move_out(VARIANT, move)) == str(move)
        assert variantkit_move(VARIANT, cecp_move(VARIANT, move)) == str(move)


@pytest.mark.oracle
def test_perft_three_and_longer_games_match_the_reference() -> None:
    game = VARIANT.new_game()
    expected = 0
    for first in reference_moves(game.fen(), False):
        game.push(first)
        fen = game.fen()
        for second in reference_moves(fen, struck_by(VARIANT.setup_fen, first)):
            game.push(second)
            expected += len(reference_moves(game.fen(), struck_by(fen, second)))
            game.pop()
        game.pop()
    assert perft(game, 3) == expected
    refused: list[str] = []
    for seed in range(3, 9):
        random_game(None, seed, 150, refused)
    for start in CONTACT:
        for seed in range(4, 12):
            random_game(start, seed, 60, refused)


def test_falcon_and_eagle_have_the_lion_power_on_their_lines() -> None:
    # White falcon e5, eagle h5; black pawns e6, i6, g6 and e7 (behind e6).
    legal = moves_in("6k5/12/12/12/12/4p7/4p1p1p3/4+H2+D4/12/12/12/K11 w - - 0 1")
    assert {"e5e6,e6e5", "e5e6,e6e7", "e5e7"} <= legal          # igui, double, the leap
    assert "e5e5" not in legal                                   # the cell ahead is taken
    assert {"h5g6,g6h5", "h5g6,g6f7", "h5i6,i6j7"} <= legal
    assert "h5h5" not in legal                                   # both diagonals ahead taken
    assert "h5g6,g6g7" not in legal                              # on its line only
    game = VARIANT.new_game("6k5/12/12/12/12/4p7/4p1p1p3/4+H2+D4/12/12/12/K11 w - - 0 1")
    assert game.san("e5e6,e6e7") == "+Hxe6xe7"
    game = VARIANT.new_game("6k5/12/12/12/12/12/6p5/7+D4/12/12/12/K11 w - - 0 1")
    assert "h5h5" in legal_strings(game)                         # out to i6 and back
