"""Orthodox chess against python-chess as the oracle.

At every position of seeded random games (and of a few hand-made lines that
reach repetitions, the fifty-move rule and dead material) the engine must
agree with python-chess on: the set of legal moves (UCI strings), the FEN
(python-chess's default, en passant cell only when an en passant capture is
legal), check, and the outcome: `outcome()` (mate, stalemate, dead material,
seventy-five moves, fivefold repetition), then the draws the side to move
may claim in the position itself (`is_fifty_moves()`, `is_repetition(3)`),
as Fairy-Stockfish and XBoard take a claim -- not python-chess's
`claim_draw=True`, which also takes a claim announced with the move that
would complete the count.  Every FEN also round-trips through
`new_game(fen=...)` with the same legal moves.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import chess
import pytest

import variantkit

CHESS = variantkit.load("chess")

REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient-material",
    chess.Termination.FIFTY_MOVES: "move-rule",
    chess.Termination.SEVENTYFIVE_MOVES: "move-rule",
    chess.Termination.THREEFOLD_REPETITION: "repetition",
    chess.Termination.FIVEFOLD_REPETITION: "repetition",
}


def oracle_outcome(board: chess.Board) -> tuple[str | None, str] | None:
    result = board.outcome()
    if result is None:
        if board.is_fifty_moves():
            return None, "move-rule"
        return (None, "repetition") if board.is_repetition(3) else None
    winner = None if result.winner is None else ("white" if result.winner else "black")
    return winner, REASONS[result.termination]


def engine_outcome(game: variantkit.Game) -> tuple[str | None, str] | None:
    result = game.outcome()
    return None if result is None else (result.winner, result.reason)


def compare(game: variantkit.Game, board: chess.Board, *, roundtrip: bool = True) -> tuple | None:
    """Assert that the engine and python-chess agree; return the outcome."""
    history = " ".join(m.uci() for m in board.move_stack) or "(start)"
    where = f"position {board.fen()} after {history}"
    ours = {str(m) for m in game.legal_moves()}
    theirs = {m.uci() for m in board.legal_moves}
    assert ours == theirs, (f"legal moves differ at {where}\n"
                            f"  missing: {sorted(theirs - ours)}\n  extra: {sorted(ours - theirs)}")
    assert len(game.legal_moves()) == len(ours), f"duplicate moves at {where}"
    assert game.fen() == board.fen(), f"fen differs at {where}: engine {game.fen()}"
    assert game.turn == ("white" if board.turn else "black"), where
    assert game.is_check() == board.is_check(), f"is_check differs at {where}"
    expected = oracle_outcome(board)
    got = engine_outcome(game)
    assert got == expected, f"outcome differs at {where}: engine {got}, python-chess {expected}"
    if roundtrip:
        again = CHESS.new_game(fen=game.fen())
        assert again.fen() == game.fen(), f"fen round trip changed {game.fen()} to {again.fen()}"
        assert {str(m) for m in again.legal_moves()} == ours, f"round trip changed moves at {where}"
    return expected


def is_interesting(board: chess.Board, move: chess.Move) -> bool:
    return bool(move.promotion) or board.is_capture(move) or board.is_castling(move) \
        or board.gives_check(move)


def play_random_game(seed: int, max_plies: int = 200,
                     kinds: Counter[str] | None = None) -> tuple[int, tuple | None]:
    rng = random.Random(seed)
    kinds = Counter() if kinds is None else kinds
    game, board = CHESS.new_game(), chess.Board()
    positions = 0
    # Each game gets its own taste for tactics so that the set of games covers
    # both long manoeuvring games and quick, sharp ones.
    bias = rng.choice((0.0, 0.3, 0.6, 0.9))
    for ply in range(max_plies):
        result = compare(game, board)
        positions += 1
        if ply % 4 == 0:
            # The same placement loaded with the half-move clock near the
            # fifty- and seventy-five-move limits exercises the claim rules.
            fields = board.fen().split()
            for clock in ("99", "149"):
                fen = " ".join(fields[:4] + [clock] + fields[5:])
                compare(CHESS.new_game(fen=fen), chess.Board(fen), roundtrip=False)
        if result is not None:
            return positions, result
        moves = sorted(board.legal_moves, key=chess.Move.uci)
        sharp = [m for m in moves if is_interesting(board, m)]
        rare = [m for m in moves if board.is_castling(m) or board.is_en_passant(m)]
        if rare and rng.random() < 0.7:
            move = rng.choice(rare)
        elif sharp and rng.random() < bias:
            move = rng.choice(sharp)
        else:
            move = rng.choice(moves)
        kinds["castling"] += board.is_castling(move)
        kinds["en passant"] += board.is_en_passant(move)
        kinds["promotion"] += bool(move.promotion)
        kinds["under-promotion"] += move.promotion not in (None, chess.QUEEN)
        kinds["check"] += board.gives_check(move)
        pushed = game.push(move.uci())
        assert str(pushed) == move.uci()
        board.push(move)
    return positions, None


def test_random_games_agree_with_python_chess() -> None:
    total = 0
    endings: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for seed in range(25):
        positions, result = play_random_game(seed, kinds=kinds)
        total += positions
        endings[result[1] if result else "unfinished"] += 1
    assert total >= 500, total
    # The games end in varied ways (a check that the sample is not degenerate).
    assert len(endings) >= 3, endings
    # ... and the special moves were all played along the way.
    assert all(kinds[k] > 0 for k in ("castling", "en passant", "promotion", "under-promotion",
                                      "check")), kinds


def play_line(fen: str | None, moves: list[str]) -> list[tuple | None]:
    """Play the UCI moves in both engines, comparing at every position."""
    game = CHESS.new_game(fen=fen) if fen else CHESS.new_game()
    board = chess.Board(fen) if fen else chess.Board()
    results = [compare(game, board)]
    for uci in moves:
        game.push(uci)
        board.push_uci(uci)
        results.append(compare(game, board))
    return results


KNIGHT_SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"]


def test_threefold_repetition_by_knight_shuffle() -> None:
    results = play_line(None, KNIGHT_SHUFFLE * 3)
    reasons = [r[1] if r else None for r in results]
    assert "repetition" in reasons
    # Claimed in the position itself: after 8 plies the start position
    # stands for the third time (not after 7, where a move would repeat it).
    assert reasons.index("repetition") == 8, reasons
    assert results[8] == (None, "repetition")


def test_repetition_needs_same_castling_rights() -> None:
    # The rooks leave and come back: the position looks the same but the
    # castling rights are gone, so it is not a repetition of the start.
    line = ["h2h4", "h7h5", "h1h2", "h8h7", "h2h1", "h7h8"] + KNIGHT_SHUFFLE * 2
    results = play_line(None, line)
    assert results[6] is None
    assert any(r == (None, "repetition") for r in results)


def test_repetition_with_en_passant_cell() -> None:
    # After e2e4 with a black pawn on d4 the en passant capture is legal, so
    # that position differs from the same placement later on.
    fen = "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    line = ["e2e4"] + ["g8f6", "g1f3", "f6g8", "f3g1"] * 3
    results = play_line(fen, line)
    assert any(r == (None, "repetition") for r in results)


def test_fifty_move_rule_from_clock_98() -> None:
    fen = "8/8/4k3/8/8/8/R7/4K3 w - - 98 80"
    results = play_line(fen, ["a2b2", "e6d6", "b2a2"])
    # at clock 98 and 99 nothing yet (a claim is the position's own); at 100 a draw
    assert results[0] is None
    assert results[1] is None
    assert results[2] == (None, "move-rule")


def test_fifty_move_rule_zeroing_moves_and_mate() -> None:
    # Clock 99, and the only moves are pawn moves (which reset the clock)
    # or king moves: no draw before the hundredth half-move is played.
    assert play_line("4k3/8/8/8/8/8/4P3/4K3 w - - 99 90", ["e2e4"]) == [None, None]
    assert play_line("4k3/8/8/8/8/8/4P3/4K3 w - - 99 90", ["e1d1"])[-1] == (None, "move-rule")
    # A capture on the 100th half-move resets the count: no draw afterwards.
    assert play_line("4k3/8/8/8/8/8/r7/R3K3 w - - 99 90", ["a1a2"]) == [None, None]
    # Mate delivered on the move that would complete the count is mate.
    results = play_line("7k/8/6K1/8/8/8/8/R7 w - - 99 100", ["a1a8"])
    assert results[-1] == ("white", "checkmate")


def test_seventy_five_and_fivefold() -> None:
    results = play_line("r3k3/8/8/8/8/8/8/R3K3 w - - 149 200", ["a1a2", "a8a7"])
    assert results[1] == (None, "move-rule")
    line = ["a1a2", "a8a7", "a2a1", "a7a8"] * 4
    results = play_line("r3k3/8/8/8/8/8/8/R3K3 w - - 10 60", line)
    assert results[-1] == (None, "repetition")


def test_fivefold_repetition_with_clock_over_100() -> None:
    # python-chess checks the automatic draws (75 moves, fivefold) before the
    # claimable ones, so a fivefold repetition at clock 100..149 is reported as
    # a repetition, not as the fifty-move rule.
    line = ["a1a2", "a8a7", "a2a1", "a7a8"] * 4
    results = play_line("r3k3/8/8/8/8/8/8/R3K3 w - - 90 60", line)
    assert results[-1] == (None, "repetition")


MATERIAL_FENS = [
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",            # K v K
    "8/8/4k3/8/8/4K3/8/5N2 w - - 0 1",          # KN v K
    "8/8/4k3/8/8/4K3/8/5B2 b - - 0 1",          # KB v K
    "8/8/4k3/8/8/4K3/8/4NN2 w - - 0 1",         # KNN v K: not dead
    "8/8/4k3/8/8/4K3/8/2B2B2 w - - 0 1",        # KBB same colour v K
    "8/8/4k3/8/8/4K3/8/2B1B3 w - - 0 1",        # KBB both colours: not dead
    "8/8/4kb2/8/8/4K3/8/2B5 w - - 0 1",         # KB v KB same colour
    "8/8/4k1b1/8/8/4K3/8/2B5 w - - 0 1",        # KB v KB opposite colours
    "8/8/4kn2/8/8/4K3/8/2B5 w - - 0 1",         # KB v KN
    "8/8/4kn2/8/8/4K3/8/2N5 w - - 0 1",         # KN v KN
    "8/8/4kq2/8/8/4K3/8/2N5 w - - 0 1",         # KN v KQ
    "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",          # KP v K
    "8/8/4k3/8/8/4K3/8/4R3 w - - 0 1",          # KR v K
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",           # stalemate
    "k7/8/1Q6/8/8/8/8/6K1 b - - 0 1",           # stalemate
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # fool's mate
    "6rk/6pp/8/8/8/8/8/R5K1 w - - 0 1",
    "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",         # smothered-ish check
    "6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",       # legal en passant kept
    "4k3/8/8/2p1P3/8/8/8/4K3 w - c6 0 2",      # ep cell given but no capture
    "4k3/8/8/K1pP3r/8/8/8/8 w - c6 0 2",       # ep capture illegal (pinned on rank)
    "4k3/8/8/8/8/8/8/R3K2R w K - 0 1",
]


@pytest.mark.parametrize("fen", MATERIAL_FENS)
def test_hand_made_positions(fen: str) -> None:
    game, board = CHESS.new_game(fen=fen), chess.Board(fen)
    compare(game, board)
    # and one ply further along every move
    for move in list(board.legal_moves):
        game.push(move.uci())
        board.push(move)
        compare(game, board, roundtrip=False)
        game.pop()
        board.pop()


def test_outcome_reasons_were_all_reached() -> None:
    reached = set()
    for fen in MATERIAL_FENS:
        r = oracle_outcome(chess.Board(fen))
        if r:
            reached.add(r[1])
    reached |= {r[1] for r in play_line(None, KNIGHT_SHUFFLE * 2) if r}
    reached |= {r[1] for r in play_line("8/8/4k3/8/8/8/R7/4K3 w - - 98 80", ["a2b2", "e6d6"])
                if r}
    assert reached == {"checkmate", "stalemate", "insufficient-material", "repetition",
                       "move-rule"}


SUITE = Path(__file__).parent.parent / "data" / "chess_perft.epd"


def suite_fens() -> list[str]:
    fens = []
    for line in SUITE.read_text(encoding="utf-8").splitlines():
        for op in line.split(";"):
            op = op.strip()
            if op.startswith("epd "):
                fens.append(op[4:].strip())
    return fens


def test_random_walks_from_perft_positions() -> None:
    rng = random.Random(2024)
    positions = 0
    for fen in suite_fens():
        for _ in range(3):
            game, board = CHESS.new_game(fen=fen), chess.Board(fen)
            for _ in range(30):
                if compare(game, board) is not None:
                    break
                positions += 1
                move = rng.choice(sorted(board.legal_moves, key=chess.Move.uci))
                game.push(move.uci())
                board.push(move)
    assert positions >= 500
