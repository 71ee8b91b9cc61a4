"""Perft of orthodox chess on the standard test positions (tests/data/chess_perft.epd).

Each line of the suite is `id <name>; epd <full FEN>; perft <depth> <count>; ...`.
A case runs every listed depth whose count is within NODE_BUDGET leaf nodes
(the engine counts roughly a million leaves a second), so the deep published
counts stay in the file as data without slowing the suite down.

On a mismatch the message shows the per-first-move counts (divide) against
python-chess, and then follows the first wrong branch down to the position
where the two move lists differ, with the missing and the extra moves.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

import variantkit

SUITE = Path(__file__).parent.parent / "data" / "chess_perft.epd"
NODE_BUDGET = 1_500_000


def parse_suite(path: Path) -> list[tuple[str, str, dict[int, int]]]:
    cases = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, fen, counts = None, None, {}
        for op in (part.strip() for part in line.split(";")):
            if not op:
                continue
            key, _, value = op.partition(" ")
            if key == "id":
                name = value.strip()
            elif key == "epd":
                fen = value.strip()
            elif key == "perft":
                depth, count = value.split()
                counts[int(depth)] = int(count)
            else:
                raise ValueError(f"unknown operation {key!r} in {line!r}")
        assert name and fen and counts, f"incomplete suite line: {line!r}"
        cases.append((name, fen, counts))
    return cases


CASES = parse_suite(SUITE)
CHESS = variantkit.load("chess")


def chess_perft(board: chess.Board, depth: int) -> int:
    if depth < 1:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_perft(board, depth - 1)
        board.pop()
    return nodes


def engine_divide(fen: str, depth: int) -> dict[str, int]:
    game = CHESS.new_game(fen=fen)
    result = {}
    for move in game.legal_moves():
        game.push(move)
        result[str(move)] = variantkit.perft(game, depth - 1)
        game.pop()
    return result


def chess_divide(fen: str, depth: int) -> dict[str, int]:
    board = chess.Board(fen)
    result = {}
    for move in board.legal_moves:
        board.push(move)
        result[move.uci()] = chess_perft(board, depth - 1)
        board.pop()
    return result


def divide_report(fen: str, depth: int) -> str:
    """A human-readable diff of the divides, then the first differing leaf position."""
    lines = [f"divide at depth {depth} of {fen}:"]
    ours, theirs = engine_divide(fen, depth), chess_divide(fen, depth)
    for move in sorted(set(ours) | set(theirs)):
        a, b = ours.get(move), theirs.get(move)
        mark = "" if a == b else "   <-- differs"
        lines.append(f"  {move}: engine {a} python-chess {b}{mark}")
    # Follow the first differing branch down to a move-list difference.
    path: list[str] = []
    while depth >= 1:
        if set(ours) != set(theirs):
            lines.append(f"position after {' '.join(path) or '(start)'}: {fen}")
            lines.append(f"  missing (python-chess only): {sorted(set(theirs) - set(ours))}")
            lines.append(f"  extra (engine only): {sorted(set(ours) - set(theirs))}")
            break
        wrong = [m for m in sorted(ours) if ours[m] != theirs[m]]
        if not wrong or depth == 1:
            break
        board = chess.Board(fen)
        board.push_uci(wrong[0])
        path.append(wrong[0])
        fen = board.fen()
        depth -= 1
        ours, theirs = engine_divide(fen, depth), chess_divide(fen, depth)
    return "\n".join(lines)


def test_suite_is_well_formed() -> None:
    names = [name for name, _, _ in CASES]
    assert len(names) == len(set(names)), "duplicate ids in the suite"
    assert len(CASES) >= 20
    for name, fen, counts in CASES:
        assert chess.Board(fen).is_valid(), name
        assert sorted(counts) == list(range(1, len(counts) + 1)), name
        # The cheap depths are checked against python-chess here too, so a
        # typo in the data file cannot hide an engine bug.
        board = chess.Board(fen)
        for depth in (1, 2):
            assert chess_perft(board, depth) == counts[depth], (name, depth)


@pytest.mark.parametrize(("name", "fen", "counts"), CASES, ids=[c[0] for c in CASES])
def test_perft(name: str, fen: str, counts: dict[int, int]) -> None:
    depths = [d for d, n in sorted(counts.items()) if n <= NODE_BUDGET]
    assert depths, f"{name}: no depth within the node budget"
    game = CHESS.new_game(fen=fen)
    for depth in depths:
        got = variantkit.perft(game, depth)
        if got != counts[depth]:
            pytest.fail(f"{name}: perft {depth} = {got}, expected {counts[depth]}\n"
                        + divide_report(fen, depth))
    # perft must leave the game as it found it
    assert game.fen() == CHESS.new_game(fen=fen).fen()


def test_divide_report_finds_a_difference() -> None:
    """The failure helper itself: on a position where both agree, it reports no
    difference; the comparison lines name every first move."""
    fen = CASES[0][1]
    report = divide_report(fen, 2)
    assert "differs" not in report
    assert report.count("engine 20 python-chess 20") == 20
