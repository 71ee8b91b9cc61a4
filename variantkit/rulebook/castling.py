"""Castling (`castling:`, `free-castling:`): each declared castling move
checked against the board and the setup, then derived from the lines
between king and rook (`variantkit.castling_moves`)."""

from __future__ import annotations

from functools import partial
from typing import Literal, NamedTuple, Required, TypedDict

from variantkit.board import Board, GridTopology
from variantkit.castling_moves import Castling, by_side, derive_castling
from variantkit.errors import DeclarationError
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink


class CastlingDeclaration(TypedDict, total=False):
    """One entry of `castling:`, as the schema admits it."""

    right: Required[str]          # its letter in position strings
    king: Required[list[str]]     # [from, to]
    rook: Required[list[str]]     # [from, to]
    pieces: list[str]             # [king, rook] where the setup does not say
    written: Literal["king-to-cell", "king-onto-rook"]
    cancels: list[str]            # the rights it takes away


# The keys of the declaration this family reads.
CastlingKeys = TypedDict("CastlingKeys", {
    "castling": list[CastlingDeclaration],
    "free-castling": bool,
}, total=False)


class Castlings(NamedTuple):
    """The declared castling moves, derived."""

    castlings: list[Castling]
    # Castling from wherever king and rook start (Chess960): the declared
    # entries are the standard array's and say which way each right goes.
    free_castling: bool
    by_side: list[list[tuple[int, Castling]]]   # each side's castlings, with their indices

    @property
    def rights(self) -> frozenset[str]:
        """The letters of the castling rights."""
        return frozenset(c.right for c in self.castlings)


def compile_castling(sink: Sink, data: CastlingKeys, board: Board, pieces: PieceSet,
                     setup_cells: dict[int, int], royal_code: list[bool],
                     one_royal: bool) -> Castlings:
    """Each `castling:` entry whose king and rook the setup (or its
    `pieces`) provides; a bad entry is a problem at its place."""
    castlings = []
    declared: list[tuple[int, Castling]] = []
    for i, spec in enumerate(data.get("castling", [])):
        c = sink.located(("castling", i), partial(
            _castling, sink, board, pieces, setup_cells, royal_code, one_royal, i, spec))
        if c is not None:
            castlings.append(c)
            declared.append((i, c))
    free_castling = bool(data.get("free-castling", False))
    if free_castling and not isinstance(board.topology, GridTopology):
        sink.report(("free-castling",), "free-castling needs a grid board: rights are written "
                 "by file", "free-castling-board")
    _cancellations(sink, data.get("castling", []), declared, free_castling)
    return Castlings(castlings, free_castling, by_side(castlings))


def _cancellations(sink: Sink, specs: list[CastlingDeclaration],
                   declared: list[tuple[int, Castling]], free_castling: bool) -> None:
    """Each entry's `cancels`: the rook cells of the rights it takes away."""
    rights = {spec["right"] for spec in specs}
    for i, c in declared:
        for j, right in enumerate(specs[i].get("cancels", [])):
            where = ("castling", i, "cancels", j)
            if free_castling:
                # Its rooks start anywhere: a right is not tied to one cell.
                sink.report(where, "cancels: not with free-castling", "castling-cancels")
            elif right not in rights:
                sink.report(where, f"cancels: unknown castling right '{right}' (this variant "
                            f"has {''.join(sorted(rights))})", "castling-cancels")
            else:
                for _, other in declared:
                    if other.right == right:
                        c.cancels |= 1 << other.rook_from


def _castling(sink: Sink, board: Board, pieces: PieceSet, setup_cells: dict[int, int],
              royal_code: list[bool], one_royal: bool, index: int,
              spec: CastlingDeclaration) -> Castling | None:
    cells: list[int] = []
    movers: tuple[Literal["king", "rook"], ...] = ("king", "rook")
    for piece in movers:
        for j, name in enumerate(spec[piece]):
            cell = sink.located(("castling", index, piece, j), partial(board.cell, name))
            if cell is None:
                return None
            cells.append(cell)
    k0, k1, r0, r1 = cells
    if k0 in (r0, k1) or k1 == r1:
        raise DeclarationError(
            "castling: king and rook start on different cells, the king moves, and the "
            "two end on different cells", "castling-cells")
    if not setup_cells and "pieces" not in spec:
        return None  # the setup's own problem is reported already
    king_code, rook_code = setup_cells.get(k0), setup_cells.get(r0)
    if "pieces" in spec:
        kinds = sink.kinds(pieces, ("castling", index, "pieces"), spec["pieces"])
        if len(kinds) < 2:
            return None
        side = 0 if spec["right"].isupper() else 1
        king_code, rook_code = piece_code(kinds[0], side), piece_code(kinds[1], side)
    if king_code is None or (one_royal and not royal_code[king_code]):
        raise DeclarationError(
            f"castling: the setup has no royal piece on {spec['king'][0]}", "castling-setup")
    if rook_code is None or rook_code & 1 != king_code & 1:
        raise DeclarationError(
            f"castling: the setup has no piece of the king's side on {spec['rook'][0]}",
            "castling-setup")
    return derive_castling(board, spec["right"], (k0, k1), (r0, r1), king_code, rook_code,
                           royal=bool(royal_code[king_code]),
                           onto_rook=spec.get("written") == "king-onto-rook")
