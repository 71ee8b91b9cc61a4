"""Pieces that turn over (`flips:`): the lines or steps along which a piece
landing turns enemy pieces over to its side (reversi, ataxx; or none,
snort), the drops the rule allows, the cells that take the first drops and
the pieces dropped without a hand, compiled into one `FlipRule`."""

from __future__ import annotations

from functools import partial
from typing import Any, Literal, TypedDict

from variantkit.board import Board, DirectionsDeclaration, RegionRef
from variantkit.errors import DeclarationError
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink
from variantkit.tables import FlipRule

# `flips:` as the schema admits it (keys that are not names take the
# functional form).
FlipsDeclaration = TypedDict("FlipsDeclaration", {
    "kind": Literal["enclosed", "adjacent", "none"],
    "directions": DirectionsDeclaration,
    "drops": Literal["enclose", "touch-own", "apart", "any"],
    "drop-flips": Literal["always", "touch-own"],
    "walls-enclose": bool,
    "first-drops": RegionRef,
    "free-drops": list[str],
}, total=False)


def needs_general(flips: FlipRule | None) -> bool:
    """Whether this rule needs the general position (`core.general`)."""
    return flips is not None


def compile_flips(sink: Sink, spec: FlipsDeclaration | None, board: Board,
                  pieces: PieceSet, has_hands: bool) -> FlipRule | None:
    """The `flips:` section as a table; None when the variant has none.
    Pieces dropped without a hand (`free-drops`) exclude `hands`: a drop
    would not know which it takes from."""
    if spec is None:
        return None
    royal = [name for name, kind in pieces.by_name.items() if kind.royal]
    if royal:
        sink.report(("flips",), f"flips turn pieces over to the other side, which a royal "
                    f"piece may not change ('{royal[0]}' is royal)", "flips-royal", key=True)
    lines = sink.located(("flips", "directions"),
                         partial(_lines, board, spec.get("directions", "all")))
    if lines is None:
        return None
    first = 0
    if "first-drops" in spec:
        first = sink.located(("flips", "first-drops"),
                             partial(board.resolve_region, spec["first-drops"])) or 0
    free = sink.kinds(pieces, ("flips", "free-drops"), spec.get("free-drops", []))
    if free and has_hands:
        sink.report(("flips", "free-drops"), "free-drops are dropped without a hand, so a "
                    "variant with them declares no `hands`", "free-drops-with-hands", key=True)
    kind = spec.get("kind", "enclosed")
    return FlipRule(
        adjacent=kind == "adjacent",
        # `none` turns nothing over: no line to enclose along.
        lines=[()] * board.size if kind == "none" else lines,
        steps=[_first_cells(cell_lines) for cell_lines in lines],
        drops=spec.get("drops", "any"),
        first=first,
        free=(tuple(piece_code(kind, 0) for kind in free),
              tuple(piece_code(kind, 1) for kind in free)),
        drop_needs_own=spec.get("drop-flips", "always") == "touch-own",
        walls_enclose=spec.get("walls-enclose", False))


def _lines(board: Board, spec: Any) -> list[tuple[tuple[int, ...], ...]]:
    """Per cell, every line from it in the declared directions, as cell bits."""
    items = spec if isinstance(spec, list) else [spec]
    directions = [d for item in items for d in board.topology.directions(item, None)]
    if not directions:
        raise DeclarationError("flips need at least one direction", "bad-direction")
    return [tuple(tuple(1 << c for c in ray) for d in directions
                  for ray in board.rays(cell, d) if ray)
            for cell in range(board.size)]


def _first_cells(lines: tuple[tuple[int, ...], ...]) -> int:
    """The cells one step away along `lines`."""
    cells = 0
    for line in lines:
        cells |= line[0]
    return cells
