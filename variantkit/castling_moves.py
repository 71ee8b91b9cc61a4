"""Castling moves compiled from the board's lines: which cells must be
empty and which the king may not be attacked on follow from the lines
between king and rook, so castling works on any board."""

from __future__ import annotations

from dataclasses import dataclass, field

from variantkit.board import Board
from variantkit.errors import DeclarationError


@dataclass
class Castling:
    """One castling move, with the cells derived from its declaration."""

    right: str
    side: int
    king_from: int
    king_to: int
    rook_from: int
    rook_to: int
    king_code: int
    rook_code: int
    need: int    # cells whose pieces must not have moved
    empty: int   # cells that must be empty
    safe: list[int] = field(default_factory=list)  # cells the king may not be attacked on
    # Written as the king moving onto its rook's cell (`d1f1`), not to its
    # own landing cell: a king moving one cell would read as its step.
    onto_rook: bool = False
    # The rook cells of the rights this castling takes away (`cancels`):
    # castling clears their unmoved marks, as a rook's move would.
    cancels: int = 0

    def in_place(self, unmoved: int, cells: list[int]) -> bool:
        """Whether king and rook stand on their cells (`cells`, a position's
        piece codes), not moved yet (`unmoved`): the right still holds (the
        other conditions are checked when castling)."""
        return unmoved & self.need == self.need \
            and cells[self.king_from] == self.king_code \
            and cells[self.rook_from] == self.rook_code


def by_side(castlings: list[Castling]) -> list[list[tuple[int, Castling]]]:
    """Each side's castling moves with their indices."""
    return [[(i, c) for i, c in enumerate(castlings) if c.side == s] for s in range(2)]


def derive_castling(board: Board, right: str, king: tuple[int, int], rook: tuple[int, int],
                    king_code: int, rook_code: int, royal: bool,
                    onto_rook: bool = False) -> Castling:
    """A castling move from its four cells: the cells to keep empty and the
    cells the king may not be attacked on follow from the lines between them
    (only a royal king must not castle out of, through or into attack)."""
    (k0, k1), (r0, r1) = king, rook
    home = set(segment(board, k0, r0, k1))
    landing = [project(board, c, k1) for c in (k0, r0)] + [k1, r1]
    span = set()
    for a in landing:
        for b in landing:
            span |= set(segment(board, a, b, k1))
    empty = (home | span) - {k0, r0}
    safe = [k0] + [c for c in segment(board, project(board, k0, k1), k1, k1) if c != k0] \
        if royal else []
    return Castling(right=right, side=king_code & 1, king_from=k0, king_to=k1,
                    rook_from=r0, rook_to=r1, king_code=king_code, rook_code=rook_code,
                    need=(1 << k0) | (1 << r0), empty=board.mask(empty), safe=safe,
                    onto_rook=onto_rook)


def segment(board: Board, a: int, b: int, towards: int) -> list[int]:
    """The cells of the shortest line of the board from `a` to `b`, both
    included: the topology's own lines, so it works on any board.  Where
    two lines are as short (both ways round a cylinder), the one through
    `towards` (the king's destination) is taken."""
    if a == b:
        return [a]
    topology = board.topology
    paths = [cells[:cells.index(b) + 1] for d in topology.directions("all", None)
             for cells in topology.rays(a, d) if b in cells]
    if not paths:
        raise DeclarationError(
            f"{board.names[a]} and {board.names[b]} are not on one straight line",
            "castling-line")
    return [a, *min(paths, key=lambda path: (len(path), towards not in path))]


def project(board: Board, cell: int, onto: int) -> int:
    """`cell` moved to the plane of `onto` (the same cell on flat boards)."""
    here, there = board.topology.plane_of(cell), board.topology.plane_of(onto)
    if here is None or there is None:
        return cell
    moved = board.topology.shift_plane(cell, there - here)
    assert moved is not None  # every plane has the same cells
    return moved
