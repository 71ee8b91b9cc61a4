"""Pieces that change kind by moving (`changes:`): per piece, the piece it
becomes once it has made a move of its own (Chameleon chess's cycle
queen, knight, bishop, rook, queen), compiled into one `Changes` record:
per piece code, the code it becomes."""

from __future__ import annotations

from typing import NamedTuple, TypedDict

from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

# `changes:` as the schema admits it: piece name -> the piece it becomes.
ChangesDeclaration = TypedDict("ChangesDeclaration", {
    "after-move": dict[str, str],
}, total=False)


class Changes(NamedTuple):
    """The changes as the general position plays them."""

    # Per piece code: the code the piece becomes after a move of its own
    # (-1: it stays as it is); [] without changes.
    after_move: list[int]

    @property
    def any(self) -> bool:
        return bool(self.after_move)


NO_CHANGES = Changes([])


def needs_general(changes: Changes) -> bool:
    """Whether these rules need the general position (`core.general`)."""
    return changes.any


def compile_changes(sink: Sink, spec: ChangesDeclaration | None, pieces: PieceSet,
                    royal_code: list[bool]) -> Changes:
    """The `changes:` section as a record; NO_CHANGES without one.  A royal
    piece neither changes nor is changed into (`changes-royal`): a side
    would gain or lose its royal piece."""
    if spec is None or not spec.get("after-move"):
        return NO_CHANGES
    after_move = [-1] * len(royal_code)
    for name, becomes in spec["after-move"].items():
        path = ("changes", "after-move", name)
        kind, new = pieces.by_name.get(name), pieces.by_name.get(becomes)
        if kind is None or new is None:
            sink.report(path, f"unknown piece '{name if kind is None else becomes}'",
                        "unknown-piece", key=kind is None)
            continue
        if kind.royal or new.royal:
            sink.report(path, f"a royal piece neither changes nor is changed into "
                        f"('{name if kind.royal else becomes}' is royal)", "changes-royal",
                        key=kind.royal)
            continue
        for side in range(2):
            after_move[piece_code(kind.index, side)] = piece_code(new.index, side)
    return Changes(after_move)
