"""Two-step moves (`two-step:` in a piece's `moves`): the piece steps once,
then once more from where the first step took it, and may take a piece
with each step: chu shogi's lion (two king steps: a double capture, a
capture on the way, a capture without moving, igui, and a move out and
back, jitto), its horned falcon and soaring eagle (two steps along one
line, or one step and back).

The first step goes in the primitive's directions to an empty cell or an
enemy piece, never onto a piece of the own side.  The second step (`then`)
goes on in the same direction (`onward`), comes back to the start cell
(`back`), or goes in any direction from the midway cell (`any`, which
comes back too), and lands on an empty cell or an enemy piece, or on the
start cell.  So a two-step move is, by what it meets on its way:

- midway cell empty, end elsewhere: a plain move to the end cell (a
  capture if an enemy piece stands there), as a leap would make it;
- midway cell empty, end back at the start: a pass, the piece staying put
  (jitto); possible only where one of its first steps reaches an empty cell;
- enemy on the midway cell: that piece is taken, then the piece lands on
  the end cell (taking what stands there too: a double capture) or comes
  back to its start cell (it takes without moving: igui).

Compiled per piece code and start cell into the midway cells and, for
each, the end cells: `TwoSteps.routes`, which the general position reads.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from variantkit.betza import MoveDeclaration, PieceDeclaration
from variantkit.board import Board
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

THEN_WORDS = ("any", "onward", "back")
# Keys that change what a capture does, which a two-step move's second
# capture is not made to follow (see docs/limits.md).
CLASHING_KEYS = ("walls", "explosion", "petrify", "capture-effects", "hands")


# Per start cell: (midway cell, mask of the end cells from it), in the
# order the directions are declared.
Routes = tuple[tuple[int, int], ...]


class TwoSteps(NamedTuple):
    """The two-step moves of every piece code: per code, per start cell, its
    routes (empty for a code that has none); [] when no piece has one."""

    routes: list[list[Routes]]
    codes: tuple[tuple[int, ...], tuple[int, ...]]   # per side, the codes with routes

    @property
    def any(self) -> bool:
        return bool(self.routes)


NO_TWO_STEPS = TwoSteps([], ((), ()))


def needs_general(two_steps: TwoSteps) -> bool:
    """Whether these rules need the general position (`core.general`):
    a two-step move is made there."""
    return two_steps.any


def is_two_step(move: MoveDeclaration) -> bool:
    """Whether a `moves` entry is a two-step move (the pieces' compiler leaves it out)."""
    return "two-step" in move


def compile_two_steps(sink: Sink, declared: dict[str, PieceDeclaration],
                      declared_keys: list[str], board: Board, pieces: PieceSet,
                      forwards: list[str | None], n_codes: int,
                      promoting: list[Any]) -> TwoSteps:
    """The two-step moves declared in the pieces' `moves` (`declared`);
    NO_TWO_STEPS without any.  The declaration's top-level keys
    (`declared_keys`) are checked against CLASHING_KEYS."""
    found: dict[int, list[tuple[int, MoveDeclaration]]] = {}
    for name, spec in declared.items():
        for m, move in enumerate(spec.get("moves", [])):
            if isinstance(move, dict) and is_two_step(move):
                other = sorted(set(move) - {"two-step", "then"})
                if other:
                    sink.report(("pieces", name, "moves", m, other[0]), f"`{other[0]}` does "
                                "not go with `two-step` (only `then` does)", "two-step-modifier",
                                key=True)
                    continue
                found.setdefault(pieces.by_name[name].index, []).append((m, move))
    if not found:
        return NO_TWO_STEPS
    clash = [key for key in CLASHING_KEYS if key in declared_keys]
    royal = [t.name for t in pieces.types if t.royal]
    routes: list[list[Routes]] = [[] for _ in range(n_codes)]
    codes: tuple[list[int], list[int]] = ([], [])
    for index, moves in found.items():
        name = pieces.types[index].name
        path = ("pieces", name, "moves", moves[0][0])
        if clash:
            sink.report(path, f"a two-step move does not go with `{clash[0]}`", "two-step-clash")
            continue
        if royal:
            sink.report(path, f"a two-step move is not seen by the check test: it needs a "
                        f"variant with no royal piece ('{royal[0]}' is royal; win by capture "
                        f"instead, with an `extinct` end condition)", "two-step-clash")
            continue
        if any(promoting[piece_code(index, side)] is not None for side in range(2)):
            sink.report(path, "a piece with two-step moves may not promote", "two-step-clash")
            continue
        for side in range(2):
            code = piece_code(index, side)
            routes[code] = [_routes(board, moves, forwards[side], cell)
                            for cell in range(board.size)]
            codes[side].append(code)
    if not codes[0]:
        return NO_TWO_STEPS
    return TwoSteps(routes, (tuple(codes[0]), tuple(codes[1])))


def _routes(board: Board, moves: list[tuple[int, MoveDeclaration]], forward: str | None,
            cell: int) -> Routes:
    """A piece's routes from `cell`: each midway cell and its end cells."""
    topo = board.topology
    ends: dict[int, int] = {}
    for _, move in moves:
        then = move.get("then", "any")
        words = set(then if isinstance(then, list) else [then])
        for direction in topo.directions(move["two-step"], forward):
            for ray in board.rays(cell, direction):
                mid = ray[0]
                mask = ends.get(mid, 0)
                if "back" in words or "any" in words:
                    mask |= 1 << cell
                if "onward" in words and len(ray) > 1:
                    mask |= 1 << ray[1]
                if "any" in words:
                    for second in topo.directions("all", forward):
                        for onward in board.rays(mid, second):
                            mask |= 1 << onward[0]
                ends[mid] = mask
    return tuple(ends.items())
