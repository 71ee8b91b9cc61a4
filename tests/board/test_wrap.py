"""Cylinder and torus chess (examples/cylinder.yaml, examples/torus.yaml)
against a small brute-force move generator written here from their rules.

The generator knows nothing of variantkit: squares are (file, rank) pairs,
edges are joined by arithmetic modulo 8, a line stops before it comes back
to its own square, and a move is legal when the mover's king is not attacked
afterwards.  Cylinder chess: chess with the a- and h-files joined, castling
as in chess on the king's side of the seam.  Torus chess (Gadsden and
Roberts): both pairs of edges joined, pawns on ranks 1 and 3 (6 and 8), rear
pawns open with two or three cells, no castling.  Both are compared with the
engine on perft from the start and on the legal moves of every position of
seeded random games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import variantkit
from variantkit import perft

EXAMPLES = Path(__file__).parent.parent.parent / "examples"
FILES = "abcdefgh"
Square = tuple[int, int]
Pseudo = tuple[Square, Square, str, tuple[Square, ...]]  # from, to, promotion, passed
KING = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if x or y]
KNIGHT = [(x, y) for x in (-2, -1, 1, 2) for y in (-2, -1, 1, 2) if abs(x) != abs(y)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
LINES = {"r": ROOK, "b": BISHOP, "q": ROOK + BISHOP}


def name(sq: Square) -> str:
    return f"{FILES[sq[0]]}{sq[1] + 1}"


@dataclass
class Position:
    torus: bool
    board: dict[Square, str]          # FEN letters, White in upper case
    white: bool = True
    unmoved: set[Square] = field(default_factory=set)
    en_passant: set[Square] = field(default_factory=set)
    ep_victim: Square | None = None

    def shift(self, sq: Square, dx: int, dy: int) -> Square | None:
        x, y = (sq[0] + dx) % 8, sq[1] + dy
        if self.torus:
            y %= 8
        return (x, y) if 0 <= y < 8 else None

    def line(self, sq: Square, dx: int, dy: int) -> list[Square]:
        out = []
        here: Square | None = sq
        while (here := self.shift(here, dx, dy)) is not None and here != sq:  # type: ignore[arg-type]
            out.append(here)
            if here in self.board:
                break
        return out

    def mine(self, sq: Square, white: bool) -> bool:
        return sq in self.board and self.board[sq].isupper() == white

    def attacked(self, target: Square, by_white: bool) -> bool:
        for sq, letter in self.board.items():
            if letter.isupper() != by_white:
                continue
            if target in self.reach(sq, letter.lower(), by_white, attacks=True):
                return True
        return False

    def reach(self, sq: Square, kind: str, white: bool, attacks: bool = False) -> list[Square]:
        """Landing squares of a piece's non-pawn-push moves (captures included)."""
        if kind == "p":
            ahead = 1 if white else -1
            return [t for dx in (1, -1) if (t := self.shift(sq, dx, ahead)) is not None]
        if kind in "kn":
            steps = KING if kind == "k" else KNIGHT
            return list(dict.fromkeys(t for dx, dy in steps
                                      if (t := self.shift(sq, dx, dy)) is not None))
        return [t for dx, dy in LINES[kind] for t in self.line(sq, dx, dy)]

    def pseudo(self) -> list[Pseudo]:
        """(from, to, promotion letter, passed squares)."""
        white = self.white
        out = []
        for sq, letter in list(self.board.items()):
            if letter.isupper() != white:
                continue
            kind = letter.lower()
            if kind == "p":
                out += self._pawn(sq, white)
                continue
            for t in self.reach(sq, kind, white):
                if not self.mine(t, white):
                    out.append((sq, t, "", ()))
        return out + self._castlings()

    def _pawn(self, sq: Square, white: bool) -> list[Pseudo]:
        ahead = 1 if white else -1
        moves = []
        one = self.shift(sq, 0, ahead)
        if one is not None and one not in self.board:
            moves.append((sq, one, ()))
            if sq in self.unmoved:
                # Torus: rear pawns only, two or three cells; cylinder: chess.
                rear = sq[1] == (0 if white else 7)
                lengths = ((2, 3) if rear else ()) if self.torus else (2,)
                path = [one]
                for n in range(2, 4):
                    nxt = self.shift(sq, 0, n * ahead)
                    if nxt is None or nxt in self.board:
                        break
                    if n in lengths:
                        moves.append((sq, nxt, tuple(path)))
                    path.append(nxt)
        for t in self.reach(sq, "p", white):
            if (t in self.board and not self.mine(t, white)) or t in self.en_passant:
                moves.append((sq, t, ()))
        last = 7 if white else 0
        return [(a, b, promo, passed) for a, b, passed in moves
                for promo in (("q", "r", "b", "n") if b[1] == last else ("",))]

    def _castlings(self) -> list[Pseudo]:
        if self.torus:
            return []
        rank = 0 if self.white else 7
        king = (4, rank)
        out = []
        for rook_file, between, passes in ((7, (5, 6), (4, 5, 6)), (0, (1, 2, 3), (4, 3, 2))):
            rook = (rook_file, rank)
            if {king, rook} <= self.unmoved and self.board.get(king, "").lower() == "k" \
                    and self.board.get(rook, "").lower() == "r" \
                    and self.mine(rook, self.white) \
                    and not any((f, rank) in self.board for f in between) \
                    and not any(self.attacked((f, rank), not self.white) for f in passes):
                out.append((king, (passes[-1], rank), "", ()))
        return out

    def play(self, move: Pseudo) -> Position:
        frm, to, promo, passed = move
        board = dict(self.board)
        letter = board.pop(frm)
        if letter.lower() == "p" and to in self.en_passant and to not in board:
            assert self.ep_victim is not None
            board.pop(self.ep_victim)
        if letter.lower() == "k" and frm in self.unmoved and abs(to[0] - frm[0]) == 2:
            rook_from, rook_to = ((7, frm[1]), (5, frm[1])) if to[0] == 6 \
                else ((0, frm[1]), (3, frm[1]))
            board[rook_to] = board.pop(rook_from)
        board[to] = (promo.upper() if letter.isupper() else promo) if promo else letter
        return Position(self.torus, board, not self.white, self.unmoved - {frm, to},
                        set(passed), to if passed else None)

    def legal(self) -> dict[str, Position]:
        out = {}
        for move in self.pseudo():
            after = self.play(move)
            king = next(sq for sq, x in after.board.items() if x == ("K" if self.white else "k"))
            if not after.attacked(king, not self.white):
                out[name(move[0]) + name(move[1]) + move[2]] = after
        return out


def start(torus: bool, fen: str) -> Position:
    board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - r)] = ch
                f += 1
    return Position(torus, board, unmoved=set(board))


def brute_perft(pos: Position, depth: int) -> int:
    moves = pos.legal()
    return len(moves) if depth == 1 else sum(brute_perft(p, depth - 1) for p in moves.values())


CASES = {"cylinder": False, "torus": True}


@pytest.fixture(scope="module", params=list(CASES))
def case(request: pytest.FixtureRequest) -> tuple[variantkit.Variant, Position]:
    variant = variantkit.load(EXAMPLES / f"{request.param}.yaml")
    return variant, start(CASES[request.param], variant.setup_fen)


def test_perft_from_the_start(case: tuple[variantkit.Variant, Position]) -> None:
    variant, position = case
    for depth in (1, 2):
        assert perft(variant.new_game(), depth) == brute_perft(position, depth)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_agree(case: tuple[variantkit.Variant, Position], seed: int) -> None:
    variant, position = case
    game = variant.new_game()
    rng = random.Random(seed)
    for ply in range(80):
        legal = position.legal()
        engine = sorted(str(m) for m in game.legal_moves())
        assert engine == sorted(legal), f"ply {ply}, {game.fen()}"
        if not legal:
            break
        choice = rng.choice(sorted(legal))
        game.push(choice)
        position = legal[choice]


def test_lines_wrap_and_stop_before_their_own_cell() -> None:
    variant = variantkit.load(EXAMPLES / "torus.yaml")
    game = variant.new_game("8/8/8/7k/8/8/8/R3K3 w - - 0 1")
    rook = {str(m)[2:] for m in game.legal_moves() if str(m).startswith("a1")}
    # Round the a-file to a8, never back onto a1; east to its king, and west
    # across the seam to h1 and on to the king.
    assert rook == {f"a{r}" for r in range(2, 9)} | {"b1", "c1", "d1", "h1", "g1", "f1"}


def test_cylinder_castling_keeps_to_the_kings_side_of_the_seam() -> None:
    variant = variantkit.load(EXAMPLES / "cylinder.yaml")
    # e1 to a1 is four cells either way round; castling long clears and
    # guards b1 c1 d1, never f1 g1 h1 (where a knight stands).
    fen = "4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1"
    king = {str(m) for m in variant.new_game(fen).legal_moves() if str(m).startswith("e1")}
    assert "e1c1" in king and "e1g1" not in king
    assert {m for m in start(False, fen).legal() if m.startswith("e1")} == king
    # A rook beyond the seam attacking d1 forbids it, as it would on a flat board.
    attacked = {str(m) for m in variant.new_game("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
                .legal_moves()}
    assert "e1c1" not in attacked and "e1g1" in attacked


@pytest.mark.parametrize(("files", "ranks", "wrap"), [
    (3, 3, "both"), (3, 5, "files"), (7, 3, "ranks"), (5, 4, "both")])
def test_small_wrapped_boards_load_and_draw(tmp_path: Path, files: int, ranks: int,
                                            wrap: str) -> None:
    from variantkit.drawing.terminal import board_text
    path = tmp_path / "v.yaml"
    path.write_text(f"""variantkit: 1
name: small
board:
  grid: {{files: {files}, ranks: {ranks}, wrap: {wrap}}}
pieces:
  king: {{letter: K, royal: true, moves: [{{step: all, only: move}}]}}
  rider: {{letter: R, moves: [{{ride: all, only: move}}, {{leap: [1, 2], only: move}}]}}
setup: {"/".join([f"k{files - 1}"] + [str(files)] * (ranks - 2) + [f"KR{files - 2}"])} w - - 0 1
""", encoding="utf-8")
    variant = variantkit.load(path)
    game = variant.new_game()
    # Nothing captures, so any setup is sound.  Every ride ends before its
    # own cell: no move leaves a piece where it stands.
    assert all(str(m)[:2] != str(m)[2:4] for m in game.legal_moves())
    assert game.svg().count("<line") == 2 * len(variant.board.wraps)
    assert "wrap around" in board_text(game)
