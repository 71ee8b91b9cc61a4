"""First moves: the rule that a piece's first move must change plane
(`first-move:`), and the pieces whose right to their initial moves the
position string writes by file (`position-string: initial-rights`)."""

from __future__ import annotations

from typing import Literal, NamedTuple, Required, TypedDict

from variantkit.board import Board, GridTopology
from variantkit.errors import DeclarationError
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

# `first-move:` as the schema admits it.
FirstMoveDeclaration = TypedDict("FirstMoveDeclaration", {
    "must-change": Required[Literal["plane"]],
    "except": list[Literal["castling", "check-evasion"]],
}, total=False)


class FirstMove(NamedTuple):
    """The first-move rule (`first-move: {must-change: plane}`), and the
    pieces whose initial moves the position string writes."""

    rule: bool              # every piece's first move is constrained
    same_plane: list[int]   # per cell, the cells of its plane (none without the rule)
    castling: bool          # a castling is excepted
    evasion: bool           # a move out of check is excepted
    # The piece codes whose right to their initial moves the castling field
    # writes by file letter (`position-string: initial-rights`).
    initial_rights: list[int]

    def unmoved_codes(self, n_codes: int, initial: list[int]) -> list[int]:
        """The piece codes whose "not moved yet" status tells positions
        apart for repetition: those with initial moves (`initial`), or all
        under the first-move rule, which constrains every piece's first move."""
        return list(range(2, n_codes)) if self.rule else initial


def compile_first_moves(sink: Sink, spec: FirstMoveDeclaration | None,
                        initial_rights: list[str], board: Board,
                        pieces: PieceSet) -> FirstMove:
    """`first-move:` (`spec`) and `position-string: initial-rights` (the
    names of the pieces it lists)."""
    exceptions: set[str] = set(spec.get("except", [])) if spec else set()
    same_plane = sink.located(("first-move",), lambda: _planes(spec, board)) or []
    rights = compile_initial_rights(sink, initial_rights, board, pieces)
    return FirstMove(spec is not None, same_plane, "castling" in exceptions,
                     "check-evasion" in exceptions, rights)


def _planes(spec: FirstMoveDeclaration | None, board: Board) -> list[int]:
    if spec is None:
        return []
    plane_of = [board.topology.plane_of(cell) for cell in range(board.size)]
    if spec.get("must-change") != "plane" or None in plane_of:
        raise DeclarationError("first-move: must-change: plane needs a board with planes",
                               "first-move-board")
    by_plane: dict[int | None, int] = {}
    for cell, plane in enumerate(plane_of):
        by_plane[plane] = by_plane.get(plane, 0) | 1 << cell
    return [by_plane[p] for p in plane_of]


def compile_initial_rights(sink: Sink, names: list[str], board: Board,
                           pieces: PieceSet) -> list[int]:
    """The piece codes whose right to their initial moves the castling
    field writes by file letter."""
    if names and not isinstance(board.topology, GridTopology):
        sink.report(("position-string", "initial-rights"), "initial-rights needs a grid board: "
                 "rights are written by file", "initial-rights-board")
        return []
    kinds = sink.kinds(pieces, ("position-string", "initial-rights"), names)
    return [piece_code(kind, side) for kind in kinds for side in range(2)]
