"""A reference for the movement-condition games (Madrasi, Monochrome,
Bichrome, Patrol), written here from their published rules (docs/rules/)
on python-chess, independent of the compiler's tables: python-chess's
pseudo-legal moves (castling written here), each kept or dropped by the
condition written by hand, then legality by the condition's own check
rule (a royal piece is attacked only by an enemy piece that the
condition lets capture it).  Compared with variantkit: perft and the
legal move sets along seeded random games."""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

import variantkit
from variantkit.game import Game


@dataclass(frozen=True)
class Condition:
    """Which conditions a game plays."""

    paralysis: bool = False        # Madrasi: observed by an enemy piece of its kind
    royals_paralysed: bool = False  # Madrasi rex inclusive
    colour: str | None = None      # "same" (Monochrome) or "change" (Bichrome)
    patrol: bool = False           # a capture needs a friendly observer


# King from, king to, rook from, rook to, cells between, cell the king passes.
CASTLINGS = {
    chess.H1: (chess.E1, chess.G1, chess.H1, chess.F1, (chess.F1, chess.G1), chess.F1),
    chess.A1: (chess.E1, chess.C1, chess.A1, chess.D1, (chess.B1, chess.C1, chess.D1), chess.D1),
    chess.H8: (chess.E8, chess.G8, chess.H8, chess.F8, (chess.F8, chess.G8), chess.F8),
    chess.A8: (chess.E8, chess.C8, chess.A8, chess.D8, (chess.B8, chess.C8, chess.D8), chess.D8),
}


def colour_of(square: int) -> int:
    return (chess.square_file(square) + chess.square_rank(square)) % 2


def colour_allows(condition: Condition, frm: int, to: int) -> bool:
    if condition.colour is None:
        return True
    same = colour_of(frm) == colour_of(to)
    return same if condition.colour == "same" else not same


def double_stepped(board: chess.Board) -> int | None:
    """The pawn that has just made a double step, if any."""
    if board.ep_square is None:
        return None
    return board.ep_square + (8 if board.turn == chess.BLACK else -8)


def paralysed(condition: Condition, board: chess.Board, square: int) -> bool:
    """Whether the piece on `square` is observed by an enemy piece of its
    own kind (a paralysed one too); a pawn that has just made a double
    step also by an enemy pawn that could take it en passant."""
    piece = board.piece_at(square)
    if not condition.paralysis or piece is None or (
            piece.piece_type == chess.KING and not condition.royals_paralysed):
        return False
    if any(board.piece_type_at(a) == piece.piece_type
           for a in board.attackers(not piece.color, square)):
        return True
    return piece.piece_type == chess.PAWN and square == double_stepped(board) \
        and board.ep_square is not None \
        and any(board.piece_type_at(a) == chess.PAWN
                for a in board.attackers(not piece.color, board.ep_square))


def guarded(board: chess.Board, square: int) -> bool:
    """Whether a friendly piece observes the piece on `square`."""
    piece = board.piece_at(square)
    assert piece is not None
    return bool(board.attackers(piece.color, square))


def may_take(condition: Condition, board: chess.Board, frm: int, to: int) -> bool:
    """Whether the piece on `frm`, which attacks `to`, may capture there."""
    return colour_allows(condition, frm, to) and not paralysed(condition, board, frm) \
        and (not condition.patrol or guarded(board, frm))


def attacked(condition: Condition, board: chess.Board, square: int, by: chess.Color) -> bool:
    return any(may_take(condition, board, a, square) for a in board.attackers(by, square))


def in_check(condition: Condition, board: chess.Board, color: chess.Color) -> bool:
    king = board.king(color)
    return king is not None and attacked(condition, board, king, not color)


def castlings(condition: Condition, board: chess.Board) -> list[chess.Move]:
    """Castling: the right kept, the cells between empty, the king not in
    check and not passing an attacked cell (judged with the king lifted),
    neither king nor rook paralysed, both moves of the colour asked."""
    out = []
    us = board.turn
    for rook in chess.SquareSet(board.castling_rights & board.occupied_co[us]):
        king, king_to, _, rook_to, between, passed = CASTLINGS[rook]
        if any(board.piece_at(c) for c in between) or in_check(condition, board, us) \
                or paralysed(condition, board, king) or paralysed(condition, board, rook) \
                or not colour_allows(condition, king, king_to) \
                or not colour_allows(condition, rook, rook_to):
            continue
        lifted = board.copy(stack=False)
        lifted.remove_piece_at(king)
        if any(may_take(condition, board, a, passed) for a in lifted.attackers(not us, passed)):
            continue
        out.append(chess.Move(king, king_to))
    return out


def allowed(condition: Condition, board: chess.Board, move: chess.Move) -> bool:
    """Whether the condition allows a piece's move (not a castling)."""
    frm = move.from_square
    return not paralysed(condition, board, frm) \
        and colour_allows(condition, frm, move.to_square) \
        and not (condition.patrol and board.is_capture(move) and not guarded(board, frm))


def legal(condition: Condition, board: chess.Board) -> dict[str, chess.Board]:
    """The legal moves (UCI) and the board after each."""
    us = board.turn
    out: dict[str, chess.Board] = {}
    moves = [m for m in board.generate_pseudo_legal_moves() if not board.is_castling(m)]
    for move in moves + castlings(condition, board):
        if not board.is_castling(move) and not allowed(condition, board, move):
            continue
        after = board.copy(stack=False)
        after.push(move)
        if not in_check(condition, after, us):
            out[move.uci()] = after
    return out


def reference_perft(condition: Condition, board: chess.Board, depth: int) -> int:
    moves = legal(condition, board)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(condition, after, depth - 1) for after in moves.values())


def play_random_game(game: str, condition: Condition, seed: int, plies: int,
                     fen: str = chess.STARTING_FEN) -> int:
    """Play one seeded random game in both from `fen`, comparing the board
    and the legal move sets at every ply; return the plies played."""
    rng = random.Random(seed)
    ours: Game = variantkit.load(game).new_game(fen)
    board = chess.Board(fen)
    for ply in range(plies):
        moves = legal(condition, board)
        where = f"{game} seed {seed} ply {ply}: {ours.fen()}"
        assert ours.fen().split()[0] == board.board_fen(), where
        assert sorted(str(m) for m in ours.legal_moves()) == sorted(moves), where
        assert ours.is_check() == in_check(condition, board, board.turn), where
        if not moves:
            return ply
        played = [chess.Move.from_uci(m) for m in sorted(moves)]
        rare = [m for m in played if board.is_castling(m) or board.is_en_passant(m)
                or board.is_capture(m) or m.promotion or board.gives_check(m)]
        move = rng.choice(rare if rare and rng.random() < 0.6 else played).uci()
        ours.push(move)
        board = moves[move]
    return plies
