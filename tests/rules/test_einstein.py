"""Einstein chess against a reference written here from its published
rules (docs/rules/einstein.md), on python-chess: the orthodox pseudo-legal
moves of python-chess's board without promotions, en passant or castling;
the first-rank pawn's double and triple steps, en passant and castling
added by hand; each move made by hand, the piece that moved changed as the
rules say, legality judged by the orthodox check rule.

Compared: perft 1-3 from the start (4 under the `oracle` marker), and the
legal move sets and the board along seeded random games, from the start
and from positions that reach each open case of the rules page (more games
under `oracle`).  Besides: the position string of a triple step, with its
two en passant cells, reads back."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import chess
import pytest
from declarations import errors_over
from references import PERFT_DEPTHS, RANDOM_GAMES, reference_perft

import variantkit
from variantkit.game import perft

# The chain a piece climbs by capturing and descends by moving quietly.
STRONGER = {chess.PAWN: chess.KNIGHT, chess.KNIGHT: chess.BISHOP, chess.BISHOP: chess.ROOK,
            chess.ROOK: chess.QUEEN, chess.QUEEN: chess.QUEEN, chess.KING: chess.KING}
WEAKER = {chess.QUEEN: chess.ROOK, chess.ROOK: chess.BISHOP, chess.BISHOP: chess.KNIGHT,
          chess.KNIGHT: chess.PAWN, chess.PAWN: chess.PAWN, chess.KING: chess.KING}
CASTLINGS = {  # right: king from, king to, rook from, rook to, cells between
    "K": (chess.E1, chess.G1, chess.H1, chess.F1, (chess.F1, chess.G1)),
    "Q": (chess.E1, chess.C1, chess.A1, chess.D1, (chess.B1, chess.C1, chess.D1)),
    "k": (chess.E8, chess.G8, chess.H8, chess.F8, (chess.F8, chess.G8)),
    "q": (chess.E8, chess.C8, chess.A8, chess.D8, (chess.B8, chess.C8, chess.D8)),
}


@dataclass
class State:
    board: chess.Board                 # the pieces and the side to move
    rights: set[str]                   # castling rights left
    passed: set[int] = field(default_factory=set)   # cells the last pawn step passed over
    victim: int | None = None          # the pawn that passed them


def initial_state(fen: str = chess.STARTING_FEN) -> State:
    board = chess.Board(fen)
    rights = {r for r in CASTLINGS if r in fen.split()[2]}
    passed: set[int] = set()
    victim = None
    if board.ep_square is not None:   # one cell passed by a double step
        passed = {board.ep_square}
        victim = board.ep_square + (-8 if board.turn else 8)
    board.ep_square = None
    board.castling_rights = 0   # castling is generated here
    return State(board, rights, passed, victim)


def pawn_steps(board: chess.Board) -> list[chess.Move]:
    """A first-rank pawn's double and triple steps over empty cells."""
    us = board.turn
    step = 8 if us else -8
    moves = []
    for square in board.pieces(chess.PAWN, us):
        if chess.square_rank(square) != (0 if us else 7):
            continue
        for n in (1, 2, 3):
            if board.piece_at(square + n * step) is not None:
                break
            if n > 1:
                moves.append(chess.Move(square, square + n * step))
    return moves


def en_passant(state: State) -> list[chess.Move]:
    board = state.board
    us = board.turn
    return [chess.Move(frm, cell) for cell in sorted(state.passed)
            for frm in board.pieces(chess.PAWN, us)
            if chess.BB_PAWN_ATTACKS[us][frm] & chess.BB_SQUARES[cell]]


def castlings(state: State) -> list[chess.Move]:
    board, us = state.board, state.board.turn
    moves = []
    for right, (king, king_to, rook, _, between) in CASTLINGS.items():
        if right not in state.rights or right.isupper() != us:
            continue
        if board.piece_at(king) != chess.Piece(chess.KING, us) \
                or board.piece_at(rook) != chess.Piece(chess.ROOK, us):
            continue
        if any(board.piece_at(c) for c in between):
            continue
        path = range(min(king, king_to), max(king, king_to) + 1)
        if any(board.is_attacked_by(not us, c) for c in path):
            continue
        moves.append(chess.Move(king, king_to))
    return moves


def play(state: State, move: chess.Move, castling: bool, taking_en_passant: bool) -> State | None:
    """The state after `move`, or None when it leaves the mover's king attacked."""
    board = state.board.copy(stack=False)
    us = board.turn
    mover = board.piece_at(move.from_square)
    assert mover is not None
    capture = board.piece_at(move.to_square) is not None or taking_en_passant
    if taking_en_passant:
        assert state.victim is not None
        board.remove_piece_at(state.victim)
    board.remove_piece_at(move.from_square)
    rights = set(state.rights)
    if castling:   # the king's move: nothing changes type
        right = next(r for r, c in CASTLINGS.items() if c[:2] == (move.from_square,
                                                                 move.to_square))
        _, _, rook, rook_to, _ = CASTLINGS[right]
        board.remove_piece_at(rook)
        board.set_piece_at(rook_to, chess.Piece(chess.ROOK, us))
        become = mover.piece_type
    else:
        become = (STRONGER if capture else WEAKER)[mover.piece_type]
    board.set_piece_at(move.to_square, chess.Piece(become, us))
    for right, (king, _, rook, _, _) in CASTLINGS.items():
        if {king, rook} & {move.from_square, move.to_square}:
            rights.discard(right)
    board.turn = not us
    passed: set[int] = set()
    victim = None
    distance = abs(chess.square_rank(move.to_square) - chess.square_rank(move.from_square))
    if mover.piece_type == chess.PAWN and not capture and distance > 1:
        step = 8 if us else -8
        passed = set(range(move.from_square + step, move.to_square, step))
        victim = move.to_square
    king = board.king(us)
    if king is None or board.is_attacked_by(not us, king):
        return None
    return State(board, rights, passed, victim)


def legal(state: State) -> dict[str, State]:
    """The legal moves (UCI, as variantkit writes them) and their states."""
    board = state.board
    out: dict[str, State] = {}
    plain = {chess.Move(m.from_square, m.to_square)
             for m in board.generate_pseudo_legal_moves()}   # no promotions: the pawn stays
    tagged = [(m, False, False) for m in sorted(plain | set(pawn_steps(board)),
                                                key=chess.Move.uci)]
    tagged += [(m, True, False) for m in castlings(state)]
    tagged += [(m, False, True) for m in en_passant(state)]
    for move, castling, taking in tagged:
        after = play(state, move, castling, taking)
        if after is not None:
            out[move.uci()] = after
    return out


@pytest.mark.parametrize("depths", PERFT_DEPTHS)
def test_perft_from_the_start(depths: tuple[int, ...]) -> None:
    ours = variantkit.load("einstein").new_game()
    for depth in depths:
        assert perft(ours, depth) == reference_perft(legal, initial_state(), depth), depth


def is_rare(state: State, move: str) -> bool:
    """Whether `move` is one of the rules page's cases the random games
    should often play: en passant, castling, a move from or onto an edge
    rank (a first-rank pawn's steps, a pawn or knight reaching the edge)."""
    frm, to = chess.parse_square(move[:2]), chess.parse_square(move[2:4])
    kind = state.board.piece_type_at(frm)
    return to in state.passed or (kind == chess.KING and abs(frm - to) == 2) \
        or (kind in (chess.PAWN, chess.KNIGHT) and (move[1] in "18" or move[3] in "18"))


def play_random_game(seed: int, plies: int, fen: str = chess.STARTING_FEN) -> int:
    """Play one seeded random game in both from `fen`, comparing every
    position; return the plies played."""
    rng = random.Random(seed)
    ours = variantkit.load("einstein").new_game(fen)
    state = initial_state(fen)
    for ply in range(plies):
        moves = legal(state)
        where = f"einstein seed {seed} ply {ply}: {ours.fen()}"
        fields = ours.fen().split()
        assert fields[:3] == state.board.fen().split()[:2] + [
            "".join(r for r in "KQkq" if r in state.rights) or "-"], where
        # The en passant cell is written while some legal move takes there:
        # one of the cells the pawn passed.
        taking = {m for m in moves if chess.parse_square(m[2:4]) in state.passed
                  and m[0] != m[2]
                  and state.board.piece_type_at(chess.parse_square(m[:2])) == chess.PAWN}
        assert (fields[3] != "-") == bool(taking), where
        assert fields[3] == "-" or chess.parse_square(fields[3]) in state.passed, where
        assert sorted(str(m) for m in ours.legal_moves()) == sorted(moves), where
        if not moves or ours.outcome() is not None:
            return ply
        board = state.board
        played = sorted(moves)
        rare = [m for m in played if is_rare(state, m)]
        captures = [m for m in played if board.piece_at(chess.parse_square(m[2:4]))]
        pick = rng.random()
        move = rng.choice(rare if rare and pick < 0.7 else
                          captures if captures and pick < 0.85 else played)
        ours.push(move)
        state = moves[move]
    return plies


@pytest.mark.parametrize(("seeds", "plies", "least"), RANDOM_GAMES)
def test_random_games(seeds: range, plies: int, least: int) -> None:
    assert sum(play_random_game(seed, plies) for seed in seeds) >= least


# Positions that reach the open cases of the rules page.
POSITIONS = [
    "4k3/8/8/8/5p2/3p4/8/4P1K1 w - - 0 1",      # a triple step, en passant on either cell
    "4k3/8/8/8/1p6/8/2N5/6K1 w - - 0 1",        # a knight steps to its first rank: a pawn
    "6k1/2n5/8/1P6/8/8/8/4K3 b - - 0 1",        # the same for Black
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",         # to the last rank: a pawn, or by capture a knight
    "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",           # a pawn on its last rank is stuck
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",     # castling changes nothing
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",        # en passant: the pawn becomes a knight
    "3qk3/8/8/8/8/8/3Q4/4K3 w - - 0 1",         # a capturing queen stays a queen
]


@pytest.mark.pure_in_oracle   # on the compiled build in make test
@pytest.mark.parametrize("fen", POSITIONS)
def test_open_cases(fen: str) -> None:
    for seed in range(3):
        play_random_game(seed, 30, fen)


def test_a_triple_step_is_written_and_read_back() -> None:
    """Both cells a triple step passed are open to en passant, and the
    position string, naming one, reads back with both."""
    game = variantkit.load("einstein").new_game(POSITIONS[0])
    game.push("e1e4")
    moves = sorted(str(m) for m in game.legal_moves())
    assert {"d3e2", "f4e3"} <= set(moves)
    again = variantkit.load("einstein").new_game(game.fen())
    assert sorted(str(m) for m in again.legal_moves()) == moves
    again.push("d3e2")
    assert again.fen().split()[0] == "4k3/8/8/8/5p2/8/4n3/6K1"


def test_the_changes_are_by_the_rules() -> None:
    game = variantkit.load("einstein").new_game("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    game.push("a7b8")
    assert game.fen().split()[0] == "1N2k3/8/8/8/8/8/8/4K3"
    game.pop()
    game.push("a7a8")
    assert game.fen().split()[0] == "Pr2k3/8/8/8/8/8/8/4K3"


BAD = [  # a declaration's mistake, and what its problem says
    ("capture-effects: {becomes: {capturing: {pawn: dragon}}}", "unknown-piece"),
    ("capture-effects: {becomes: {moving: {king: queen}}}", "royal-becomes"),
    ("capture-effects: {becomes: {moving: {queen: king}}}", "royal-becomes"),
    ("capture-effects: {becomes: {quietly: {queen: rook}}}", "unknown-key"),
]


@pytest.mark.parametrize(("line", "rule"), BAD)
def test_a_bad_declaration_is_a_located_problem(line: str, rule: str) -> None:
    errors = errors_over("chess", line)
    assert [p.rule for p in errors] == [rule]
    assert errors[0].line == 4, errors[0]
