"""Falcon chess against a brute-force reference written here from its
rules page (docs/rules/falcon.md), on a plain dictionary board of 10x8,
independent of variantkit's compiled tables and of python-chess (which
knows neither the board nor the falcon): every piece's moves spelt out
cell by cell, the falcon's as its sixteen destinations, each with the
three orders of its king steps and taken when the two cells along one of
them are empty; castling from its own table of the page's cells;
legality by making each move and asking whether any enemy piece could
then capture the mover's king.

A castling king may not pass or land on a cell where it would be
attacked, each cell judged with the king standing on it and everything
else as before the move, as the page says.  In chess the reading makes
no difference; a falcon's route, which can run through the king's own
cell or through the cell the rook lands on, shows it.

Compared: perft 1-3 from the start (4 under the `oracle` marker); perft
1-3 from positions that reach each open case of the page (falcon routes
partly and wholly blocked, a falcon's check and pins, both castlings,
castling past, onto or out of an attacked cell, en passant, promotion to
a falcon with check), each naming moves that must, or must not, be legal
there, so that a position no longer reaching its case fails; and, along
seeded random games (from those positions too under `oracle`), the legal
move sets, the position string, check and the end of the game.  Besides:
the page's own example of a falcon's routes, blocked every way, and the
ends of the game that the page keeps from chess."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product

import pytest
from references import PERFT_DEPTHS, RANDOM_GAMES, leaning_choice, reference_perft

import variantkit
from variantkit.game import Game, perft

# A reference test, run on the pure-Python build too, as those on
# python-chess are (tests/conftest.py gives them the marker by their import).
pytestmark = pytest.mark.pure_build

FILES = "abcdefghij"
WIDTH, HEIGHT = 10, 8
START = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"

Cell = tuple[int, int]   # file, rank, from 0
Step = tuple[int, int]
Board = dict[Cell, str]  # cell -> piece letter, White's in upper case

KING = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(dx, dy) for dx, dy in product((-2, -1, 1, 2), repeat=2) if abs(dx) != abs(dy)]
PROMOTIONS = "qfrbn"


def sign(n: int) -> int:
    return (n > 0) - (n < 0)


def falcon_routes(dx: int, dy: int) -> list[tuple[Step, Step]]:
    """The three routes to a falcon's destination `dx, dy` away: the
    orders of its three king steps (one diagonal and two straight for the
    camel's cells, two diagonal and one straight for the zebra's), each as
    the offsets of the two cells it passes."""
    diagonal = (sign(dx), sign(dy))
    straight = (sign(dx), 0) if abs(dx) == 3 else (0, sign(dy))
    steps = [diagonal, straight, straight] if abs(dx) + abs(dy) == 4 \
        else [diagonal, diagonal, straight]
    routes = []
    for first, second, third in sorted(set(permutations(steps))):
        one = first
        two = (one[0] + second[0], one[1] + second[1])
        assert (two[0] + third[0], two[1] + third[1]) == (dx, dy)
        routes.append((one, two))
    return routes


# The 16 destinations of (1, 3), (3, 1), (2, 3) and (3, 2) in every sign,
# each with its three routes.
FALCON = {(sx * a, sy * b): falcon_routes(sx * a, sy * b)
          for a, b in ((1, 3), (3, 1), (2, 3), (3, 2)) for sx in (1, -1) for sy in (1, -1)}
assert len(FALCON) == 16 and all(len(r) == 3 for r in FALCON.values())

# The page's castlings: right, king from and to, rook from and to.
CASTLINGS = [
    ("K", (5, 0), (8, 0), (9, 0), (7, 0)),
    ("Q", (5, 0), (2, 0), (0, 0), (3, 0)),
    ("k", (5, 7), (8, 7), (9, 7), (7, 7)),
    ("q", (5, 7), (2, 7), (0, 7), (3, 7)),
]


def on(cell: Cell) -> bool:
    return 0 <= cell[0] < WIDTH and 0 <= cell[1] < HEIGHT


def add(cell: Cell, d: Step, k: int = 1) -> Cell:
    return cell[0] + k * d[0], cell[1] + k * d[1]


def name(cell: Cell) -> str:
    return FILES[cell[0]] + str(cell[1] + 1)


def parse(text: str) -> Cell:
    return FILES.index(text[0]), int(text[1:]) - 1


def white(piece: str) -> bool:
    return piece.isupper()


@dataclass
class State:
    board: Board
    white: bool                  # White to move
    rights: str                  # castling rights left, in the order KQkq
    ep: Cell | None              # the cell a double step has just passed
    halfmoves: int
    fullmove: int


def read(fen: str) -> State:
    """A state from a position string: the placement (runs of empty cells
    as numbers, 10 a whole rank), side, rights, en passant cell, clocks."""
    placement, turn, rights, ep, halfmoves, fullmove = fen.split()
    board: Board = {}
    for row, text in enumerate(placement.split("/")):
        file, digits = 0, ""
        for ch in text + "/":
            if ch.isdigit():
                digits += ch
                continue
            file += int(digits or 0)
            digits = ""
            if ch != "/":
                board[(file, HEIGHT - 1 - row)] = ch
                file += 1
        assert file == WIDTH, fen
    return State(board, turn == "w", "" if rights == "-" else rights,
                 None if ep == "-" else parse(ep), int(halfmoves), int(fullmove))


def placement(board: Board) -> str:
    rows = []
    for rank in range(HEIGHT - 1, -1, -1):
        text, gap = "", 0
        for file in range(WIDTH):
            piece = board.get((file, rank))
            if piece is None:
                gap += 1
                continue
            text += (str(gap) if gap else "") + piece
            gap = 0
        rows.append(text + (str(gap) if gap else ""))
    return "/".join(rows)


def reaches(board: Board, frm: Cell, to: Cell) -> bool:
    """Whether the piece on `frm` could capture on `to` (whatever stands
    there): the cells it attacks."""
    piece = board[frm]
    kind = piece.upper()
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    if kind == "P":
        return abs(dx) == 1 and dy == (1 if white(piece) else -1)
    if kind == "N":
        return (dx, dy) in KNIGHT
    if kind == "K":
        return (dx, dy) in KING
    if kind == "F":
        return (dx, dy) in FALCON and any(
            add(frm, one) not in board and add(frm, two) not in board
            for one, two in FALCON[(dx, dy)])
    lines = {"R": ROOK, "B": BISHOP, "Q": ROOK + BISHOP}[kind]
    d = (sign(dx), sign(dy))
    if d not in lines or (dx and dy and abs(dx) != abs(dy)) or not (dx or dy):
        return False
    cell = add(frm, d)
    while cell != to:
        if cell in board:
            return False
        cell = add(cell, d)
    return True


def attacked(board: Board, cell: Cell, by_white: bool) -> bool:
    return any(white(p) == by_white and reaches(board, frm, cell)
               for frm, p in board.items())


def in_check(board: Board, side_white: bool) -> bool:
    king = next((c for c, p in board.items() if p == ("K" if side_white else "k")), None)
    return king is not None and attacked(board, king, not side_white)


# A pseudo-legal move: from, to, promotion letter ("" for none), and what
# else it is: "" plain, "double" a pawn's double step, "ep" en passant,
# or the castling right it uses.
Move = tuple[Cell, Cell, str, str]


def piece_moves(state: State, frm: Cell) -> list[Move]:
    board, piece = state.board, state.board[frm]
    kind, mine = piece.upper(), white(piece)

    def free_or_enemy(to: Cell) -> bool:
        return on(to) and (to not in board or white(board[to]) != mine)

    moves: list[Move] = []
    if kind == "P":
        ahead = 1 if mine else -1
        last = HEIGHT - 1 if mine else 0
        targets: list[tuple[Cell, str]] = []
        one = add(frm, (0, ahead))
        if on(one) and one not in board:
            targets.append((one, ""))
            two = add(frm, (0, 2 * ahead))
            if frm[1] == (1 if mine else HEIGHT - 2) and two not in board:
                targets.append((two, "double"))
        for side in (-1, 1):
            to = add(frm, (side, ahead))
            if on(to) and to in board and white(board[to]) != mine:
                targets.append((to, ""))
            elif to == state.ep:
                targets.append((to, "ep"))
        for to, what in targets:
            if to[1] == last:
                moves += [(frm, to, p, what) for p in PROMOTIONS]
            else:
                moves.append((frm, to, "", what))
        return moves
    if kind in "NK":
        moves = [(frm, add(frm, d), "", "") for d in (KNIGHT if kind == "N" else KING)
                 if free_or_enemy(add(frm, d))]
        return moves + (castlings(state) if kind == "K" else [])
    if kind == "F":
        return [(frm, add(frm, d), "", "") for d, routes in FALCON.items()
                if free_or_enemy(add(frm, d)) and any(
                    add(frm, one) not in board and add(frm, two) not in board
                    for one, two in routes)]
    for d in {"R": ROOK, "B": BISHOP, "Q": ROOK + BISHOP}[kind]:
        to = add(frm, d)
        while on(to) and to not in board:
            moves.append((frm, to, "", ""))
            to = add(to, d)
        if free_or_enemy(to):
            moves.append((frm, to, "", ""))
    return moves


def castlings(state: State) -> list[Move]:
    """The page's conditions: the right kept (its king and rook unmoved),
    every cell between them empty, the king not in check, and neither the
    cells it passes nor the one it lands on attacked.  Each of those cells
    is judged with the king standing on it and the rest as before the
    move: a falcon's route through the king's own cell is open, one
    through the cell the rook will land on is open too.  The position
    after the move must leave the king unattacked, as every move's must."""
    board, us = state.board, state.white
    moves: list[Move] = []
    for right, king, king_to, rook, _ in CASTLINGS:
        if right not in state.rights or right.isupper() != us:
            continue
        if board.get(king) != ("K" if us else "k") or board.get(rook) != ("R" if us else "r"):
            continue
        low, high = sorted((king[0], rook[0]))
        if any((f, king[1]) in board for f in range(low + 1, high)):
            continue
        step = sign(king_to[0] - king[0])
        crossed = [(f, king[1]) for f in range(king[0], king_to[0] + step, step)]
        lifted = {c: p for c, p in board.items() if c != king}
        if attacked(board, king, not us) or any(attacked(lifted, c, not us) for c in crossed):
            continue
        moves.append((king, king_to, "", right))
    return moves


def play(state: State, move: Move) -> State:
    frm, to, promotion, what = move
    board = dict(state.board)
    piece = board.pop(frm)
    capture = to in board or what == "ep"
    board[to] = (promotion.upper() if state.white else promotion) if promotion else piece
    if what == "ep":
        del board[(to[0], frm[1])]
    for right, _, _, rook, rook_to in CASTLINGS:
        if what == right:
            board[rook_to] = board.pop(rook)
    touched = {frm, to}
    rights = "".join(r for r, king, _, rook, _ in CASTLINGS
                     if r in state.rights and not touched & {king, rook})
    return State(board, not state.white, rights,
                 (frm[0], (frm[1] + to[1]) // 2) if what == "double" else None,
                 0 if capture or piece.upper() == "P" else state.halfmoves + 1,
                 state.fullmove + (not state.white))


def move_text(move: Move) -> str:
    """The move as variantkit writes it: from, to and a promotion's letter
    in lower case; a castling as the king's move."""
    return name(move[0]) + name(move[1]) + move[2]


def legal(state: State) -> dict[str, State]:
    """The legal moves (by their strings) and the state after each."""
    out: dict[str, State] = {}
    for frm in sorted(c for c, p in state.board.items() if white(p) == state.white):
        for move in piece_moves(state, frm):
            after = play(state, move)
            if not in_check(after.board, state.white):
                out[move_text(move)] = after
    return out


def fen(state: State, moves: dict[str, State]) -> str:
    """The position string variantkit writes: the en passant cell only
    while some legal move takes there."""
    takes = state.ep is not None and any(
        parse(m[2:4]) == state.ep and state.board[parse(m[:2])].upper() == "P"
        and m[0] != m[2] for m in moves)
    return " ".join([placement(state.board), "w" if state.white else "b",
                     state.rights or "-", name(state.ep) if takes and state.ep else "-",
                     str(state.halfmoves), str(state.fullmove)])


def dead(board: Board) -> bool:
    """Chess's dead material (docs/rules/chess.md), which the page keeps:
    bare kings, a lone knight or bishop, or bishops all on cells of one
    colour; a falcon, like a pawn, rook or queen, plays on."""
    others = [(c, p.upper()) for c, p in board.items() if p.upper() != "K"]
    if len(others) <= 1 and all(kind in "NB" for _, kind in others):
        return True
    return all(kind == "B" for _, kind in others) \
        and len({(c[0] + c[1]) % 2 for c, _ in others}) == 1


def assert_same(ours: set[str], reference: set[str], where: str) -> None:
    """The legal move sets are the same, or the moves that differ, each
    side's, with where."""
    assert ours == reference, \
        f"{where}: variantkit alone {sorted(ours - reference)}, " \
        f"the reference alone {sorted(reference - ours)}"


@cache   # loading takes a tenth of a second: once for the file's games
def variant() -> variantkit.Variant:
    return variantkit.load("falcon")


def falcon(fen_text: str = START) -> Game:
    return variant().new_game(fen_text)


@pytest.mark.parametrize("depths", PERFT_DEPTHS)
def test_perft_from_the_start(depths: tuple[int, ...]) -> None:
    """No falcon moves at first (every first step is onto a pawn or a
    piece): 24 moves, the pawns' 20 and the knights' 4."""
    ours = falcon()
    assert len(legal(read(START))) == 24
    for depth in depths:
        assert perft(ours, depth) == reference_perft(legal, read(START), depth), depth


# Positions that reach each open case of the page, with moves that must and
# must not be legal there (for the side to move).
POSITIONS = [
    pytest.param(  # F e4 to f7 by its one clear route (e5, f6); d7's routes
        # all blocked (d6 by an enemy pawn, e6 by a pawn of its own)
        "9k/10/3pP5/5P4/4F5/10/10/K9 w - - 0 1", {"e4f7", "e4c7"}, {"e4d7"},
        id="routes"),
    pytest.param(  # the falcon e5 checks f8 by its one clear route (e6, f7):
        # blocked by e7-e6 or Nc7-e6; e7xf6 would open the route (e6, e7)
        "5k4/2n1p5/5P4/4F5/10/10/10/K9 b - - 0 1",
        {"e7e6", "c7e6", "f8f7", "f8e8"}, {"e7f6", "f8g7", "f8g8"}, id="check-one-route"),
    pytest.param(  # all three routes clear: no single cell blocks them all
        "5k4/2n7/r9/4F5/10/10/7b2/1K8 b - - 0 1",
        {"h2e5", "f8f7"}, {"c7e6", "a6e6", "a6f6"}, id="check-three-routes"),
    pytest.param(  # the falcon e3 pinned on the e-file by the rook e8; the
        # black knight g6 alone shuts the falcon g5's route (g6, g7) to h8
        # (as Black's answers show, and the next position)
        "4r2k2/7p2/6n3/6F3/10/4F5/10/4K5 w - - 0 1", {"g5f8", "e1d1"}, {"e3f6", "e3h5"},
        id="falcon-pinned"),
    pytest.param(
        "4r2k2/7p2/6n3/6F3/10/4F5/10/4K5 b - - 0 1", {"h8i7", "h7h6"}, {"g6e5", "g6i7"},
        id="route-pin"),
    pytest.param(  # both castlings, each side
        "r4k3r/p8p/10/10/10/10/P8P/R4K3R w KQkq - 0 1", {"f1i1", "f1c1"}, set(),
        id="castlings"),
    pytest.param(  # the falcon i4 attacks g1 and h1, which the king passes;
        # the knight a3 attacks b1, which only the rook passes
        "5k4/10/10/10/8f1/n9/10/R4K3R w KQ - 0 1", {"f1c1"}, {"f1i1"},
        id="castling-passing-attacked"),
    pytest.param(  # the falcon f3 attacks i1 where the king would land; its
        # routes to c1 are shut by the pawns e2 and e3
        "5k4/10/10/10/10/4Pf4/4P5/R4K3R w KQ - 0 1", {"f1c1"}, {"f1i1"},
        id="castling-landing-attacked"),
    pytest.param(  # the falcon g2's one open route to d1, which the king
        # passes, runs through the king's own cell (f1 and e1; e2 and f2
        # shut the others): no long castling
        "5k4/10/10/10/10/10/4PPf3/R4K4 w Q - 0 1", {"f1g1"}, {"f1c1"},
        id="castling-past-the-kings-cell"),
    pytest.param(  # the falcon j2 attacks g1, which the king passes, through
        # h1 where the rook will land (i2 and h1, i1 and h1; h2 shuts i2, h2)
        "5k4/10/10/10/10/10/7P1f/5K3R w K - 0 1", {"j1j2"}, {"f1i1"},
        id="castling-past-the-rooks-cell"),
    pytest.param(  # the falcon f2 attacks c1, where the king would land,
        # through e1 and d1, where the rook will land (e2 shuts the others)
        "5k4/10/10/10/10/10/4Pf4/R4K4 w Q - 0 1", {"f1f2"}, {"f1c1"},
        id="castling-onto-the-rooks-cell"),
    pytest.param(  # in check from the falcon d4: no castling
        "5k4/10/10/10/3f6/10/4P5/R4K3R w KQ - 0 1", {"f1g1"}, {"f1i1", "f1c1"},
        id="castling-in-check"),
    pytest.param(  # double steps, each answered by en passant
        "5k4/3p1p4/10/4P5/10/10/10/5K4 b - - 0 1", {"d7d5", "f7f5"}, set(),
        id="en-passant"),
    pytest.param(  # en passant by c5 but not by e5: taking d5 and leaving e5
        # would open the falcon c6's route (d5, e5) to the king f4
        "9k/10/2f7/2PpP5/4NK4/10/10/10 w - d6 0 1", {"c5d6"}, {"e5d6"},
        id="en-passant-falcon-pin"),
    pytest.param(  # promotions, on g8 to a falcon checking j7 (through h8
        # and i8), by capture on h8; Black's on c1
        "7r2/6P2k/10/10/10/10/2p7/K9 w - - 0 1",
        {"g7g8f", "g7h8f", "g7g8q", "g7g8n", "g7h8r", "g7h8b"}, {"g7g8", "g7g8k", "g7g8p"},
        id="promotion"),
]


@pytest.mark.pure_in_oracle   # on the compiled build in make test
@pytest.mark.parametrize(("fen_text", "must", "must_not"), POSITIONS)
def test_open_cases(fen_text: str, must: set[str], must_not: set[str]) -> None:
    """The position reaches its case (the reference's moves), then the
    moves, the position string and perft 1-3 are the reference's."""
    ours, state = falcon(fen_text), read(fen_text)
    moves = legal(state)
    assert must <= set(moves) and not must_not & set(moves)
    assert_same({str(m) for m in ours.legal_moves()}, set(moves), fen_text)
    assert ours.fen() == fen(state, moves)
    for depth in (1, 2, 3):
        assert perft(ours, depth) == reference_perft(legal, state, depth), depth


def test_promotion_to_a_falcon_checks() -> None:
    """A pawn promoted to a falcon checks by the falcon's routes at once."""
    game = falcon("7r2/6P2k/10/10/10/10/2p7/K9 w - - 0 1")
    game.push("g7g8f")
    assert game.is_check()
    assert in_check(read(game.fen()).board, False)
    game.pop()
    game.push("g7g8q")
    assert not game.is_check()


@pytest.mark.parametrize("blocked", [
    frozenset(cells) for n in range(5) for cells in combinations(("e5", "f5", "e6", "f6"), n)])
def test_the_pages_example(blocked: frozenset[str]) -> None:
    """From e4 the falcon reaches f7 through f5 and f6, through e5 and f6,
    or through e5 and e6: it goes there when one of these pairs is empty,
    whichever of the four cells pawns stand on."""
    pieces = "".join(f"P{c}" for c in sorted(blocked))
    board: Board = {(0, 0): "K", (0, 7): "k", (4, 3): "F"}
    board.update({parse(c): "P" for c in blocked})
    state = State(board, True, "", None, 0, 1)
    clear = any(not {a, b} & blocked for a, b in (("f5", "f6"), ("e5", "f6"), ("e5", "e6")))
    assert ("e4f7" in legal(state)) == clear, pieces
    moves = {str(m) for m in falcon(fen(state, {})).legal_moves()}
    assert ("e4f7" in moves) == clear, pieces


def expected_ends(state: State, moves: dict[str, State], seen: dict[str, int]) -> set[str]:
    """The reasons the game may end for in this position (chess's: several
    may hold at once): checkmate or stalemate, repetition (a third
    occurrence), the fifty-move rule, dead material."""
    reasons = set()
    if not moves:
        reasons.add("checkmate" if in_check(state.board, state.white) else "stalemate")
    if seen.get(" ".join(fen(state, moves).split()[:4]), 0) >= 3:
        reasons.add("repetition")
    if state.halfmoves >= 100:
        reasons.add("move-rule")
    if dead(state.board):
        reasons.add("insufficient-material")
    return reasons


def is_rare(state: State, move: str) -> bool:
    """Whether `move` is of a kind the random games should often play: a
    falcon's, a capture, castling, en passant or a promotion."""
    frm, to = parse(move[:2]), parse(move[2:4])
    piece = state.board[frm]
    return piece.upper() == "F" or to in state.board or len(move) > 4 \
        or (piece.upper() == "K" and abs(frm[0] - to[0]) > 1) \
        or (piece.upper() == "P" and frm[0] != to[0])


def play_random_game(seed: int, plies: int, fen_text: str = START) -> int:
    """One seeded random game in both, comparing at every ply the legal
    move sets, the position string, check and the end of the game; the
    plies played."""
    rng = random.Random(seed)
    ours, state = falcon(fen_text), read(fen_text)
    seen: dict[str, int] = {}
    for ply in range(plies):
        moves = legal(state)
        text = fen(state, moves)
        seen[" ".join(text.split()[:4])] = seen.get(" ".join(text.split()[:4]), 0) + 1
        where = f"seed {seed} ply {ply}: {ours.fen()}"
        assert ours.fen() == text, where
        assert_same({str(m) for m in ours.legal_moves()}, set(moves), where)
        assert ours.is_check() == in_check(state.board, state.white), where
        ends, outcome = expected_ends(state, moves, seen), ours.outcome()
        assert (outcome is None) == (not ends), where
        if outcome is not None:
            assert outcome.reason in ends, where
            assert outcome.winner == (None if outcome.reason != "checkmate"
                                      else "black" if state.white else "white"), where
            return ply
        played = sorted(moves)
        rare = [m for m in played if is_rare(state, m)]
        move = leaning_choice(rng, played, rare, 0.6)
        ours.push(move)
        state = moves[move]
    return plies


@pytest.mark.parametrize(("seeds", "plies", "least"), RANDOM_GAMES)
def test_random_games(seeds: range, plies: int, least: int) -> None:
    assert sum(play_random_game(seed, plies) for seed in seeds) >= least


@pytest.mark.oracle
@pytest.mark.parametrize("fen_text", [pytest.param(p.values[0], id=p.id) for p in POSITIONS])
def test_random_games_from_the_open_cases(fen_text: str) -> None:
    """Beyond the perft's three plies: where the cases lead (games from
    the start castle seldom, promote and take en passant a few times)."""
    for seed in range(4):
        play_random_game(seed, 60, fen_text)


@pytest.mark.parametrize(("fen_text", "reason"), [
    ("9k/6F1pp/10/10/4B5/10/10/K9 b - - 0 1", "checkmate"),   # by the falcon (h8 i8, h7 i8)
    ("k9/2Q7/1K8/10/10/10/10/10 b - - 0 1", "stalemate"),
    ("5k4/10/10/10/10/10/10/4FK4 w - - 0 1", None),            # a lone falcon plays on
    ("5k4/10/10/10/10/10/10/4NK4 w - - 0 1", "insufficient-material"),   # a lone knight
    ("5k4/10/3b6/10/10/10/10/4BK4 w - - 0 1", "insufficient-material"),  # bishops of a colour
    ("5k4/3b6/10/10/10/10/10/4BK4 w - - 0 1", None),           # of both colours
    ("5k4/10/3b6/10/10/10/10/3FBK4 w - - 0 1", None),          # a falcon beside them
])
def test_the_end(fen_text: str, reason: str | None) -> None:
    """The end of the game as chess's, which the page keeps: checkmate,
    stalemate and dead material, a falcon never dead."""
    ours, state = falcon(fen_text), read(fen_text)
    outcome = ours.outcome()
    assert expected_ends(state, legal(state), {}) == ({reason} if reason else set())
    assert (None if outcome is None else outcome.reason) == reason
