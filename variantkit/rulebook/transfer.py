"""Layered boards with transfer (`transfer:`), as in Alice chess: a piece
moves on the layer (plane) it stands on, as if the other layers were not
there, and then crosses to the same file and rank of the next layer of a
declared cycle; that cell must be empty.  A castling moves king and rook
so, each crossing.  Compiled into one table, cell -> the cell it crosses
to (-1 for a cell of a plane outside the cycle, whose pieces stay)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple, Required, TypedDict

from variantkit.board import Board
from variantkit.rulebook.sink import Sink

# `transfer:` as the schema admits it (its keys are not all names, hence
# the functional form).
TransferDeclaration = TypedDict("TransferDeclaration", {
    "layers": Required[list[str]],
    "royal-move": Literal["legal-on-layer", "judged-after-crossing"],
}, total=False)


class Transfer(NamedTuple):
    """The crossing rule the general position plays."""

    # Per cell, the cell a piece that has just moved there crosses to (-1:
    # it stays); [] when no piece crosses.
    cross: list[int]
    # A royal piece's move must also leave it unattacked on the layer it is
    # played on, before it crosses (`royal-move: legal-on-layer`).
    royal_on_layer: bool

    @property
    def any(self) -> bool:
        return bool(self.cross)


NO_TRANSFER = Transfer([], False)


def needs_general(transfer: Transfer) -> bool:
    """Whether this rule needs the general position (`core.general`): the
    pinned-piece tests of the chess-like one know nothing of crossing."""
    return transfer.any


# The keys whose moves change the board after the move in ways a crossing
# would have to be ordered with; not played together with `transfer:`.
CLASHING_KEYS = ("capture-effects", "walls")


def compile_transfer(sink: Sink, spec: TransferDeclaration | None, board: Board,
                     declared_keys: list[str]) -> Transfer:
    """The `transfer:` section as a record; NO_TRANSFER without one.  The
    layers are planes of a `grid` board with `planes`, each named once, at
    least two: a piece on the last one crosses to the first.  The other
    top-level keys of the declaration (`declared_keys`) are checked
    against CLASHING_KEYS."""
    if spec is None:
        return NO_TRANSFER
    for key in CLASHING_KEYS:
        if key in declared_keys:
            sink.report(("transfer",), f"`transfer:` is not played together with `{key}:`",
                        "transfer-clash", key=True)
    layers = spec["layers"]
    numbers: list[int] = []
    for i, name in enumerate(layers):
        cells = sink.located(("transfer", "layers", i), _plane_cells(board, name))
        plane = board.topology.plane_of(min(cells)) if cells else None
        if plane is None:
            if cells is not None:
                sink.report(("transfer", "layers", i), f"'{name}' is no plane: layers are "
                            "planes of a grid with `planes`", "transfer-layer")
        elif plane in numbers:
            sink.report(("transfer", "layers", i), f"layer '{name}' is named twice",
                        "transfer-layer")
        else:
            numbers.append(plane)
    if len(numbers) != len(layers):
        return NO_TRANSFER
    if len(numbers) < 2:
        sink.report(("transfer", "layers"), "a piece crosses to another layer: name at "
                    "least two", "transfer-layer")
        return NO_TRANSFER
    following = {here: numbers[(i + 1) % len(numbers)] for i, here in enumerate(numbers)}
    cross = [-1] * board.size
    for cell in range(board.size):
        plane = board.topology.plane_of(cell)
        if plane is not None and plane in following:
            target = board.topology.shift_plane(cell, following[plane] - plane)
            cross[cell] = -1 if target is None else target
    return Transfer(cross, spec.get("royal-move", "legal-on-layer") == "legal-on-layer")


def _plane_cells(board: Board, name: str) -> Callable[[], set[int]]:
    """The look-up of the cells of plane `name`, for the sink to run."""
    return lambda: board.region_cells({"planes": [name]})
