"""Raumschach (examples/raumschach.yaml): scenario tests from the published rules.

Each piece's moves from the centre of the empty cube, the pawn's moves,
captures and promotion for both sides, check, mate and stalemate, and the
start position.  Then an independent brute-force reading of the rules,
written here from the rules alone, is compared with the engine along seeded
random games, as are position strings and push/pop.

Rules (chessvariants.com "Raumschach" and Wikipedia "Three-dimensional
chess"): a 5x5x5 cube, levels A-E, White on A and B, Black on D and E.  King:
one step in any of 26 directions; rook: along files, ranks and columns;
bishop: along the diagonals of any plane (two coordinates change); unicorn:
along the space diagonals (all three change); queen: all 26 lines; knight:
(0, 1, 2) in any order and signs.  A pawn moves one cell forward or up (Black:
back or down), captures one cell forward-sideways or up-sideways, and
promotes on the last rank of the enemy's home level (White Ea5-Ee5, Black
Aa1-Ae1).  No double step, en passant or castling; stalemate is a draw.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from positions import placement

import variantkit
from variantkit import Outcome
from variantkit.cli import cli
from variantkit.game import Game

FILE = Path(__file__).resolve().parent.parent.parent / "examples" / "raumschach.yaml"
V = variantkit.load(FILE)
START = ("5/5/5/PPPPP/RNKNR|5/5/5/PPPPP/BUQBU|5/5/5/5/5|ubqub/ppppp/5/5/5|rnknr/ppppp/5/5/5"
         " w - - 0 1")
LEVELS, FILES = "ABCDE", "abcde"
PROMOS = "qrbnu"
CELLS = [f"{lv}{f}{r}" for lv in LEVELS for f in FILES for r in range(1, 6)]
# Kings on cells that no line or knight jump from Cc3 reaches.
KINGS = {"Aa2": "K", "Ae4": "k"}


def fen(pieces: dict[str, str], side: str = "w") -> str:
    """A position string from {cell: letter}."""
    return f"{placement(V, pieces)} {side} - - 0 1"


def game(pieces: dict[str, str], side: str = "w") -> Game:
    return V.new_game(fen=fen(pieces, side))


def frm(g: Game, cell: str) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.from_cell == cell}


def to(cell: str, *targets: str) -> set[str]:
    return {cell + t for t in targets}


# -- an independent reading of the rules --------------------------------------------------
Coord = tuple[int, int, int]  # (file, rank, level), 0-based


def coord(cell: str) -> Coord:
    return FILES.index(cell[1]), int(cell[2]) - 1, LEVELS.index(cell[0])


def name(c: Coord) -> str:
    return f"{LEVELS[c[2]]}{FILES[c[0]]}{c[1] + 1}"


def on_board(c: Coord) -> bool:
    return all(0 <= x < 5 for x in c)


UNIT: list[Coord] = [(x, y, z) for x, y, z in itertools.product((-1, 0, 1), repeat=3)
                     if x or y or z]
LINES: dict[str, list[tuple[Coord, int]]] = {
    "K": [(v, 1) for v in UNIT],
    "Q": [(v, 4) for v in UNIT],
    "R": [(v, 4) for v in UNIT if sum(map(abs, v)) == 1],
    "B": [(v, 4) for v in UNIT if sum(map(abs, v)) == 2],
    "U": [(v, 4) for v in UNIT if sum(map(abs, v)) == 3],
    "N": [((x, y, z), 1) for x, y, z in itertools.product(range(-2, 3), repeat=3)
          if sorted(map(abs, (x, y, z))) == [0, 1, 2]],
}


def pawn_vectors(white: bool, capture: bool) -> list[Coord]:
    s = 1 if white else -1
    if capture:
        return [(1, s, 0), (-1, s, 0), (1, 0, s), (-1, 0, s)]
    return [(0, s, 0), (0, 0, s)]


def targets(board: dict[Coord, str], at: Coord, captures_only: bool = False) -> list[Coord]:
    """Cells the piece on `at` moves to (own pieces excluded)."""
    letter = board[at]
    white = letter.isupper()
    out = []

    def enemy(c: Coord) -> bool:
        return c in board and board[c].isupper() != white

    if letter.upper() == "P":
        for v in pawn_vectors(white, capture=True):
            c = (at[0] + v[0], at[1] + v[1], at[2] + v[2])
            if on_board(c) and (captures_only or enemy(c)):
                out.append(c)
        if not captures_only:
            for v in pawn_vectors(white, capture=False):
                c = (at[0] + v[0], at[1] + v[1], at[2] + v[2])
                if on_board(c) and c not in board:
                    out.append(c)
        return out
    for v, reach in LINES[letter.upper()]:
        c = at
        for _ in range(reach):
            c = (c[0] + v[0], c[1] + v[1], c[2] + v[2])
            if not on_board(c):
                break
            if c in board:
                if enemy(c) or captures_only:
                    out.append(c)
                break
            out.append(c)
    return out


def attacked(board: dict[Coord, str], c: Coord, by_white: bool) -> bool:
    return any(c in targets(board, at, captures_only=True)
               for at, letter in board.items() if letter.isupper() == by_white)


def reference_moves(g: Game) -> set[str]:
    """The legal moves by brute force from the rules above."""
    board = {coord(cell): p for cell in CELLS if (p := g.piece_at(cell))}
    white = g.turn == "white"
    out = set()
    for at, letter in list(board.items()):
        if letter.isupper() != white:
            continue
        for c in targets(board, at):
            after = dict(board)
            del after[at]
            after[c] = letter
            king = next(k for k, p in after.items() if p == ("K" if white else "k"))
            if attacked(after, king, not white):
                continue
            last = (c[1] == 4 and c[2] == 4) if white else (c[1] == 0 and c[2] == 0)
            if letter.upper() == "P" and last:
                out |= {name(at) + name(c) + p for p in PROMOS}
            else:
                out.add(name(at) + name(c))
    return out


# -- the file and the start ---------------------------------------------------------------


def test_file_validates_and_shows_five_levels() -> None:
    text = FILE.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/variant.schema.json\n")
    result = CliRunner().invoke(cli, ["validate", str(FILE)])
    assert result.exit_code == 0, result.output
    shown = CliRunner().invoke(cli, ["show", str(FILE)])
    assert shown.exit_code == 0, shown.output
    titles = shown.output.splitlines()[0].split()
    assert titles == ["plane", "A", "plane", "B", "plane", "C", "plane", "D", "plane", "E"]
    # The top rank of all five levels is one line: E's king row on the right.
    assert shown.output.splitlines()[1].split()[-5:] == ["r", "n", "k", "n", "r"]


def test_start_position() -> None:
    g = V.new_game()
    assert g.fen() == START
    assert g.piece_at("Ac1") == "K" and g.piece_at("Ec5") == "k"
    assert g.piece_at("Bc1") == "Q" and g.piece_at("Dc5") == "q"
    assert [g.piece_at(c) for c in ("Ba1", "Bb1", "Bd1", "Be1")] == ["B", "U", "B", "U"]
    assert [g.piece_at(c) for c in ("Da5", "Db5", "Dd5", "De5")] == ["u", "b", "u", "b"]


def test_start_moves() -> None:
    # By hand: pawns A 5 (up is blocked by the B pawns), pawns B 10 (forward
    # and up); knights 6 each; bishops Ba1 6 and Bd1 7; unicorns Bb1 4 and
    # Be1 3; queen 14; king and rooks boxed in: 5+10+12+13+7+14 = 61.
    g = V.new_game()
    moves = {str(m) for m in g.legal_moves()}
    assert len(moves) == 61
    assert moves == reference_moves(g)
    # Bishops, unicorns and queen already reach Black's level-E pawns.
    assert {"Ba1Ea4", "Bd1Ed4", "Bb1Ee4", "Be1Eb4", "Bc1Ec4"} <= moves


def test_start_perft_2_against_the_reference() -> None:
    g = V.new_game()
    total = 0
    for m in g.legal_moves():
        g.push(m)
        replies = {str(r) for r in g.legal_moves()}
        assert replies == reference_moves(g), str(m)
        total += len(replies)
        g.pop()
    assert total == variantkit.perft(g, 2) == 3608


# -- pieces from the centre of the empty cube -------------------------------------------


@pytest.mark.parametrize(("letter", "count"), [
    ("Q", 52),   # 26 lines x 2 cells
    ("R", 12),   # 6 x 2
    ("B", 24),   # 12 x 2
    ("U", 16),   # 8 x 2
    ("N", 24),   # 3 planes x 8 knight jumps
])
def test_piece_from_the_centre(letter: str, count: int) -> None:
    g = game({**KINGS, "Cc3": letter})
    moves = frm(g, "Cc3")
    assert len(moves) == count
    assert moves == {m for m in reference_moves(g) if m.startswith("Cc3")}


def test_piece_lines_in_detail() -> None:
    assert frm(game({**KINGS, "Cc3": "R"}), "Cc3") == to(
        "Cc3", "Ca3", "Cb3", "Cd3", "Ce3", "Cc1", "Cc2", "Cc4", "Cc5",
        "Ac3", "Bc3", "Dc3", "Ec3")
    assert frm(game({**KINGS, "Cc3": "U"}), "Cc3") == to(
        "Cc3", *(f"{LEVELS[2 + k * z]}{FILES[2 + k * x]}{3 + k * y}"
                 for x, y, z in itertools.product((-1, 1), repeat=3) for k in (1, 2)))
    # A bishop never leaves its cell colour (the sum of the coordinates keeps
    # its parity); a unicorn always changes it.
    bishop = frm(game({**KINGS, "Cc3": "B"}), "Cc3")
    assert all(sum(coord(m[3:])) % 2 == 0 for m in bishop)
    unicorn = frm(game({**KINGS, "Cc3": "U"}), "Cc3")
    assert {sum(coord(m[3:])) % 2 for m in unicorn} == {0, 1}


def test_king_from_the_centre() -> None:
    # 26 neighbours, less the two that the black king on Ae4 also touches.
    g = game({"Cc3": "K", "Ae4": "k"})
    moves = frm(g, "Cc3")
    assert len(moves) == 24
    assert not moves & to("Cc3", "Bd3", "Bd4")


def test_lines_are_blocked_and_capture_the_first_enemy() -> None:
    g = game({**KINGS, "Cc3": "Q", "Dd4": "p", "Cc4": "P"})
    moves = frm(g, "Cc3")
    assert "Cc3Dd4" in moves and "Cc3Ee5" not in moves
    assert not moves & to("Cc3", "Cc4", "Cc5")


def test_knight_jumps_over_pieces() -> None:
    crowd = {c: "P" for c in ("Bc3", "Dc3", "Cb3", "Cd3", "Cc2", "Cc4")}
    assert len(frm(game({**KINGS, "Cc3": "N", **crowd}), "Cc3")) == 24


# -- pawns ------------------------------------------------------------------------------


def test_white_pawn_moves_and_captures() -> None:
    assert frm(game({**KINGS, "Cc3": "P"}), "Cc3") == to("Cc3", "Cc4", "Dc3")
    # Enemy pieces on every cell around: it captures forward-sideways and
    # up-sideways only; not forward-and-up, nor down, sideways or back.
    # (Black pawns, which capture only down or back, cannot reach Ee1.)
    around = {name((2 + x, 2 + y, 2 + z)): "p" for x, y, z in UNIT}
    g = game({"Ee1": "K", "Aa5": "k", "Cc3": "P", **around})
    assert frm(g, "Cc3") == to("Cc3", "Cb4", "Cd4", "Db3", "Dd3")


def test_black_pawn_is_the_mirror_image() -> None:
    assert frm(game({**KINGS, "Cc3": "p"}, "b"), "Cc3") == to("Cc3", "Cc2", "Bc3")
    around = {name((2 + x, 2 + y, 2 + z)): "P" for x, y, z in UNIT}
    g = game({"Ee5": "K", "Aa1": "k", "Cc3": "p", **around}, "b")
    assert frm(g, "Cc3") == to("Cc3", "Cb2", "Cd2", "Bb3", "Bd3")


def test_pawn_is_blocked_and_has_no_double_step() -> None:
    g = game({**KINGS, "Cc3": "P", "Cc4": "n", "Dc3": "N"})
    assert frm(g, "Cc3") == set()
    assert frm(V.new_game(), "Bc2") == to("Bc2", "Bc3", "Cc2")


def test_white_promotion_on_the_last_rank_of_level_e() -> None:
    promos = {f"Dc5Ec5{p}" for p in PROMOS}
    assert frm(game({**KINGS, "Dc5": "P"}), "Dc5") == promos  # up only: no rank 6
    assert frm(game({**KINGS, "Ec4": "P", "Ed5": "n"}), "Ec4") == \
        {f"Ec4{t}{p}" for t in ("Ec5", "Ed5") for p in PROMOS}
    # The last rank of another level, and level E short of rank 5, are not.
    assert frm(game({**KINGS, "Cc4": "P"}), "Cc4") == to("Cc4", "Cc5", "Dc4")
    assert frm(game({**KINGS, "Dc3": "P"}), "Dc3") == to("Dc3", "Dc4", "Ec3")
    g = game({**KINGS, "Dc5": "P"})
    g.push("Dc5Ec5u")
    assert g.piece_at("Ec5") == "U"
    assert g.fen().split()[0].split("|")[4].startswith("2U")


def test_black_promotion_on_the_first_rank_of_level_a() -> None:
    g = game({"Ee5": "K", "Ce1": "k", "Bb1": "p", "Ac2": "p"}, "b")
    assert frm(g, "Bb1") == {f"Bb1Ab1{p}" for p in PROMOS}
    assert frm(g, "Ac2") == {f"Ac2Ac1{p}" for p in PROMOS}
    g.push("Ac2Ac1q")
    assert g.piece_at("Ac1") == "q"
    assert g.is_check() is False


# -- check, mate, stalemate ---------------------------------------------------------------


MATE_BEFORE = {"Aa1": "K", "Ad4": "Q", "Bc4": "N", "Ee5": "k"}


def test_queen_mates_in_the_corner() -> None:
    # The queen climbs the d4 column next to the king on Ee5: it attacks the
    # king and all seven cells around it, and the knight on Bc4 guards it.
    g = game(MATE_BEFORE)
    g.push("Ad4Dd4")
    assert g.is_check()
    assert g.legal_moves() == []
    assert g.outcome() == Outcome("white", "checkmate")


def test_unguarded_queen_is_taken() -> None:
    g = game({k: v for k, v in MATE_BEFORE.items() if k != "Bc4"})
    g.push("Ad4Dd4")
    assert g.is_check()
    assert {str(m) for m in g.legal_moves()} == {"Ee5Dd4"}
    assert g.outcome() is None


def test_check_along_a_space_diagonal_must_be_answered() -> None:
    # The unicorn on Aa1 checks Ee5 along the long diagonal; Black blocks
    # on Dd4 with the rook, or steps to a neighbour off the line (not Dd4).
    g = game({"Ae2": "K", "Aa1": "U", "Ee5": "k", "Ad4": "r"}, "b")
    assert g.is_check()
    moves = {str(m) for m in g.legal_moves()}
    assert moves == reference_moves(g)
    assert "Ad4Dd4" in moves and not any(m.startswith("Ad4") and m != "Ad4Dd4" for m in moves)
    assert {m for m in moves if m.startswith("Ee5")} == to(
        "Ee5", "Ed5", "Ee4", "De5", "Ed4", "Dd5", "De4")


def test_stalemate_is_a_draw() -> None:
    # Queen Cd5 covers Ed5, Dd5, De5, Dd4, De4; the king on Ee3 covers Ed4
    # and Ee4; Ee5 itself is not attacked.
    g = game({"Ee5": "k", "Cd5": "Q", "Ee3": "K"}, "b")
    assert not g.is_check()
    assert g.legal_moves() == []
    assert g.outcome() == Outcome(None, "stalemate")


# -- random games: the reference, position strings, push and pop -------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_random_games_against_the_reference(seed: int) -> None:
    # Pawn moves are preferred so that the games reach promotions (two or
    # three per game with these seeds) as well as captures and checks.
    rng = random.Random(seed)
    g = V.new_game()
    promotions = 0
    for _ in range(100):
        moves = g.legal_moves()
        assert {str(m) for m in moves} == reference_moves(g), g.fen()
        if not moves:
            break
        before = g.fen()
        # Position strings read back to the same position and moves.
        again = V.new_game(fen=before)
        assert again.fen() == before
        assert {str(m) for m in again.legal_moves()} == {str(m) for m in moves}
        pawn = [m for m in moves if g.piece_at(m.from_cell) in ("P", "p")]
        move = rng.choice(pawn if pawn and rng.random() < 0.6 else moves)
        promotions += move.promotion is not None
        assert g.push(move) == move
        after = g.fen()
        assert g.pop() == move
        assert g.fen() == before
        g.push(move)
        assert g.fen() == after
    assert promotions
