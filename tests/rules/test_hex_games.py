"""McCooey's and Shafran's hexagonal chess against a reference written here
from their published rules (docs/rules/mccooey.md, docs/rules/shafran.md).

The reference knows nothing of the hex topology or of the variant files: it
places each game's cells by their published names on cube coordinates
(x + y + z = 0; up a file is (0, 1, -1)), takes the twelve directions and the
knight's leaps from cube geometry (orthogonal: the permutations of
(1, -1, 0); diagonal: of (2, -1, -1) and (-2, 1, 1); knight: of (3, -2, -1)
and (-3, 2, 1)), and generates moves as the rules describe them, castling
and en passant included.

Compared: perft 1-3 from the start (4 under the `oracle` marker), the legal
move sets along seeded random games, and positions reaching each open case
of the rules pages: McCooey's central pawn, en passant after two and three
cells, promotion cells, Shafran's four castlings, stalemate.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path

import pytest
from positions import placement

import variantkit
from variantkit.game import Game, perft
from variantkit.variant import Variant

VARIANTS = Path(__file__).resolve().parent.parent.parent / "variants"
Cube = tuple[int, int, int]
Move = tuple[Cube, Cube, str | None]   # from, to, promotion letter

ORTH: list[Cube] = sorted(set(permutations((1, -1, 0))))
DIAG: list[Cube] = sorted(set(permutations((2, -1, -1))) | set(permutations((-2, 1, 1))))
KNIGHT: list[Cube] = sorted(set(permutations((3, -2, -1))) | set(permutations((-3, 2, 1))))
UP: Cube = (0, 1, -1)
SE: Cube = (1, -1, 0)   # down to the right, along a Shafran rank
assert len(ORTH) == 6 and len(DIAG) == 6 and len(KNIGHT) == 12


def plus(a: Cube, b: Cube, k: int = 1) -> Cube:
    return a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]


def neg(a: Cube) -> Cube:
    return -a[0], -a[1], -a[2]


def forward_diagonals(forward: Cube) -> list[Cube]:
    """The two diagonals 30 degrees either side of `forward`: forward plus
    an orthogonal step 60 degrees from it."""
    return [plus(forward, o) for o in ORTH if plus(forward, o) in DIAG]


@dataclass(frozen=True)
class Castling:
    right: str          # K Q k q
    king: tuple[str, str]
    rook: tuple[str, str]


@dataclass
class Rules:
    """One game: its cells by name, the pawns' rules, the castlings."""

    cells: dict[Cube, str]
    start: dict[str, str]                    # cell -> letter
    double_from: tuple[set[str], set[str]]   # per side: cells a pawn may go further from
    furthest: int                            # cells a pawn may go from them (2 or 3)
    castlings: list[Castling]
    stalemate: str = "draw"
    by_name: dict[str, Cube] = field(init=False)

    def __post_init__(self) -> None:
        self.by_name = {n: c for c, n in self.cells.items()}

    def file_cells(self, cell: Cube) -> list[Cube]:
        """The cells of `cell`'s file, bottom first."""
        return sorted((c for c in self.cells if c[0] == cell[0]), key=lambda c: c[1])


def mccooey_rules() -> Rules:
    """The 91 cells max(|x|, |y|, |z|) <= 5; files a-l without j from the left
    (x = -5 .. 5); each file's ranks from 1 at its lowest cell."""
    cells: dict[Cube, str] = {}
    for i, letter in enumerate("abcdefghikl"):
        x = i - 5
        column = sorted(y for y in range(-5, 6) if abs(-x - y) <= 5)
        for k, y in enumerate(column):
            cells[(x, y, -x - y)] = f"{letter}{k + 1}"
    white = {"c1": "P", "d2": "P", "e3": "P", "f4": "P", "g3": "P", "h2": "P", "i1": "P",
             "d1": "R", "h1": "R", "e2": "N", "g2": "N", "e1": "Q", "g1": "K",
             "f1": "B", "f2": "B", "f3": "B"}
    return Rules(cells, {**white, **mirror(cells, white)},
                 ({"c1", "d2", "e3", "g3", "h2", "i1"}, {"c8", "d8", "e8", "g8", "h8", "i8"}),
                 2, [])


def mirror(cells: dict[Cube, str], white: dict[str, str]) -> dict[str, str]:
    """McCooey's Black army: White's reflected top to bottom (x, y, z) ->
    (x, z, y)."""
    by_name = {n: c for c, n in cells.items()}
    return {cells[(c[0], c[2], c[1])]: letter.lower()
            for name, letter in white.items() for c in [by_name[name]]}


def shafran_rules() -> Rules:
    """Files a-i from the left; a rank is a line running down to the right
    (a1 b1 c1 d1 e1), numbered from 1 at the lower-left edge.  File a holds
    ranks 1-6, b 1-7, c 1-8, d 1-9, e 1-10, f 2-10, g 3-10, h 4-10, i 5-10."""
    spans = dict(zip("abcdefghi", [(1, 6), (1, 7), (1, 8), (1, 9), (1, 10), (2, 10), (3, 10),
                                   (4, 10), (5, 10)], strict=True))
    cells: dict[Cube, str] = {}
    for i, (letter, (low, high)) in enumerate(spans.items()):
        for rank in range(low, high + 1):
            cells[plus(plus((0, 0, 0), SE, i), UP, rank)] = f"{letter}{rank}"
    white = {"a1": "R", "b1": "N", "c1": "B", "d1": "Q", "e1": "K", "f2": "B", "g3": "N",
             "h4": "B", "i5": "R", "a2": "P", "b2": "P", "c2": "P", "d2": "P", "e2": "P",
             "f3": "P", "g4": "P", "h5": "P", "i6": "P"}
    # Black's army is White's turned half round the board's centre.
    by_name = {n: c for c, n in cells.items()}
    centre = plus(by_name["a1"], by_name["i10"])
    black = {cells[(centre[0] - c[0], centre[1] - c[1], centre[2] - c[2])]: letter.lower()
             for name, letter in white.items() for c in [by_name[name]]}
    castlings = [Castling("K", ("e1", "g3"), ("i5", "f2")),
                 Castling("K", ("e1", "h4"), ("i5", "g3")),
                 Castling("Q", ("e1", "c1"), ("a1", "d1")),
                 Castling("Q", ("e1", "b1"), ("a1", "c1")),
                 Castling("k", ("e10", "c8"), ("a6", "d9")),
                 Castling("k", ("e10", "b7"), ("a6", "c8")),
                 Castling("q", ("e10", "g10"), ("i10", "f10")),
                 Castling("q", ("e10", "h10"), ("i10", "g10"))]
    return Rules(cells, {**white, **black},
                 ({"a2", "b2", "c2", "d2", "e2", "f3", "g4", "h5", "i6"},
                  {"a5", "b6", "c7", "d8", "e9", "f9", "g9", "h9", "i9"}), 3, castlings)


@dataclass(frozen=True)
class State:
    rules: Rules
    pieces: dict[Cube, str]
    white: bool
    ep: frozenset[Cube] = frozenset()   # cells passed by the last move's pawn
    ep_pawn: Cube | None = None         # where that pawn stands
    rights: frozenset[str] = frozenset()

    @classmethod
    def start(cls, rules: Rules) -> State:
        pieces = {rules.by_name[n]: p for n, p in rules.start.items()}
        return cls(rules, pieces, True, rights=frozenset(c.right for c in rules.castlings))

    def own(self, letter: str, white: bool) -> bool:
        return letter.isupper() == white

    def forward(self, white: bool) -> Cube:
        return UP if white else neg(UP)

    def _pawn_moves(self, frm: Cube) -> Iterator[Move]:
        cells, fwd = self.rules.cells, self.forward(self.white)
        targets: list[Cube] = []
        one = plus(frm, fwd)
        if one in cells and one not in self.pieces:
            targets.append(one)
            if cells[frm] in self.rules.double_from[0 if self.white else 1]:
                # As far as the middle of the file: its central cell if it
                # has one, else the last cell of the pawn's own half.
                column = self.rules.file_cells(frm)
                middle = column[(len(column) - 1) // 2] if self.white else column[len(column) // 2]
                limit = abs(middle[1] - frm[1])
                for k in range(2, min(self.rules.furthest, limit) + 1):
                    to = plus(frm, fwd, k)
                    if to in self.pieces:
                        break
                    targets.append(to)
        for d in forward_diagonals(fwd):
            to = plus(frm, d)
            if to in cells and ((to in self.pieces and not self.own(self.pieces[to], self.white))
                                or (to in self.ep and to not in self.pieces)):
                targets.append(to)
        for to in targets:
            if plus(to, fwd) not in cells:   # the last cell of its file
                yield from ((frm, to, x) for x in "qrbn")
            else:
                yield frm, to, None

    def pseudo(self) -> Iterator[Move]:
        cells = self.rules.cells
        for frm, letter in list(self.pieces.items()):
            if not self.own(letter, self.white):
                continue
            kind = letter.upper()
            if kind == "P":
                yield from self._pawn_moves(frm)
                continue
            targets: list[Cube] = []
            if kind in "QRB":
                for d in (ORTH if kind in "QR" else []) + (DIAG if kind in "QB" else []):
                    to = plus(frm, d)
                    while to in cells:
                        targets.append(to)
                        if to in self.pieces:
                            break
                        to = plus(to, d)
            else:
                targets = [plus(frm, d) for d in (ORTH + DIAG if kind == "K" else KNIGHT)]
            for to in targets:
                if to in cells and not (to in self.pieces
                                        and self.own(self.pieces[to], self.white)):
                    yield frm, to, None
        yield from self._castlings()

    def _castlings(self) -> Iterator[Move]:
        by = self.rules.by_name
        for c in self.rules.castlings:
            if c.right not in self.rights or c.right.isupper() != self.white:
                continue
            king, rook = by[c.king[0]], by[c.rook[0]]
            # The cells strictly between king and rook, on their line.
            step = next(d for d in ORTH if any(plus(king, d, k) == rook for k in range(1, 9)))
            between = []
            here = plus(king, step)
            while here != rook:
                between.append(here)
                here = plus(here, step)
            if any(cell in self.pieces for cell in between):
                continue
            king_to = by[c.king[1]]
            path = [king]
            here = king
            while here != king_to:
                here = plus(here, step)
                path.append(here)
            if any(self.attacked(cell, not self.white) for cell in path):
                continue
            yield king, king_to, "castle"

    def attacked(self, cell: Cube, by_white: bool) -> bool:
        cells = self.rules.cells
        for d in ORTH + DIAG:
            to = plus(cell, d)
            while to in cells:
                letter = self.pieces.get(to)
                if letter is not None:
                    kind = letter.upper()
                    if self.own(letter, by_white) and (
                            kind == "Q" or kind == ("R" if d in ORTH else "B")
                            or (kind == "K" and to == plus(cell, d))):
                        return True
                    break
                to = plus(to, d)
        for d in KNIGHT:
            letter = self.pieces.get(plus(cell, d))
            if letter is not None and letter.upper() == "N" and self.own(letter, by_white):
                return True
        for d in forward_diagonals(self.forward(by_white)):
            letter = self.pieces.get(plus(cell, neg(d)))
            if letter is not None and letter.upper() == "P" and self.own(letter, by_white):
                return True
        return False

    def after(self, move: Move) -> State:
        frm, to, promo = move
        by, names = self.rules.by_name, self.rules.cells
        pieces = dict(self.pieces)
        letter = pieces.pop(frm)
        rights = set(self.rights)
        ep: frozenset[Cube] = frozenset()
        ep_pawn = None
        if promo == "castle":
            c = next(c for c in self.rules.castlings
                     if by[c.king[0]] == frm and by[c.king[1]] == to and c.right in self.rights)
            pieces[by[c.rook[1]]] = pieces.pop(by[c.rook[0]])
            pieces[to] = letter
        else:
            if letter.upper() == "P":
                if to in self.ep and to not in self.pieces:
                    assert self.ep_pawn is not None
                    del pieces[self.ep_pawn]
                fwd = self.forward(self.white)
                steps = next((k for k in range(1, 4) if plus(frm, fwd, k) == to), 1)
                if steps > 1:
                    ep = frozenset(plus(frm, fwd, k) for k in range(1, steps))
                    ep_pawn = to
            pieces[to] = (promo.upper() if self.white else promo) if promo else letter
        # A right goes when its king or its rook leaves, or its rook is taken.
        for c in self.rules.castlings:
            if names[frm] in (c.king[0], c.rook[0]) or names[to] == c.rook[0]:
                rights.discard(c.right)
        return State(self.rules, pieces, not self.white, ep, ep_pawn, frozenset(rights))

    def legal(self) -> list[Move]:
        out = []
        king_letter = "K" if self.white else "k"
        for move in self.pseudo():
            nxt = self.after(move)
            king = next(c for c, p in nxt.pieces.items() if p == king_letter)
            if not nxt.attacked(king, not self.white):
                out.append(move)
        return out

    def text(self, move: Move) -> str:
        frm, to, promo = move
        return self.rules.cells[frm] + self.rules.cells[to] + \
            (promo if promo not in (None, "castle") else "")

    def move_strings(self) -> set[str]:
        return {self.text(m) for m in self.legal()}

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        moves = self.legal()
        if depth == 1:
            return len(moves)
        return sum(self.after(m).perft(depth - 1) for m in moves)


GAMES = {"mccooey": mccooey_rules, "shafran": shafran_rules}


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> tuple[str, Variant, Rules]:
    name = request.param
    return name, variantkit.load(VARIANTS / f"{name}.yaml"), GAMES[name]()


def position(variant: Variant, rules: Rules, pieces: dict[str, str], white: bool = True,
             rights: str = "") -> tuple[Game, State]:
    """A game and the reference's state with `pieces` ({cell: letter})."""
    fen = f"{placement(variant, pieces)} {'w' if white else 'b'} {rights or '-'} - 0 1"
    state = State(rules, {rules.by_name[n]: p for n, p in pieces.items()}, white,
                  rights=frozenset(rights))
    return variant.new_game(fen), state


def play_both(game: Game, state: State, text: str) -> State:
    move = next(m for m in state.legal() if state.text(m) == text)
    game.push(text)
    return state.after(move)


def assert_same(game: Game, state: State, where: str = "") -> None:
    got = {str(m) for m in game.legal_moves()}
    assert got == state.move_strings(), f"{where} {game.fen()}"


# -- the start ------------------------------------------------------------------------
def test_start_positions(game: tuple[str, Variant, Rules]) -> None:
    _name, variant, rules = game
    ours = variant.new_game()
    assert {n: ours.piece_at(n) for n in variant.board.names if ours.piece_at(n)} == rules.start
    assert set(variant.board.names) == set(rules.by_name)
    assert ours.fen() == variant.new_game(ours.fen()).fen()


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_from_the_start(game: tuple[str, Variant, Rules], depth: int) -> None:
    _name, variant, rules = game
    assert perft(variant.new_game(), depth) == State.start(rules).perft(depth)


@pytest.mark.oracle
def test_perft_4_from_the_start(game: tuple[str, Variant, Rules]) -> None:
    _name, variant, rules = game
    assert perft(variant.new_game(), 4) == State.start(rules).perft(4)


def random_game(variant: Variant, rules: Rules, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    ours = variant.new_game()
    state = State.start(rules)
    for ply in range(plies):
        assert_same(ours, state, f"seed {seed} ply {ply}:")
        texts = sorted(state.move_strings())
        if not texts or ours.outcome() is not None:
            break
        fen = ours.fen()
        assert variant.new_game(fen).fen() == fen
        state = play_both(ours, state, rng.choice(texts))


@pytest.mark.parametrize("seed", range(6))
def test_random_games(game: tuple[str, Variant, Rules], seed: int) -> None:
    _name, variant, rules = game
    random_game(variant, rules, seed, 150)


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(6, 40))
def test_more_random_games(game: tuple[str, Variant, Rules], seed: int) -> None:
    _name, variant, rules = game
    random_game(variant, rules, seed, 250)


# -- McCooey's open cases --------------------------------------------------------------
@pytest.fixture(scope="module")
def mccooey() -> tuple[Variant, Rules]:
    return variantkit.load(VARIANTS / "mccooey.yaml"), mccooey_rules()


def test_mccooey_central_pawn_has_no_double_step(mccooey: tuple[Variant, Rules]) -> None:
    variant, rules = mccooey
    ours = variant.new_game()
    assert {str(m) for m in ours.legal_moves() if m.from_cell == "f4"} == {"f4f5"}
    assert {str(m) for m in ours.legal_moves() if m.from_cell == "e3"} == {"e3e4", "e3e5"}
    assert_same(ours, State.start(rules))


def test_mccooey_en_passant(mccooey: tuple[Variant, Rules]) -> None:
    variant, rules = mccooey
    # d2d4 passes d3, which Black's pawn on e5 attacks diagonally forward
    # (down the board): it may take the d-pawn there on the next move only.
    ours, state = position(variant, rules, {"g1": "K", "d2": "P", "e5": "p", "g10": "k"},
                           white=True)
    state = play_both(ours, state, "d2d4")
    assert ours.fen().split()[3] == "d3"
    assert "e5d3" in {str(m) for m in ours.legal_moves()}
    assert_same(ours, state)
    state = play_both(ours, state, "e5d3")
    assert ours.piece_at("d4") is None and ours.piece_at("d3") == "p"
    assert_same(ours, state)


def test_mccooey_promotion_on_each_files_last_cell(mccooey: tuple[Variant, Rules]) -> None:
    variant, rules = mccooey
    # e9 steps to e10 (the top of file e) or takes on f11 and d9's right
    # neighbour: every landing on a file's last cell promotes.
    ours, state = position(variant, rules, {"a1": "K", "e9": "P", "f11": "r", "d9": "n",
                                            "l1": "k"})
    moves = {str(m) for m in ours.legal_moves() if m.from_cell == "e9"}
    assert moves == {f"e9{to}{x}" for to in ("e10", "f11") for x in "qrbn"}
    assert_same(ours, state)


def test_mccooey_stalemate_is_a_draw(mccooey: tuple[Variant, Rules]) -> None:
    variant, rules = mccooey
    ours, state = position(variant, rules, {"c3": "K", "l6": "N", "a1": "k"}, white=False)
    assert not ours.is_check() and not ours.legal_moves() and not state.legal()
    outcome = ours.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == (None, "stalemate")


# -- Shafran's open cases --------------------------------------------------------------
@pytest.fixture(scope="module")
def shafran() -> tuple[Variant, Rules]:
    return variantkit.load(VARIANTS / "shafran.yaml"), shafran_rules()


def test_shafran_first_moves_reach_the_middle(shafran: tuple[Variant, Rules]) -> None:
    variant, _rules = shafran
    ours = variant.new_game()
    reach = {m.from_cell: set() for m in ours.legal_moves()}
    for m in ours.legal_moves():
        reach[m.from_cell].add(str(m.to_cell))
    assert reach["a2"] == {"a3"} and reach["i6"] == {"i7"}
    assert reach["b2"] == {"b3", "b4"} and reach["h5"] == {"h6", "h7"}
    assert reach["d2"] == {"d3", "d4", "d5"} and reach["f3"] == {"f4", "f5", "f6"}
    assert reach["e2"] == {"e3", "e4", "e5"}


def test_shafran_en_passant_on_either_passed_cell(shafran: tuple[Variant, Rules]) -> None:
    variant, rules = shafran
    for taker, victim_cell in (("c4", "d3"), ("c5", "d4")):
        # d2d5 passes d3 and d4; Black's pawns on c4 and c5 attack them
        # diagonally forward (down the board).
        pieces = {"e1": "K", "d2": "P", "e10": "k", taker: "p"}
        ours, state = position(variant, rules, pieces)
        state = play_both(ours, state, "d2d5")
        assert f"{taker}{victim_cell}" in {str(m) for m in ours.legal_moves()}
        assert_same(ours, state)
        # The field names one passed cell; read back, both are targets again.
        back = variant.new_game(ours.fen())
        assert back.fen() == ours.fen()
        assert_same(back, state)
        state = play_both(ours, state, f"{taker}{victim_cell}")
        assert ours.piece_at("d5") is None and ours.piece_at(victim_cell) == "p"
        assert_same(ours, state)


def test_shafran_four_castlings(shafran: tuple[Variant, Rules]) -> None:
    variant, rules = shafran
    pieces = {"a1": "R", "e1": "K", "i5": "R", "a6": "r", "e10": "k", "i10": "r"}
    ours, state = position(variant, rules, pieces, rights="KQkq")
    moves = {str(m) for m in ours.legal_moves()}
    assert {"e1g3", "e1h4", "e1c1", "e1b1"} <= moves
    assert_same(ours, state)
    for castle, rook_to in (("e1g3", "f2"), ("e1h4", "g3"), ("e1c1", "d1"), ("e1b1", "c1")):
        game, st = position(variant, rules, pieces, rights="KQkq")
        st = play_both(game, st, castle)
        assert game.piece_at(rook_to) == "R"
        assert_same(game, st, castle)
        assert game.fen().split()[2] in ("kq",)
    # Black's too, after a White move.
    game, st = position(variant, rules, pieces, rights="KQkq")
    st = play_both(game, st, "e1e2")
    assert {"e10c8", "e10b7", "e10g10", "e10h10"} <= {str(m) for m in game.legal_moves()}
    assert_same(game, st)


def test_shafran_castling_through_attacked_cells(shafran: tuple[Variant, Rules]) -> None:
    variant, rules = shafran
    # Black's rook on c8 covers file c down to c1: the short queen's-wing
    # castling lands on c1, the long one passes it; the bishops' wing is free.
    pieces = {"a1": "R", "e1": "K", "i5": "R", "c8": "r", "e10": "k"}
    ours, state = position(variant, rules, pieces, rights="KQ")
    moves = {str(m) for m in ours.legal_moves()}
    assert "e1c1" not in moves and "e1b1" not in moves
    assert {"e1g3", "e1h4"} <= moves
    assert_same(ours, state)
    # A piece between king and rook stops both castlings on that wing.
    ours, state = position(variant, rules, {**pieces, "c8": "p", "b1": "N"}, rights="KQ")
    assert not {"e1c1", "e1b1"} & {str(m) for m in ours.legal_moves()}
    assert_same(ours, state)


def test_shafran_promotion_on_both_top_edges(shafran: tuple[Variant, Rules]) -> None:
    variant, rules = shafran
    # b7 ends file b on the upper-left edge, c8 file c; g10 and f10 end
    # their files on the upper-right edge.  A capture onto a last cell
    # promotes as a step does.
    ours, state = position(variant, rules, {"e1": "K", "b6": "P", "g9": "P", "c8": "n",
                                            "f10": "r", "a3": "k"})
    moves = {str(m) for m in ours.legal_moves() if m.from_cell in ("b6", "g9")}
    assert moves == {f"{a}{x}" for a in ("b6b7", "b6c8", "g9g10", "g9f10") for x in "qrbn"}
    assert_same(ours, state)


def test_shafran_stalemate_is_a_draw(shafran: tuple[Variant, Rules]) -> None:
    variant, rules = shafran
    # The black king in the a1 corner, not in check, every cell round it
    # covered by White's king and queen.
    ours, state = position(variant, rules, {"a1": "k", "c3": "K", "i10": "Q"}, white=False)
    if ours.legal_moves() or ours.is_check():
        pytest.fail(f"not a stalemate: {sorted(str(m) for m in ours.legal_moves())}")
    assert not state.legal()
    outcome = ours.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == (None, "stalemate")
