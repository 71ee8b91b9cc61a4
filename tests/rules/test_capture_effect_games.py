"""Rifle, Andernach, AntiAndernach, Circe, Mirror Circe and AntiCirce chess against a
reference written here from their published rules (docs/rules/), on
python-chess: orthodox pseudo-legal moves from python-chess's board, each
move's effect applied by hand to a copy, legality judged by the game's own
check rule.  Castling rights follow the pieces that have not moved (a
piece reborn, or turned, on its own start cell counts as not moved).

Compared: perft 1-3 from the start (4 under the `oracle` marker), and the
legal move sets and the board along seeded random games, from the start
and from positions that reach each open case of the rules pages (more
games under `oracle`).  Besides: effects composed on one capture, and the
located problems of bad declarations."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

import chess
import pytest
from declarations import errors_over
from references import reference_perft

import variantkit
from variantkit.game import perft

START = chess.Board()
# Where each piece stands in the start position: its game-array cells.
ARRAY = {(p.piece_type, p.color): chess.SquareSet() for p in START.piece_map().values()}
for _square, _piece in START.piece_map().items():
    ARRAY[(_piece.piece_type, _piece.color)].add(_square)
CASTLINGS = [  # king from, king to, rook from, rook to, cells between
    (chess.E1, chess.G1, chess.H1, chess.F1, (chess.F1, chess.G1)),
    (chess.E1, chess.C1, chess.A1, chess.D1, (chess.B1, chess.C1, chess.D1)),
    (chess.E8, chess.G8, chess.H8, chess.F8, (chess.F8, chess.G8)),
    (chess.E8, chess.C8, chess.A8, chess.D8, (chess.B8, chess.C8, chess.D8)),
]


def colour_of(square: int) -> int:
    return (chess.square_file(square) + chess.square_rank(square)) % 2


def rebirth_square(piece: chess.Piece, capture: int, mirror: bool = False) -> int:
    """Where `piece`, taken (Circe) or taking (AntiCirce) on `capture`, is
    reborn: a pawn on its own second rank on the capture's file; a piece
    with two start cells on the one of the capture cell's colour; a queen
    or king on its start cell.  With `mirror` (Mirror Circe), the start
    cells are those of the other side's pieces of its kind."""
    array_side = piece.color != mirror
    cells = list(ARRAY[(piece.piece_type, array_side)])
    if piece.piece_type == chess.PAWN:
        return chess.square(chess.square_file(capture), 1 if array_side else 6)
    if len(cells) == 1:
        return cells[0]
    return next(c for c in cells if colour_of(c) == colour_of(capture))


@dataclass
class State:
    board: chess.Board
    unmoved: set[int]   # squares whose pieces have not moved


def initial_state(fen: str = chess.STARTING_FEN) -> State:
    """The state of a position string: a piece on one of its start cells
    has not moved, unless it is a king or rook whose castling rights the
    string withdraws (a king keeps its status with one right left)."""
    board = chess.Board(fen)
    unmoved = {square for square, piece in board.piece_map().items()
               if square in ARRAY[(piece.piece_type, piece.color)]}
    for king in (chess.E1, chess.E8):
        rooks = [rook for k, _, rook, _, _ in CASTLINGS if k == king]
        granted = [rook for rook in rooks if board.castling_rights & chess.BB_SQUARES[rook]]
        unmoved -= {rook for rook in rooks if rook not in granted}
        if not granted:
            unmoved.discard(king)
    return State(board, unmoved)


def anticirce_attacked(board: chess.Board, square: int, by: chess.Color) -> bool:
    """Whether a piece of `by` could take on `square` under AntiCirce: its
    rebirth cell (as whatever it promotes to there) is free after the
    capture, or is the cell it takes from or on."""
    for attacker in board.attackers(by, square):
        piece = board.piece_at(attacker)
        assert piece is not None
        forms = [piece]
        if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
            forms = [chess.Piece(t, by) for t in (chess.QUEEN, chess.ROOK, chess.BISHOP,
                                                   chess.KNIGHT)]
        for form in forms:
            cell = rebirth_square(form, square)
            if cell in (attacker, square) or board.piece_at(cell) is None:
                return True
    return False


def attacked(game: str, board: chess.Board, square: int, by: chess.Color) -> bool:
    if game == "anticirce":
        return anticirce_attacked(board, square, by)
    return bool(board.attackers(by, square))


def castlings(game: str, state: State) -> list[chess.Move]:
    board, us = state.board, state.board.turn
    moves = []
    for king, king_to, rook, _, between in CASTLINGS:
        if (king == chess.E1) != us or not {king, rook} <= state.unmoved:
            continue
        if board.piece_at(king) != chess.Piece(chess.KING, us) \
                or board.piece_at(rook) != chess.Piece(chess.ROOK, us):
            continue
        if any(board.piece_at(c) for c in between):
            continue
        path = range(min(king, king_to), max(king, king_to) + 1)
        if any(attacked(game, board, c, not us) for c in path):
            continue
        moves.append(chess.Move(king, king_to))
    return moves


def play(game: str, state: State, move: chess.Move) -> State | None:
    """The state after `move` under the game's rules, or None when the
    rules forbid it (its rebirth cell taken, its own king left in check)."""
    before = state.board
    us = before.turn
    mover = before.piece_at(move.from_square)
    assert mover is not None
    capture = before.is_capture(move)
    castling = before.is_castling(move)
    victim_square = move.to_square
    if before.is_en_passant(move):
        victim_square = move.to_square + (-8 if us else 8)
    victim = before.piece_at(victim_square)
    board = before.copy(stack=False)
    board.push(move)
    unmoved = state.unmoved - {move.from_square, move.to_square}
    if castling:
        rook_from = next(r for k, t, r, _, _ in CASTLINGS if (k, t) == (move.from_square,
                                                                       move.to_square))
        unmoved.discard(rook_from)
    at = move.to_square
    if capture and game == "rifle":
        board.remove_piece_at(move.to_square)
        board.set_piece_at(move.from_square, mover)
        at = move.from_square
        if move.from_square in state.unmoved:
            unmoved.add(move.from_square)
    if capture and game == "anticirce":
        piece = board.piece_at(move.to_square)
        assert piece is not None
        cell = rebirth_square(piece, move.to_square)
        if cell != move.to_square:
            if board.piece_at(cell) is not None:
                return None
            board.remove_piece_at(move.to_square)
            board.set_piece_at(cell, piece)
            at = cell
        if cell in ARRAY[(piece.piece_type, piece.color)]:
            unmoved.add(cell)
    if capture and game in ("circe", "mirrorcirce"):
        assert victim is not None
        cell = rebirth_square(victim, move.to_square, mirror=game == "mirrorcirce")
        if board.piece_at(cell) is None:
            board.set_piece_at(cell, victim)
            if cell in ARRAY[(victim.piece_type, victim.color)]:
                unmoved.add(cell)
    turns = (game == "andernach" and capture) or (
        game == "antiandernach" and not capture and not castling)
    piece = board.piece_at(at)
    assert piece is not None
    if turns and piece.piece_type != chess.KING:
        turned = chess.Piece(piece.piece_type, not piece.color)
        board.set_piece_at(at, turned)
        board.ep_square = None
        if at in ARRAY[(turned.piece_type, turned.color)]:
            unmoved.add(at)
    king = board.king(us)
    if king is None or attacked(game, board, king, not us):
        return None
    return State(board, unmoved)


def legal(game: str, state: State) -> dict[str, State]:
    """The legal moves (UCI, as variantkit writes them) and their states."""
    board = state.board.copy(stack=False)
    board.castling_rights = 0   # castling is generated here, by the game's check rule
    out: dict[str, State] = {}
    for move in [*board.generate_pseudo_legal_moves(), *castlings(game, state)]:
        if game == "rifle" and move.promotion and board.is_capture(move):
            if move.promotion != chess.QUEEN:
                continue
            move = chess.Move(move.from_square, move.to_square)   # the pawn shoots, stays
            after = play(game, state, chess.Move(move.from_square, move.to_square,
                                                 chess.QUEEN))
        else:
            after = play(game, state, move)
        if after is not None:
            out[move.uci()] = after
    return out


GAMES = ["rifle", "andernach", "antiandernach", "circe", "mirrorcirce", "anticirce"]
# Games of this family written here rather than bundled: the text of each.
UNBUNDLED = {
    "mirrorcirce": "variantkit: 1\nname: mirrorcirce\ninherits: circe\n"
                   "capture-effects: {rebirth-array: opposite}\n",
}


def load(game: str) -> variantkit.Variant:
    return variantkit.load_text(UNBUNDLED[game]) if game in UNBUNDLED else variantkit.load(game)


@pytest.mark.parametrize("game", GAMES)
def test_perft_from_the_start(game: str) -> None:
    ours = load(game).new_game()
    moves = partial(legal, game)
    for depth in (1, 2, 3):
        assert perft(ours, depth) == reference_perft(moves, initial_state(), depth), depth


@pytest.mark.oracle
@pytest.mark.parametrize("game", GAMES)
def test_perft_4_from_the_start(game: str) -> None:
    """One ply deeper, where every game's captures have effects to show
    (chess has 197,281)."""
    ours = load(game).new_game()
    assert perft(ours, 4) == reference_perft(partial(legal, game), initial_state(), 4)


def play_random_game(game: str, seed: int, plies: int, fen: str = chess.STARTING_FEN) -> int:
    """Play one seeded random game in both from `fen`, comparing every
    position; return the plies played."""
    rng = random.Random(seed)
    ours = load(game).new_game(fen)
    state = initial_state(fen)
    for ply in range(plies):
        moves = legal(game, state)
        where = f"{game} seed {seed} ply {ply}: {ours.fen()}"
        assert ours.fen().split()[0] == state.board.board_fen(), where
        assert sorted(str(m) for m in ours.legal_moves()) == sorted(moves), where
        if not moves:
            return ply
        board = state.board
        played = [chess.Move.from_uci(m) for m in sorted(moves)]
        rare = [m for m in played if board.is_castling(m) or board.is_en_passant(m)
                or (m.promotion and board.is_capture(m))]
        captures = [m for m in played if board.is_capture(m)]
        pick = rng.random()
        move = rng.choice(rare if rare and pick < 0.7 else
                          captures if captures and pick < 0.85 else played).uci()
        if move not in moves:   # Rifle: a pawn's shot from its seventh rank does not promote
            move = move[:4]
        ours.push(move)
        state = moves[move]
    return plies


@pytest.mark.parametrize("game", GAMES)
def test_random_games(game: str) -> None:
    assert sum(play_random_game(game, seed, 80) for seed in range(4)) >= 200


@pytest.mark.oracle
@pytest.mark.parametrize("game", GAMES)
def test_more_random_games(game: str) -> None:
    assert sum(play_random_game(game, seed, 150) for seed in range(100, 130)) >= 2000


# Positions that reach the open cases of each game's rules page.
POSITIONS = {
    "rifle": [
        "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",            # a pawn shoots from its 7th rank
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",           # en passant, shot
        "4k3/8/8/8/8/8/7p/4K2R w K - 0 1",             # a rook shoots and may castle
        "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",             # a king shoots
    ],
    "andernach": [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",        # a rook turned on its start cell
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",            # a promotion by capture turns
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",           # en passant turns the pawn
    ],
    "antiandernach": [
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",   # castling turns nothing
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",              # a quiet promotion turns
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",           # a double step turns: no en passant
    ],
    "circe": [
        "r3k3/8/8/8/8/8/7r/4K2R w Kq - 0 1",           # a rook reborn on h8 may castle
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",           # en passant: reborn on d7
        "3qk3/4P3/8/8/8/8/8/4K3 w - - 0 1",            # rebirth cell taken by the capturer
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ],
    "mirrorcirce": [
        "r3k3/8/8/8/8/8/7r/4K2R w Kq - 0 1",           # a rook reborn on a1 has moved
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",           # en passant: reborn on d2
        "3rk3/8/8/8/8/8/8/3QK3 b - - 0 1",             # reborn on the cell the capturer left
        "3bk3/8/8/8/8/8/8/q2QK3 b - - 0 1",             # rebirth cell taken: gone
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ],
    "anticirce": [
        "r3kr2/8/8/8/8/8/8/4K2R w K - 0 1",            # castling past a rook that cannot take
        "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1",            # promotion by capture, then rebirth
        "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",             # a king takes and goes home
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    ],
}


@pytest.mark.pure_in_oracle   # on the compiled build in make test
@pytest.mark.parametrize(("game", "fen"), [(g, f) for g, fens in POSITIONS.items() for f in fens])
def test_open_cases(game: str, fen: str) -> None:
    for seed in range(3):
        play_random_game(game, seed, 30, fen)


BAD = [  # a declaration's mistake, and where and what its problem says
    ("capture-effects: {capturer: [stays, reborn], rebirth: {pawn: {pick: file}}}",
     4, "capture-effects-clash"),
    ("capture-effects: {captured: reborn, rebirth: {pawn: {pick: file}, dragon: {}}}",
     4, "unknown-piece"),
    ("capture-effects: {captured: reborn, rebirth: {pawn: {pick: rank}}}", 4, "schema"),
    ("capture-effects: {captured: reborn}", 4, "rebirth-ambiguous"),
    ("capture-effects: {capturer: turns, rebirth: {pawn: {pick: file}}}", 4, "rebirth-unused"),
    ("capture-effects: {capturer: turns, rebirth-array: opposite}", 4, "rebirth-unused"),
    ("capture-effects: {captured: reborn, rebirth-array: theirs}", 4, "schema"),
    ("capture-effects: {mover: shoots}", 4, "schema"),
]
BAD_IN_CRAZYHOUSE = ("capture-effects: {captured: reborn, rebirth: {pawn: {pick: file}}}", 4,
                     "rebirth-with-hands")


@pytest.mark.parametrize(("parent", "line", "row", "rule"),
                         [("chess", *bad) for bad in BAD] + [("crazyhouse", *BAD_IN_CRAZYHOUSE)])
def test_a_bad_declaration_is_a_located_problem(parent: str, line: str, row: int,
                                                rule: str) -> None:
    errors = errors_over(parent, line)
    assert [p.rule for p in errors] == [rule]
    assert errors[0].line == row, errors[0]


@pytest.mark.parametrize(("effects", "after"), [
    ("{capturer: [stays, turns]}", "4k3/8/8/8/4p3/8/8/4K3 b - - 0 1"),
    ("{capturer: turns, captured: reborn, rebirth: {pawn: {pick: file}}}",
     "4k3/3p4/8/3p4/8/8/8/4K3 b - - 0 1"),
    ("{capturer: reborn, captured: reborn, rebirth: {pawn: {pick: file}}}",
     "4k3/3p4/8/8/8/8/3P4/4K3 b - - 0 1"),
])
def test_effects_compose(effects: str, after: str) -> None:
    """Several effects on one capture, in their order: the capturing piece
    stays or is reborn, the captured piece is reborn, then the capturing
    piece turns."""
    text = f"variantkit: 1\nname: x\ninherits: chess\ncapture-effects: {effects}\n"
    game = variantkit.load_text(text).new_game("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    game.push("e4d5")
    assert game.fen() == after
    game.pop()
    assert game.fen() == "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
