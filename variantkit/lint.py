"""The semantic checks that need the compiled board and pieces.

The schema checks a file's shape and the rule families report declarations
that cannot be built; these checks look at what was built and catch declarations
that compile but cannot mean what the author wanted: a board in pieces, an
adjacency that is not mutual, a piece that can never move, a region nobody
uses, a cell nothing can reach, a promoted form that would go to a hand
promoted.  Each check is a small function from a
compiled variant (`Checked`) to a list of `Problem`s located with
`variant.document.problem(...)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Literal, Protocol

from variantkit.betza import MoveDeclaration
from variantkit.errors import DeclarationError, Problem
from variantkit.loader import Document
from variantkit.pieces import CONVERT, PRIMITIVES, piece_code, reach, type_of
from variantkit.rulebook.promotion import promotion_rules
from variantkit.rules import Rules

# Direction families whose first step must be mutual: if one step of a
# family leads from A to B, one leads back from B to A.
STEP_FAMILIES = ("orthogonal", "diagonal", "vertical")
# Keys of a move whose value is a region reference (or one per side).
REGION_KEYS: tuple[Literal["jump", "from-region", "to-region", "within"], ...] = (
    "jump", "from-region", "to-region", "within")
SHOWN = 5  # cells named in a message before "..."


class Checked(Protocol):
    """What the checks look at: a compiled variant (`Variant`, from the
    stage after this one) with its declaration, its rules and the problems
    found so far."""

    @property
    def document(self) -> Document: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def problems(self) -> list[Problem]: ...


def board_connected(variant: Checked) -> list[Problem]:
    """Warn when some cells cannot be reached from others through adjacent
    cells: two boards in one is seldom meant (but a game may want it)."""
    import networkx as nx  # at load time, not on import

    board = variant.rules.board
    if board.size == 0 or nx.is_connected(board.graph):
        return []
    parts = sorted(nx.connected_components(board.graph), key=min)
    stranded = sorted(set().union(*parts[1:]))
    return [variant.document.problem(
        ("board",),
        f"the board falls apart into {len(parts)} groups of cells: "
        f"{_cells(variant, stranded)} cannot be reached from {board.names[min(parts[0])]}",
        "board-disconnected", severity="warning")]


def cells_reached(variant: Checked) -> list[Problem]:
    """Warn about cells that no piece can move to from any cell of the empty
    board (nor starts on): a link forgotten in a declared board, often."""
    if any(p.severity == "error" for p in variant.problems):
        return []  # the pieces are not all compiled: their reach would mislead
    rules = variant.rules
    reached = set(rules.setup.cells) | set(rules.board.cells_of(_dropped_on(variant)))
    for component in rules.pieces.components:
        if not component.flags.mode & CONVERT:  # a suborn moves nothing
            reached.update(c for side in component.rays for cell_rays in side
                           for cells, first in cell_rays for c in cells[first:])
    never = [c for c in range(variant.rules.board.size) if c not in reached]
    if not never:
        return []
    return [variant.document.problem(
        ("board",), f"no piece can ever stand on {_cells(variant, never)}: no move leads "
        "there and no piece starts there", "unreachable-cell", severity="warning")]


def adjacency_symmetric(variant: Checked) -> list[Problem]:
    """A single step of each direction family is mutual: a topology whose
    rays say A is next to B but not B next to A has a bug or a bad option."""
    board = variant.rules.board
    topology = board.topology
    problems = []
    for family in STEP_FAMILIES:
        try:
            directions = topology.directions(family, None)
        except DeclarationError:
            continue  # a family this topology does not have
        steps = {(cell, ray[0]) for cell in range(board.size)
                 for direction in directions for ray in topology.rays(cell, direction)}
        one_way = sorted((a, b) for a, b in steps if (b, a) not in steps)
        if one_way:
            a, b = one_way[0]
            problems.append(variant.document.problem(
                ("board",),
                f"{family} adjacency is not mutual: a step leads from {board.names[a]} to "
                f"{board.names[b]} but none back"
                + (f" ({len(one_way)} one-way steps in all)" if len(one_way) > 1 else ""),
                "asymmetric-adjacency"))
    return problems


def _dropped_on(variant: Checked) -> int:
    """The cells some piece may be dropped on (from a hand, or freely under
    `flips: {free-drops}`)."""
    cells = 0
    held, flips = variant.rules.hands, variant.rules.flips
    if held.drops:
        for codes in held.hand_codes:
            for code in codes:
                cells |= held.drop_regions[code]
    if flips is not None and flips.free[0]:
        cells |= held.all_cells
    return cells


def _dropped(variant: Checked) -> set[int]:
    """The piece types that may be dropped: such a piece has a use even
    where it never moves (reversi's discs)."""
    held, flips = variant.rules.hands, variant.rules.flips
    codes = [c for side in held.hand_codes for c in side] if held.drops else []
    if flips is not None:
        codes += flips.free[0]
    return {type_of(code) for code in codes}


def pieces_move(variant: Checked) -> list[Problem]:
    """Warn about a piece that cannot move from any cell of the empty board,
    for either side (a suborn or a hop counts as a move: it needs another
    piece), unless it may be dropped."""
    components = variant.rules.pieces.components
    broken = _broken(variant, ("pieces",))
    dropped = _dropped(variant)
    problems = []
    for kind in variant.rules.pieces.types:
        if kind.name in broken or kind.index in dropped:
            continue
        mine = [components[i] for i in kind.components]
        if any(c.flags.mode & CONVERT or c.flags.hop is not None for c in mine):
            continue
        routes = variant.rules.two_steps.routes
        if routes and any(routes[piece_code(kind.index, side)] for side in range(2)):
            continue   # its two-step moves go through empty cells too
        if not any(reach(table, 0) for c in mine for side in c.tables for table in side):
            problems.append(variant.document.problem(
                ("pieces", kind.name),
                f"piece '{kind.name}' cannot move from any cell of the empty board",
                "piece-never-moves", severity="warning"))
    return problems


def regions_used(variant: Checked) -> list[Problem]:
    """Warn about a declared region that nothing refers to (often a typo in
    the name of the region meant, or one left over).  Only the file's own
    regions: leaving a parent's region unused is no mistake of the child."""
    document = variant.document
    data = document.data
    used: set[str] = set()
    used.update(_names((data.get("numbered-setups") or {}).get("regions", {}).values()))
    for rule in promotion_rules(data.get("promotion")):
        for key in ("regions", "optional"):
            regions = rule.get(key)
            if isinstance(regions, dict):   # `optional` may be a word instead
                used.update(_names(regions.values()))
    for condition in (data.get("end") or {}).get("conditions", []):
        used.update(_names((condition.get("reached") or {}).values()))
        used.update(_names(ref for pair in (condition.get("connected") or {}).values()
                           for ref in pair))
    used.update(_names(_by_side((data.get("gating") or {}).get("regions"))))
    for spec in data["pieces"].values():
        for move in spec.get("moves", []):
            used.update(_move_regions(move))
        drops = spec.get("drops")
        if isinstance(drops, dict):
            used.update(_names(_by_side(drops.get("regions"))))
    skip = used | _broken(variant, ("board", "regions"))
    return [document.problem(
        ("board", "regions", name), f"region '{name}' is declared but never used",
        "unused-region", severity="warning", key=True)
        for name in data["board"].get("regions", {})
        if name not in skip and document.locate(("board", "regions", name))[0] == document.file]


def promoted_forms_demote(variant: Checked) -> list[Problem]:
    """Warn about a promoted form (a `+X` letter) that a capture puts into
    a hand as it is: without `demotes-to` a captured dragon joins the hand
    as `+R` and is dropped promoted, which the games with hands never
    want (shogi's go back as the piece they promoted from)."""
    if not variant.rules.hands.captures_to_hand:
        return []
    data = variant.document.data
    promoted_from = {to: name for rule in promotion_rules(data.get("promotion"))
                     for name, to in (rule.get("promotes-to") or {}).items()}
    problems = []
    for name, spec in data["pieces"].items():
        if not spec["letter"].startswith("+") or "demotes-to" in spec or spec.get("royal"):
            continue
        origin = promoted_from.get(name)
        hint = f"`demotes-to: {origin}`" if origin else "`demotes-to:` the piece it was"
        problems.append(variant.document.problem(
            ("pieces", name), f"piece '{name}' ({spec['letter']}) is a promoted form without "
            f"`demotes-to`: captured, it joins the hand as {spec['letter']} and is dropped "
            f"promoted; write {hint}", "promoted-in-hand", severity="warning", key=True))
    return problems


def modifiers_apply(variant: Checked) -> list[Problem]:
    """Every modifier and direction of a move has an effect where it stands.

    The compiler reads a modifier only where it means something, so a
    misplaced one (`range` on a `step`, a leap in space on a flat board)
    would be ignored in silence.  Each is reported at the modifier: an
    error when the author's intent is lost, a warning when the modifier only
    repeats what the move does anyway."""
    board = variant.rules.board
    flat = board.size > 0 and board.topology.plane_of(0) is None
    # A move that already has an error is not looked at again: one mistake,
    # one report (a polar leap [1, 2, 3] is a bad leap, not also a misplaced one).
    broken = {p.path[:4] for p in variant.problems
              if p.severity == "error" and p.path[:1] == ("pieces",) and len(p.path) >= 4}
    return [problem for name, spec in variant.document.data["pieces"].items()
            for index, move in enumerate(spec.get("moves", []))
            if ("pieces", name, "moves", index) not in broken
            for problem in _misplaced(variant, ("pieces", name, "moves", index), move, flat)]


def _misplaced(variant: Checked, path: tuple[str | int, ...], move: MoveDeclaration,
               flat: bool) -> Iterator[Problem]:
    """A problem for each modifier of `move` that has no effect."""
    document = variant.document
    kind = next((k for k in PRIMITIVES if k in move), None)
    if "range" in move and kind not in ("ride", "hop"):
        what = f"a {kind}" if kind else "a plane-shift alone"
        yield document.problem(
            (*path, "range"), f"range has no effect on {what}: it limits how far a ride or a "
            "hop goes", "modifier-no-effect", key=True)
    if "only" in move and kind == "suborn":
        yield document.problem(
            (*path, "only"), "only has no effect on a suborn, which neither moves nor captures",
            "modifier-no-effect", key=True)
    shift = move.get("plane-shift")
    if isinstance(shift, dict):
        if kind is None and shift.get("path", "line") != "line":
            yield document.problem(
                (*path, "plane-shift", "path"), f"path '{shift['path']}' has no effect on a "
                "plane-shift alone, which goes straight up or down its column",
                "modifier-no-effect", key=True)
        if move.get("only") == "move":
            yield document.problem(
                (*path, "only"), "only: move repeats what a plane-shift does anyway (it never "
                "captures)", "redundant-modifier", severity="warning", key=True)
    if not flat or kind not in ("step", "ride", "leap"):
        return
    spec = move[kind]
    if kind == "leap" and len(spec) == 3 and all(isinstance(x, int) for x in spec):
        yield document.problem(
            (*path, "leap"), f"leap: {spec} is a leap in space and this board has no planes: "
            "write a leap in the plane as [a, b]", "modifier-no-effect", key=True)
    elif _vertical_only(variant, spec, kind):
        yield document.problem(
            (*path, kind), f"this {kind} only changes plane, and this board has no planes",
            "modifier-no-effect", key=True)


def _vertical_only(variant: Checked, spec: Any, kind: str) -> bool:
    """Whether every direction or leap vector of `spec` changes plane (has a
    third coordinate that is not 0), so that it goes nowhere on a flat board."""
    if kind == "leap":
        return all(isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) for x in v)
                   and v[2] != 0 for v in spec)
    items = spec if isinstance(spec, list) and not (spec and isinstance(spec[0], int)) \
        else [spec]
    try:
        topology = variant.rules.board.topology
        directions = [d for item in items for d in topology.directions(item, None)]
    except DeclarationError:
        return False  # an unknown direction has its own error
    return bool(directions) and all(
        isinstance(d, tuple) and len(d) == 3 and d[2] != 0 for d in directions)


def _broken(variant: Checked, section: tuple[str, ...]) -> set[str | int]:
    """Names in `section` (pieces, regions) that already have an error: a
    warning about them too would only repeat it."""
    return {p.path[len(section)] for p in variant.problems
            if p.severity == "error" and p.path[:len(section)] == section
            and len(p.path) > len(section)}


def _move_regions(move: MoveDeclaration) -> Iterator[str]:
    """Region names a move refers to, `beside` included."""
    for key in REGION_KEYS:
        ref = move.get(key)
        yield from _names(ref.values() if isinstance(ref, dict) else [ref])
    if isinstance(move.get("beside"), dict):
        yield from _move_regions(move["beside"])


def _by_side(refs: Any) -> list[Any]:
    """The region references of a value written for both sides or per side."""
    if refs is None:
        return []
    return list(refs.values()) if isinstance(refs, dict) else [refs]


def _names(refs: Any) -> Iterator[str]:
    """The region names among region references (a list of cells names none)."""
    return (ref for ref in refs if isinstance(ref, str))


def _cells(variant: Checked, cells: list[int]) -> str:
    names = [variant.rules.board.names[c] for c in cells]
    return ", ".join(names[:SHOWN]) + (", ..." if len(names) > SHOWN else "")


CHECKS: tuple[Callable[[Checked], list[Problem]], ...] = (
    board_connected, adjacency_symmetric, pieces_move, regions_used, cells_reached,
    promoted_forms_demote, modifiers_apply)


def run_checks(variant: Checked) -> list[Problem]:
    """The problems every check finds, in the order of `CHECKS`."""
    return [problem for check in CHECKS for problem in check(variant)]
