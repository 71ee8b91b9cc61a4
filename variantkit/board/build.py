"""From a `board:` declaration to a `Board`: picks the topology and builds it."""

from __future__ import annotations

from variantkit.board.base import (
    Board,
    BoardDeclaration,
    GridDeclaration,
    HexDeclaration,
    PolarDeclaration,
)
from variantkit.board.graph import GraphTopology, Source
from variantkit.board.grid import GridTopology
from variantkit.board.hex import HexTopology
from variantkit.board.polar import PolarTopology
from variantkit.errors import DeclarationError

TOPOLOGIES = ("grid", "polar", "hex", "graph")
# Generators a graph may start from (their lines become steps and turns).
SOURCES = ("grid", "hex", "polar")


def build_board(spec: BoardDeclaration) -> Board:
    """The board of a `board:` mapping, regions not yet added."""
    if "graph" in spec:
        graph = spec["graph"]
        source: Source | None = None
        if "from" in graph:
            start = graph["from"]
            kind = next((k for k in SOURCES if k in start), None)
            if kind is None:
                raise DeclarationError(
                    f"a graph starts from a {' or '.join(SOURCES)} board", "bad-board",
                    ("graph", "from"))
            source = _grid(start["grid"]) if kind == "grid" else \
                _hex(start["hex"], ("graph", "from", "hex")) if kind == "hex" \
                else _polar(start["polar"])
        return GraphTopology(graph, source).build()
    kind = next((k for k in TOPOLOGIES if k in spec), None)
    if kind is None:
        raise DeclarationError(
            f"the board needs a topology: {', '.join(TOPOLOGIES)}", "bad-board")
    return _generator(spec, kind).build()


def _grid(g: GridDeclaration) -> GridTopology:
    return GridTopology(g["files"], g["ranks"], g.get("planes", 1), g.get("plane-names"),
                        g.get("wrap", "none"))


def _generator(spec: BoardDeclaration, kind: str) -> GridTopology | PolarTopology | HexTopology:
    if kind == "grid":
        return _grid(spec["grid"])
    if kind == "polar":
        return _polar(spec["polar"])
    return _hex(spec["hex"], ("hex",))


def _hex(h: HexDeclaration, path: tuple[str, ...]) -> HexTopology:
    """A hex board; a bad value is reported under `path`, where it sits."""
    try:
        return HexTopology(h.get("side"), sides=h.get("sides"), files=_names(h.get("files")),
                           ranks=h.get("ranks", "file"))
    except DeclarationError as exc:
        raise DeclarationError(exc.message, exc.rule, path + exc.where) from None


def _names(declared: list[str] | str | None) -> list[str] | None:
    """Names as a list, or a string of one character each."""
    return list(declared) if isinstance(declared, str) else declared


def _polar(p: PolarDeclaration) -> PolarTopology:
    sectors = list(p["sectors"]) if isinstance(p["sectors"], str) else p["sectors"]
    through = p.get("through-centre", {})
    return PolarTopology(
        sectors, [str(r) for r in p["rings"]], p.get("centre"),
        p.get("cell-name", "{sector}{ring}"),
        through.get("orthogonal", "straight"),
        through.get("diagonal", "opposite-then-same-sense"))


__all__ = ["Source", "build_board"]
