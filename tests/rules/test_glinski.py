"""Gliński's hexagonal chess (examples/glinski.yaml): scenarios from the
published rules, and an independent move generator written from the rules.

The oracle below knows nothing of the hex topology: it places cells by their
name (file a-l without j, rank from the bottom of the file) on doubled
coordinates (x = file offset from f, y = height in half-cells), takes the
twelve directions from the geometry of the hexagons, and generates moves as
the rules describe them.  The variant must agree with it move for move along
random games.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from positions import placement

import variantkit
from variantkit.cli import cli
from variantkit.game import Game
from variantkit.variant import Variant

GLINSKI_FILE = Path(__file__).resolve().parent.parent.parent / "examples" / "glinski.yaml"
START = "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - - 0 1"


@pytest.fixture(scope="module")
def glinski() -> Variant:
    return variantkit.load(GLINSKI_FILE)


def position(variant: Variant, pieces: dict[str, str], turn: str = "w") -> Game:
    """A game with `pieces` ({cell: letter}) and nothing else."""
    return variant.new_game(f"{placement(variant, pieces)} {turn} - - 0 1")


def moves_from(game: Game, cell: str) -> set[str]:
    return {str(m) for m in game.legal_moves() if m.from_cell == cell}


# -- the start ------------------------------------------------------------------
def test_start(glinski: Variant) -> None:
    game = glinski.new_game()
    assert game.fen() == START
    assert game.piece_at("g1") == "K" and game.piece_at("e1") == "Q"
    assert [game.piece_at(c) for c in ("f1", "f2", "f3")] == ["B", "B", "B"]
    assert game.piece_at("g10") == "k" and game.piece_at("e10") == "q"
    assert [game.piece_at(c) for c in ("f11", "f10", "f9")] == ["b", "b", "b"]
    assert {c for c in glinski.board.names if game.piece_at(c) == "p"} == {
        f"{f}7" for f in "bcdefghik"}
    # White's 51 opening moves: 18 pawn moves (f5 has no double step, f7 is
    # occupied), and the pieces' moves.
    moves = {str(m) for m in game.legal_moves()}
    assert len(moves) == 51
    assert {"f5f6", "e4e6", "b1b3", "k1k3", "f2k6", "e1a5", "h1k2"} <= moves
    assert "f5f7" not in moves


def test_perft_2_matches_the_oracle(glinski: Variant) -> None:
    game = glinski.new_game()
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += len(game.legal_moves())
        game.pop()
    oracle = Oracle.from_fen(glinski, START)
    assert total == sum(len(oracle.after(m).legal()) for m in oracle.legal()) == 2586


# -- each piece from the centre on an empty board ----------------------------------
@pytest.mark.parametrize(("letter", "count"), [("R", 30), ("B", 12), ("Q", 42), ("N", 12)])
def test_piece_from_the_centre(glinski: Variant, letter: str, count: int) -> None:
    # The kings stand off every line and knight's leap from f6.
    game = position(glinski, {"f6": letter, "b1": "K", "k7": "k"})
    assert len(moves_from(game, "f6")) == count


def test_king_from_the_centre(glinski: Variant) -> None:
    game = position(glinski, {"f6": "K", "k7": "k"})
    assert moves_from(game, "f6") == {f"f6{c}" for c in (
        "f7", "f5", "e6", "e5", "g6", "g5", "e7", "g7", "d5", "h5", "e4", "g4")}


def test_knight_jumps(glinski: Variant) -> None:
    game = glinski.new_game()
    assert moves_from(game, "d1") == {"d1b2", "d1c3", "d1f4", "d1g2"}
    assert moves_from(game, "h1") == {"h1e2", "h1f4", "h1i3", "h1k2"}


# -- pawns ------------------------------------------------------------------------
def test_pawn_steps_and_double_steps(glinski: Variant) -> None:
    game = glinski.new_game()
    assert moves_from(game, "c2") == {"c2c3", "c2c4"}
    game.push("c2c3")
    game.push("c7c6")
    assert moves_from(game, "c3") == {"c3c4"}  # off its starting cell: single steps
    # Black's pawns step down their files.
    game = glinski.new_game()
    game.push("f5f6")
    assert moves_from(game, "e7") == {"e7e6", "e7e5"}


def test_pawn_captures_obliquely_forward(glinski: Variant) -> None:
    # The two cells 60 degrees either side of forward, through cell edges.
    game = position(glinski, {"e4": "P", "e5": "n", "d4": "r", "f5": "b", "e6": "q",
                              "b1": "K", "l6": "k"})
    assert not game.is_check()
    assert moves_from(game, "e4") == {"e4d4", "e4f5"}
    game = position(glinski, {"e5": "p", "e4": "N", "d4": "R", "f5": "B", "f4": "Q",
                              "a1": "K", "a6": "k"}, "b")
    assert not game.is_check()
    assert moves_from(game, "e5") == {"e5d4", "e5f5"}


def test_capture_onto_another_start_cell_keeps_the_double_step(glinski: Variant) -> None:
    # Wikipedia: if the pawn on e4 captures on f5, it may still go on to f7.
    game = position(glinski, {"e4": "P", "f5": "n", "a1": "K", "l6": "k"})
    game.push("e4f5")
    game.push("l6l5")
    assert moves_from(game, "f5") == {"f5f6", "f5f7"}


def test_en_passant(glinski: Variant) -> None:
    # hexchess.club's example: after g4g6 f7xg6 f5f7, the g6 pawn takes en
    # passant on f6, the cell the f-pawn passed.
    game = glinski.new_game()
    for move in ("g4g6", "f7g6", "f5f7"):
        game.push(move)
    assert game.fen().split()[3] == "f6"
    assert "g6f6" in {str(m) for m in game.legal_moves()}
    game.push("g6f6")
    assert game.piece_at("f7") is None and game.piece_at("f6") == "p"
    assert game.fen() == ("b/qbk/n1b1n/r5r/pppp1pppp/5p5/11/4P6/3P1B1P3/2P2B2P2/"
                          "1PRNQBKNRP1 w - - 0 3")
    # Only on the very next move.
    game = glinski.new_game()
    for move in ("g4g6", "f7g6", "f5f7", "e10e8", "e4e5"):
        game.push(move)
    assert "g6f6" not in {str(m) for m in game.legal_moves()}


def test_promotion_on_the_last_cell_of_each_file(glinski: Variant) -> None:
    game = position(glinski, {"f10": "P", "e9": "P", "d9": "n", "e10": "r",
                              "a1": "K", "l6": "k"})
    assert moves_from(game, "f10") == {f"f10f11{x}" for x in "qrbn"} \
        | {f"f10e10{x}" for x in "qrbn"}
    # e9's last cell is e10 (occupied); its capture on d9 promotes (d9 ends file d).
    assert moves_from(game, "e9") == {f"e9d9{x}" for x in "qrbn"}
    game.push("f10f11n")
    assert game.piece_at("f11") == "N"
    game = position(glinski, {"c2": "p", "a6": "K", "l6": "k"}, "b")
    assert moves_from(game, "c2") == {f"c2c1{x}" for x in "qrbn"}


# -- the end of the game ------------------------------------------------------------
def test_checkmate_with_king_and_bishop(glinski: Variant) -> None:
    game = position(glinski, {"c3": "K", "l1": "B", "a1": "k"}, "b")
    assert game.is_check() and not game.legal_moves()
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "checkmate")


def test_checkmate_with_king_and_knight(glinski: Variant) -> None:
    game = position(glinski, {"c3": "K", "d2": "N", "a1": "k"}, "b")
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "checkmate")


def test_fools_mate_pattern(glinski: Variant) -> None:
    # A queen supported by its king mates on the edge.
    game = position(glinski, {"f9": "K", "f10": "Q", "f11": "k"}, "b")
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "checkmate"


def test_stalemate_wins_for_the_stalemating_side(glinski: Variant) -> None:
    # The king on c3 covers every cell around a1; the knight does not check.
    game = position(glinski, {"c3": "K", "l6": "N", "a1": "k"}, "b")
    assert not game.is_check() and not game.legal_moves()
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "stalemate")


def test_bare_kings_draw(glinski: Variant) -> None:
    outcome = position(glinski, {"a1": "K", "l6": "k"}).outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == (None,
                                                                       "insufficient-material")
    assert position(glinski, {"a1": "K", "f6": "B", "l6": "k"}).outcome() is None


def test_fifty_move_rule_and_repetition(glinski: Variant) -> None:
    game = variantkit.load(GLINSKI_FILE).new_game(
        "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - - 99 60")
    game.push("d1c3")
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "move-rule"
    game = glinski.new_game()
    for move in ("d1c3", "d9c6", "c3d1", "c6d9") * 2:
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "repetition"


# -- position strings, take-backs, drawing -------------------------------------------
def test_fen_round_trips_and_push_pop(glinski: Variant) -> None:
    rng = random.Random(6)
    for _ in range(4):
        game = glinski.new_game()
        history = [game.fen()]
        for _ in range(80):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.push(rng.choice(moves))
            fen = game.fen()
            assert glinski.new_game(fen).fen() == fen
            history.append(fen)
        while game.move_stack:
            assert game.fen() == history.pop()
            game.pop()
        assert game.fen() == START


def test_show_draws_the_board() -> None:
    result = CliRunner().invoke(cli, ["show", str(GLINSKI_FILE)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["f11", "b"]
    assert lines[10].split() == ["a1", ".", "P", "R", "N", "Q", "B", "K", "N", "R", "P", "."]
    assert f"FEN: {START}" in result.output


# -- the independent oracle ------------------------------------------------------------
FILES = "abcdefghikl"
Cell = tuple[int, int]  # (x, y): file offset from f, height in half-cells above f1


def _geometry(v: Cell) -> tuple[float, float]:
    """Centre of a cell offset, for hexagons of unit side with vertical files."""
    return 1.5 * v[0], math.sqrt(3) / 2 * v[1]


ORTH: list[Cell] = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)]  # through edges
DIAG: list[Cell] = [(2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3)]  # through vertices


def _angle(a: Cell, b: Cell) -> float:
    (ax, ay), (bx, by) = _geometry(a), _geometry(b)
    cos = (ax * bx + ay * by) / math.hypot(ax, ay) / math.hypot(bx, by)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


# One orthogonal step, then one diagonal step 30 degrees from it (outward).
KNIGHT = sorted({(o[0] + d[0], o[1] + d[1]) for o in ORTH for d in DIAG
                 if abs(_angle(o, d) - 30) < 1e-6})
assert len(KNIGHT) == 12
WHITE_PAWN_START = {"b1", "c2", "d3", "e4", "f5", "g4", "h3", "i2", "k1"}
BLACK_PAWN_START = {f"{f}7" for f in "bcdefghik"}


def _cell_of(name: str) -> Cell:
    x = FILES.index(name[0]) - 5
    return x, 2 * (int(name[1:]) - 1) + abs(x)


CELLS = {_cell_of(f"{f}{r}"): f"{f}{r}" for i, f in enumerate(FILES)
         for r in range(1, 12 - abs(i - 5))}


def _plus(a: Cell, b: Cell, k: int = 1) -> Cell:
    return a[0] + k * b[0], a[1] + k * b[1]


class Oracle:
    """Gliński's rules on a dictionary board."""

    def __init__(self, pieces: dict[Cell, str], white: bool, ep: Cell | None) -> None:
        self.pieces, self.white, self.ep = pieces, white, ep

    @classmethod
    def from_fen(cls, variant: Variant, fen: str) -> Oracle:
        game = variant.new_game(fen)
        pieces = {_cell_of(n): p for n in variant.board.names if (p := game.piece_at(n))}
        ep = fen.split()[3]
        return cls(pieces, fen.split()[1] == "w", None if ep == "-" else _cell_of(ep))

    @staticmethod
    def _own(letter: str, white: bool) -> bool:
        return letter.isupper() == white

    def _pseudo(self) -> list[tuple[Cell, Cell, str | None]]:
        out: list[tuple[Cell, Cell, str | None]] = []
        for frm, letter in self.pieces.items():
            if not self._own(letter, self.white):
                continue
            kind = letter.upper()
            targets: list[Cell] = []
            if kind in "RBQ":
                dirs = (ORTH if kind in "RQ" else []) + (DIAG if kind in "BQ" else [])
                for d in dirs:
                    to = _plus(frm, d)
                    while to in CELLS:
                        targets.append(to)
                        if to in self.pieces:
                            break
                        to = _plus(to, d)
            elif kind in "KN":
                targets = [_plus(frm, d) for d in (ORTH + DIAG if kind == "K" else KNIGHT)]
            if kind != "P":
                out += [(frm, t, None) for t in targets
                        if t in CELLS and not (t in self.pieces
                                               and self._own(self.pieces[t], self.white))]
                continue
            sign = 1 if self.white else -1
            one, two = _plus(frm, (0, 2 * sign)), _plus(frm, (0, 4 * sign))
            start = WHITE_PAWN_START if self.white else BLACK_PAWN_START
            steps = []
            if one in CELLS and one not in self.pieces:
                steps.append(one)
                if CELLS[frm] in start and two in CELLS and two not in self.pieces:
                    steps.append(two)
            for dx in (1, -1):
                to = _plus(frm, (dx, sign))
                if (to in self.pieces and not self._own(self.pieces[to], self.white)) \
                        or to == self.ep:
                    steps.append(to)
            for to in steps:
                last = _plus(to, (0, 2 * sign)) not in CELLS
                out += [(frm, to, x) for x in "qrbn"] if last else [(frm, to, None)]
        return out

    def attacked(self, cell: Cell, by_white: bool) -> bool:
        for d in ORTH + DIAG:
            to = _plus(cell, d)
            while to in CELLS:
                letter = self.pieces.get(to)
                if letter is not None:
                    if self._own(letter, by_white) and (
                            letter.upper() == "Q" or letter.upper() == ("R" if d in ORTH else "B")
                            or (letter.upper() == "K" and to == _plus(cell, d))):
                        return True
                    break
                to = _plus(to, d)
        for d in KNIGHT:
            letter = self.pieces.get(_plus(cell, d))
            if letter is not None and letter.upper() == "N" and self._own(letter, by_white):
                return True
        sign = 1 if by_white else -1
        for dx in (1, -1):  # a pawn attacks the cells obliquely ahead of it
            letter = self.pieces.get(_plus(cell, (-dx, -sign)))
            if letter is not None and letter.upper() == "P" and self._own(letter, by_white):
                return True
        return False

    def after(self, move: tuple[Cell, Cell, str | None]) -> Oracle:
        frm, to, promo = move
        pieces = dict(self.pieces)
        letter = pieces.pop(frm)
        ep = None
        if letter.upper() == "P":
            if to == self.ep:  # the pawn that passed `to` stands one cell beyond it
                del pieces[_plus(to, (0, -2 if self.white else 2))]
            if abs(to[1] - frm[1]) == 4:
                ep = ((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2)
        pieces[to] = (promo.upper() if self.white else promo) if promo else letter
        return Oracle(pieces, not self.white, ep)

    def legal(self) -> list[tuple[Cell, Cell, str | None]]:
        out = []
        for move in self._pseudo():
            nxt = self.after(move)
            king = next(c for c, p in nxt.pieces.items() if p == ("K" if self.white else "k"))
            if not nxt.attacked(king, not self.white):
                out.append(move)
        return out

    def move_strings(self) -> set[str]:
        return {CELLS[f] + CELLS[t] + (p or "") for f, t, p in self.legal()}


@pytest.mark.parametrize("seed", range(10))
def test_random_games_match_the_oracle(glinski: Variant, seed: int) -> None:
    rng = random.Random(seed)
    game = glinski.new_game()
    oracle = Oracle.from_fen(glinski, START)
    for ply in range(200):
        expected = oracle.move_strings()
        got = {str(m) for m in game.legal_moves()}
        assert got == expected, f"seed {seed} ply {ply}: {game.fen()}"
        if not got:
            break
        text = rng.choice(sorted(got))
        chosen = next(m for m in oracle.legal()
                      if CELLS[m[0]] + CELLS[m[1]] + (m[2] or "") == text)
        game.push(text)
        oracle = oracle.after(chosen)
        if game.outcome() is not None:
            break
