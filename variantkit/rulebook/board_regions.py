"""The board of a declaration: built from `board:` with its regions, the
slots position strings write holes in, and a warning when cell names let
one move string read two ways."""

from __future__ import annotations

from functools import partial

from variantkit.board import Board, BoardDeclaration, GraphTopology, build_board
from variantkit.rulebook.sink import Sink


def compile_board(sink: Sink, spec: BoardDeclaration) -> Board:
    """The board with its declared regions; the topology's notes become warnings."""
    board = build_board(spec)
    for message, rule in board.notes:
        sink.report(("board",), message, rule, severity="warning")
    for name, region in spec.get("regions", {}).items():
        sink.located(("board", "regions", name), partial(board.add_regions, {name: region}))
    return board


def hole_slots(sink: Sink, board: Board, hole_mark: str | None) -> list[list[list[int]]] | None:
    """Holes written in position strings (`position-string: {holes: ...}`):
    the rows with a slot per column, -1 where there is no cell; None when
    holes are not written or the board has no gaps in its rows."""
    if hole_mark is None:
        return None
    slots = board.slot_rows()
    # Other boards have no gaps in their rows: the mark writes walls only.
    if slots is None and isinstance(board.topology, GraphTopology):
        sink.report(("position-string", "holes"), "holes are written by column: a graph "
                 "board's cells must all have whole-number positions", "holes-board")
    return slots


def warn_ambiguous_names(sink: Sink, board: Board, letters: list[str]) -> None:
    """Move strings are read as from-cell, to-cell, promotion letter: warn
    when the board's names allow two readings of one string.

    Two readings of one string either share the from-cell (then a cell's
    name is another's plus a promotion letter), or one from-cell `a` is a
    proper prefix of the other, `a + t`, and both the string's rest after
    `a` and its rest after `a + t` read as a to-cell and a letter.  So
    only the "rests" (name + letter) and the "tails" `t` are listed: time
    grows with the cells times the name length, not with the cells squared.
    """
    names = sorted(board.names)
    index = board.index
    suffixes = [""] + sorted({letter.lower()[0] for letter in letters})
    rests: dict[str, tuple[str, str]] = {}
    for b in names:
        for x in suffixes:
            other = rests.setdefault(b + x, (b, x))
            if other != (b, x):
                return _warn(sink, names[0] + b + x, (names[0], *other), (names[0], b, x))
    tails = {a[len(prefix):]: (prefix, a) for a in reversed(names)
             for prefix in (a[:k] for k in range(1, len(a))) if prefix in index}
    if not tails:
        return None
    for rest, (b, x) in rests.items():
        for k in range(1, len(rest)):
            tail, shorter = rest[:k], rest[k:]
            if tail in tails and shorter in rests:
                a, longer = tails[tail]
                return _warn(sink, a + rest, (a, b, x), (longer, *rests[shorter]))
    return None


def _warn(sink: Sink, text: str, one: tuple[str, str, str],
          other: tuple[str, str, str]) -> None:
    sink.report(("board",), f"move string '{text}' reads as {one[0]} to {one[1]} and as "
             f"{other[0]} to {other[1]}: rename cells so that move strings are unambiguous",
             "ambiguous-cell-names", severity="warning")
