"""Alice chess against a reference written here from its published rules
(docs/rules/alice.md), on python-chess: one python-chess board per layer
holding that layer's pieces alone, its pseudo-legal moves (castling as
python-chess judges it on board A), the crossing applied by hand, and each
move's legality judged by the rules page: the crossing cell empty, a
king's own move safe on the board it is played on, and the own king
unattacked on its board after the move.  En passant by hand too: after a
double step the passed cell, on the board the pawn crossed to, is the
target there if it is empty.

Compared: perft 1-3 from the start (4 under the `oracle` marker), and the
legal move sets, check and the boards along seeded random games, from the
start and from positions that reach each open case (castling, en passant,
promotion, checks across boards); the position strings round-trip.
Besides: Parton's published quick mate (and the engine finding a mate
there), the located problems of bad `transfer:` declarations, and a
three-board cycle."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import chess
import pytest
from declarations import errors_over
from references import PERFT_DEPTHS, RANDOM_GAMES, reference_perft

import variantkit
from variantkit.engine.search import Engine
from variantkit.errors import VariantError
from variantkit.game import perft

LAYERS = "AB"
CASTLINGS = [  # right, king from, king to, rook from, rook to
    ("K", chess.E1, chess.G1, chess.H1, chess.F1),
    ("Q", chess.E1, chess.C1, chess.A1, chess.D1),
    ("k", chess.E8, chess.G8, chess.H8, chess.F8),
    ("q", chess.E8, chess.C8, chess.A8, chess.D8),
]


@dataclass
class State:
    layers: list[dict[int, chess.Piece]]   # per board, square -> piece
    turn: chess.Color
    rights: set[str] = field(default_factory=set)
    en_passant: tuple[int, int] | None = None   # (board, square) of the target

    def placement(self) -> str:
        return "|".join(layer_board(self, i).board_fen() for i in range(len(LAYERS)))


def state_of(fen: str) -> State:
    """A state read from a position string as variantkit writes one: the
    boards' placements joined by `|`, A first; the en passant cell has its
    board letter."""
    placement, turn, rights, ep = fen.split()[:4]
    layers = [chess.Board(f"{part} w - - 0 1").piece_map() for part in placement.split("|")]
    target = None if ep == "-" else (LAYERS.index(ep[0]), chess.parse_square(ep[1:]))
    return State(layers, turn == "w", set(rights) - {"-"}, target)


def layer_board(state: State, layer: int) -> chess.Board:
    """One board's pieces alone as a python-chess board, with the castling
    rights (board A) and en passant target that apply there."""
    board = chess.Board(None)
    for square, piece in state.layers[layer].items():
        board.set_piece_at(square, piece)
    board.turn = state.turn
    if layer == 0:
        board.castling_rights = 0
        for right, _, _, rook, _ in CASTLINGS:
            if right in state.rights:
                board.castling_rights |= chess.BB_SQUARES[rook]
    if state.en_passant is not None and state.en_passant[0] == layer:
        board.ep_square = state.en_passant[1]
    return board


def king_attacked(state: State, side: chess.Color) -> bool:
    """Whether `side`'s king is attacked on the board it stands on."""
    for layer in range(len(LAYERS)):
        board = layer_board(state, layer)
        king = board.king(side)
        if king is not None:
            return board.is_attacked_by(not side, king)
    return False


def play(state: State, layer: int, board: chess.Board, move: chess.Move) -> State | None:
    """The state after `move`, played on `layer` (its python-chess board
    `board`), or None when Alice chess forbids it."""
    other = (layer + 1) % len(LAYERS)
    us = state.turn
    piece = board.piece_at(move.from_square)
    assert piece is not None
    there = state.layers[other]
    layers = [dict(squares) for squares in state.layers]
    here = layers[layer]
    rights = set(state.rights)
    en_passant = None
    if board.is_castling(move):
        _, _, king_to, rook, rook_to = next(c for c in CASTLINGS
                                            if (c[1], c[2]) == (move.from_square, move.to_square))
        if king_to in there or rook_to in there:
            return None
        del here[move.from_square], here[rook]
        layers[other][king_to] = piece
        layers[other][rook_to] = chess.Piece(chess.ROOK, us)
    else:
        if move.to_square in there:
            return None
        if piece.piece_type == chess.KING:   # legal on its own board first
            alone = board.copy(stack=False)
            alone.remove_piece_at(move.from_square)
            alone.set_piece_at(move.to_square, piece)
            if alone.is_attacked_by(not us, move.to_square):
                return None
        if board.is_en_passant(move):
            del here[move.to_square + (-8 if us else 8)]
        del here[move.from_square]
        here.pop(move.to_square, None)
        layers[other][move.to_square] = chess.Piece(move.promotion, us) if move.promotion \
            else piece
        if piece.piece_type == chess.PAWN and abs(move.to_square - move.from_square) == 16:
            passed = (move.from_square + move.to_square) // 2
            if passed not in layers[other]:
                en_passant = (other, passed)
    if layer == 0:   # a king or rook leaving its cell, or a rook taken there
        for right, king, _, rook, _ in CASTLINGS:
            if {move.from_square, move.to_square} & {king, rook}:
                rights.discard(right)
    after = State(layers, not us, rights, en_passant)
    return None if king_attacked(after, us) else after


def name(layer: int, move: chess.Move) -> str:
    """The move as variantkit writes it: both cells on the board it is played on."""
    mark = LAYERS[layer]
    promotion = chess.piece_symbol(move.promotion) if move.promotion else ""
    return f"{mark}{chess.square_name(move.from_square)}{mark}" \
        f"{chess.square_name(move.to_square)}{promotion}"


def legal(state: State) -> dict[str, State]:
    """The legal moves, written as variantkit writes them, and their states."""
    out: dict[str, State] = {}
    for layer in range(len(LAYERS)):
        board = layer_board(state, layer)
        for move in board.generate_pseudo_legal_moves():
            after = play(state, layer, board, move)
            if after is not None:
                out[name(layer, move)] = after
    return out


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0 1"


def test_the_setup() -> None:
    assert variantkit.load("alice").new_game().fen() == START


@pytest.mark.parametrize("depths", PERFT_DEPTHS)
def test_perft_from_the_start(depths: tuple[int, ...]) -> None:
    ours = variantkit.load("alice").new_game()
    for depth in depths:
        assert perft(ours, depth) == reference_perft(legal, state_of(START), depth), depth


def play_random_game(seed: int, plies: int, fen: str = START) -> int:
    """Play one seeded random game in both from `fen`, comparing every
    position (boards, legal moves, check, the position string read back);
    return the plies played."""
    rng = random.Random(seed)
    variant = variantkit.load("alice")
    ours = variant.new_game(fen)
    state = state_of(fen)
    for ply in range(plies):
        moves = legal(state)
        where = f"seed {seed} ply {ply}: {ours.fen()}"
        assert ours.fen().split()[0] == state.placement(), where
        assert sorted(str(m) for m in ours.legal_moves()) == sorted(moves), where
        assert ours.is_check() == king_attacked(state, state.turn), where
        again = variant.new_game(ours.fen())
        assert again.fen() == ours.fen(), where
        assert sorted(map(str, again.legal_moves())) == sorted(moves), where
        if not moves:
            return ply
        rare = [m for m in sorted(moves) if is_rare(state, m)]
        pick = rng.random()
        move = rng.choice(rare if rare and pick < 0.5 else sorted(moves))
        ours.push(move)
        state = moves[move]
    return plies


def is_rare(state: State, move: str) -> bool:
    """Whether a move is one the random games favour: a capture (en
    passant too), a promotion, a king's move (castling too)."""
    layer = LAYERS.index(move[0])
    frm, to = chess.parse_square(move[1:3]), chess.parse_square(move[4:6])
    piece = state.layers[layer][frm]
    return len(move) == 7 or to in state.layers[layer] or piece.piece_type == chess.KING \
        or (piece.piece_type == chess.PAWN and move[1] != move[4])


@pytest.mark.parametrize(("seeds", "plies", "least"), RANDOM_GAMES)
def test_random_games(seeds: range, plies: int, least: int) -> None:
    assert sum(play_random_game(seed, plies) for seed in seeds) >= least


# Positions that reach the open cases of docs/rules/alice.md.
POSITIONS = [
    # Castling: the transfer cells g1/f1 and c1/d1 of board B, one taken.
    "r3k2r/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/5n2 w KQkq - 0 1",
    # Castling past a cell attacked on board A, and an attacker on board B
    # that does not count there.
    "r3k2r/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8 w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/5q2/R3K2R|8/8/8/8/8/8/8/8 w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/5q2/8 w KQkq - 0 1",
    # En passant: black's double steps cross to board B beside a white pawn.
    "4k3/pppppppp/8/8/8/8/8/4K3|8/8/8/1P1P1P1P/8/8/8/8 b - - 0 1",
    # ... and one whose passed cell on board B is taken (no target).
    "4k3/pppppppp/8/8/8/8/8/4K3|8/8/2n5/1P1P1P1P/8/8/8/8 b - - 0 1",
    # Promotion on either board, by a move and a capture, then the crossing.
    "1n2k3/P7/8/8/8/8/8/4K3|8/1P6/8/8/8/8/8/8 w - - 0 1",
    "n3k3/1P6/8/8/8/8/8/4K3|n7/8/8/8/8/8/8/8 w - - 0 1",
    # Checks across boards: a rook on A gives no check to a king on B; a
    # king may not step to a cell attacked on its board before crossing.
    "4k3/8/8/8/8/8/8/R3K3|8/8/8/8/8/8/8/4r3 w - - 0 1",
    "4k3/8/8/8/8/8/3r4/4K3|8/8/8/8/8/8/8/8 w - - 0 1",
    # A check whose checker's own crossing cell is taken: still check.
    "4k3/8/8/8/8/8/8/r3K3|8/8/8/8/8/8/8/4N3 w - - 0 1",
]


@pytest.mark.pure_in_oracle   # on the compiled build in make test
@pytest.mark.parametrize("fen", POSITIONS)
def test_open_cases(fen: str) -> None:
    for seed in range(3):
        play_random_game(seed, 30, fen)


def moves_of(fen: str) -> set[str]:
    return {str(m) for m in variantkit.load("alice").new_game(fen).legal_moves()}


def test_castling_needs_both_transfer_cells_free() -> None:
    assert {"Ae1Ag1", "Ae1Ac1"} <= moves_of(POSITIONS[1])
    taken = moves_of(POSITIONS[0])   # a knight on Bf1: no short castling
    assert "Ae1Ac1" in taken and "Ae1Ag1" not in taken


def test_en_passant_on_the_board_crossed_to() -> None:
    game = variantkit.load("alice").new_game(POSITIONS[4])
    game.push("Ac7Ac5")
    assert game.fen().split()[3] == "Bc6"
    assert "Bb5Bc6" in {str(m) for m in game.legal_moves()}
    game.push("Bb5Bc6")
    # The pawn on Bc5 is taken; the capturer crosses to Ac6.
    assert game.fen().split()[0] == "4k3/pp1ppppp/2P5/8/8/8/8/4K3|8/8/8/3P1P1P/8/8/8/8"


def test_check_is_judged_on_the_kings_board() -> None:
    game = variantkit.load("alice").new_game(POSITIONS[8])
    assert not game.is_check()    # the rook on Be1 is on the other board
    checked = variantkit.load("alice").new_game(POSITIONS[10])
    assert checked.is_check()     # Ra1 attacks Ae1 though Be1 is taken
    # Next to the rook on Ad2 the king may not step to Ad1, Ae2 or Af2 on
    # board A, though it would land on an empty board B.
    steps = {m for m in moves_of(POSITIONS[9]) if m.startswith("Ae1")}
    assert steps == {"Ae1Ad2", "Ae1Af1"}
    # Judged only where it lands, it may.
    text = "variantkit: 1\nname: x\ninherits: alice\n" \
        "transfer: {layers: [A, B], royal-move: judged-after-crossing}\n"
    free = variantkit.load_text(text).new_game(POSITIONS[9])
    assert {str(m) for m in free.legal_moves() if str(m).startswith("Ae1")} == \
        {"Ae1Ad1", "Ae1Ad2", "Ae1Ae2", "Ae1Af1", "Ae1Af2"}


def test_every_legal_moves_san_reads_back() -> None:
    for fen in [START, *POSITIONS]:
        game = variantkit.load("alice").new_game(fen)
        for move in game.legal_moves():
            assert game.parse_san(game.san(move)) == move, (fen, game.san(move))


THREE = """variantkit: 1
name: alice3
inherits: alice
board:
  grid: {files: 8, ranks: 8, planes: 3, plane-names: [A, B, C]}
setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w KQkq - 0 1
transfer:
  layers: [A, B, C]
"""


def test_three_boards_cycle() -> None:
    game = variantkit.load_text(THREE).new_game()
    game.push("Ag1Af3")                  # A -> B
    game.push("Ae7Ae5")
    game.push("Bf3Bg5")                  # B -> C
    assert game.fen().split()[0].split("|")[2] == "8/8/8/6N1/8/8/8/8"
    game.push("Be5Be4")                  # black's pawn B -> C
    game.push("Cg5Ch3")                  # C -> A
    assert game.fen().split()[0].split("|")[0].endswith("/7N/PPPPPPPP/RNBQKB1R")


BAD = [  # a declaration's mistake, and where and what its problem says
    ("transfer: {layers: [A, C]}", 4, "unknown-cell"),
    ("transfer: {layers: [A, A]}", 4, "transfer-layer"),
    ("transfer: {layers: [A, B]}\ncapture-effects: {capturer: turns}", 4, "transfer-clash"),
    ("transfer: {layers: [A]}", 4, "schema"),
    ("transfer: {layers: [A, B], royal-move: free}", 4, "schema"),
]


@pytest.mark.parametrize(("line", "row", "rule"), BAD)
def test_a_bad_declaration_is_a_located_problem(line: str, row: int, rule: str) -> None:
    errors = errors_over("alice", line)
    assert [p.rule for p in errors] == [rule], errors
    assert errors[0].line == row, errors[0]


def test_transfer_needs_planes() -> None:
    text = "variantkit: 1\nname: x\ninherits: chess\ntransfer: {layers: [A, B]}\n"
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(text)
    assert [(p.rule, p.line) for p in caught.value.problems] == [("unknown-cell", 4)] * 2


def test_partons_quick_mate() -> None:
    """Parton's example, given by C. H. O. Alexander on the radio: 1.e4 d5
    2.Be2 dxe4 3.Bb5 mates.  The bishop returns to board A and checks along
    b5-e8; a knight or queen put between would cross to board B, and the
    king may not step to d7, attacked on its own board (under
    judged-after-crossing it could, and it is no mate)."""
    line = ["Ae2Ae4", "Ad7Ad5", "Af1Ae2", "Bd5Be4", "Be2Bb5"]
    game = variantkit.load("alice").new_game()
    for move in line:
        game.push(move)
    assert game.is_checkmate()
    text = "variantkit: 1\nname: x\ninherits: alice\n" \
        "transfer: {layers: [A, B], royal-move: judged-after-crossing}\n"
    free = variantkit.load_text(text).new_game()
    for move in line:
        free.push(move)
    assert free.is_check() and not free.is_checkmate()
    assert {str(m) for m in free.legal_moves()} == {"Ae8Ad7"}


def test_the_engine_finds_partons_mate() -> None:
    """The engine searches Alice chess as any game: after 1.e4 d5 2.Be2
    dxe4 it mates (Bb5 or another mate in one, if it finds one)."""
    game = variantkit.load("alice").new_game()
    for move in ["Ae2Ae4", "Ad7Ad5", "Af1Ae2", "Bd5Be4"]:
        game.push(move)
    game.push(Engine(game.variant).best_move(game, depth=2))
    assert game.is_checkmate()
