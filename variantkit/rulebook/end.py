"""How games end (`end:`): the results of checkmate and stalemate, the draw
rules, insufficient material, checkmate exceptions, the shuttle rule, draws
decided by points, the declared end conditions and counted endings, as one
`EndRules` record."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, Required, TypedDict

from variantkit.board import SIDE_NAMES, Board, RegionRef, SideRegions
from variantkit.errors import DeclarationError, YamlPath
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink
from variantkit.tables import (
    Counting,
    CountLimit,
    DrawPoints,
    EndCondition,
    MateException,
    MaterialPattern,
    Shuttle,
)

# `end:` as the schema admits it (keys that are not names take the
# functional form).
Result = Literal["win", "loss", "draw"]
# A result, or one decided by the pieces each side has.
Outcome = Literal["win", "loss", "draw", "fewer-pieces", "more-pieces"]

# An `insufficient-material` entry that is not a pattern string.
MaterialDeclaration = TypedDict("MaterialDeclaration", {
    "only": Required[list[str]],
    "one-colour": bool,
}, total=False)

# A `checkmate-exceptions` entry: `given-only-by` or `series-without`.
MateExceptionDeclaration = TypedDict("MateExceptionDeclaration", {
    "given-only-by": list[str],
    "series-without": list[str],
    "result": Required[Result],
}, total=False)


class ShuttleDeclaration(TypedDict):
    """`shuttle:`."""

    pieces: list[str]
    result: Result


class BonusDeclaration(TypedDict, total=False):
    """`draws-decided-by: {bonus: ...}`."""

    white: float
    black: float


class DrawPointsDeclaration(TypedDict, total=False):
    """`draws-decided-by:`."""

    points: Required[dict[str, float]]   # piece name -> its points
    bonus: BonusDeclaration


CountingBoardDeclaration = TypedDict("CountingBoardDeclaration", {
    "moves": Required[int],
    "most-pieces": int,
    "with-pawns": bool,
}, total=False)


class CountLimitDeclaration(TypedDict, total=False):
    """One entry of `counting: {bare: {limits: ...}}`."""

    pieces: dict[str, int]   # piece name -> how many at least
    moves: Required[int]


BareCountingDeclaration = TypedDict("BareCountingDeclaration", {
    "limits": Required[list[CountLimitDeclaration]],
    "start": Literal["pieces", "zero"],
    "last-pawn": bool,
}, total=False)


class CountingDeclaration(TypedDict, total=False):
    """`counting:`: `board` or `bare`, or both."""

    pawns: Required[list[str]]
    board: CountingBoardDeclaration
    bare: BareCountingDeclaration


class ConnectedDeclaration(TypedDict):
    """A `connected` condition's two regions per side."""

    white: list[RegionRef]
    black: list[RegionRef]


# One entry of `conditions:`: its kind is the one kind key it has.
EndConditionDeclaration = TypedDict("EndConditionDeclaration", {
    "checks": int,
    "extinct": Literal["all"] | list[str],
    "at-most": int,
    "opponent-at-least": int,
    "at-least": int,
    "when-full": bool,
    "in-a-row": int,
    "on-a-line": int,
    "in-a-square": int,
    "lines": list[str],
    "connected": ConnectedDeclaration,
    "reached": SideRegions,
    "pieces": list[str],
    "bare": Literal[True],
    "castled": list[str],
    "castling-lost": list[str],
    "result": Required[Result],
    "answer": Result,
    "grace": bool,
    "safe": bool,
    "reply": bool,
}, total=False)

EndDeclaration = TypedDict("EndDeclaration", {
    "checkmate": Result,
    "stalemate": Outcome,
    "board-full": Outcome,
    "repetition": int | None,
    "move-rule": int | None,
    "draw-timing": Literal["on-claim", "on-occurrence"],
    "insufficient-material": list[str | MaterialDeclaration],   # "KB v K", or by pieces
    "automatic-repetition": int | None,
    "automatic-move-rule": int | None,
    "double-pass": Outcome,
    "facing-pass": Result,
    "repetition-result": Result,
    "draws-go-to": Literal["white", "black"],
    "checkmate-exceptions": list[MateExceptionDeclaration],
    "draws-decided-by": DrawPointsDeclaration,
    "shuttle": ShuttleDeclaration,
    "perpetual-check": Literal["loss"],
    "counting": CountingDeclaration,
    "conditions": list[EndConditionDeclaration],
    "at-once": Result,
}, total=False)

# The condition kinds that name castling rights.
CASTLING_KINDS: tuple[Literal["castled", "castling-lost"], ...] = ("castled", "castling-lost")


@dataclass(frozen=True)
class EndRules:
    """How games end: the results of mate and stalemate, the draw rules and
    the declared conditions."""

    checkmate: str     # for the side to move
    stalemate: str     # or fewer-pieces: the side with fewer pieces wins
    conditions: list[EndCondition]
    check_limit: int | None   # the `checks` condition's count
    draws_go_to: str | None   # a side that wins every drawn game
    repetition: int | None
    move_rule: int | None
    draw_timing: str
    automatic_repetition: int | None
    automatic_move_rule: int | None
    insufficient: list[MaterialPattern]
    double_pass: str | None   # the result when both sides pass in a row
    facing_pass: str | None   # the result of a pass while the royals face
    board_full: str | None    # the result when every cell is taken (ends the game)
    checkmate_exceptions: list[MateException]
    draw_points: DrawPoints | None   # decides drawn games by material
    perpetual_check: str | None     # the result for a side checking throughout a repetition
    shuttle: Shuttle | None         # a side moving one piece back and forth
    counting: Counting | None
    repetition_result: str     # for the side to move when repetition ends it
    # The result, for the side that has just moved, when both sides meet
    # declared conditions at once (squatter: `draw`); None: the conditions
    # are tested in order and the first that holds decides.
    at_once: str | None = None

    @property
    def pass_ends_game(self) -> bool:
        """Whether a pass may end the game (`double-pass`, `facing-pass`)."""
        return self.double_pass is not None or self.facing_pass is not None


def needs_general(end: EndRules) -> bool:
    """Whether these rules need the general position (`core.general`):
    declared conditions, a full board, counted endings."""
    return bool(end.conditions) or end.board_full is not None or end.counting is not None


def compile_end(sink: Sink, spec: EndDeclaration, board: Board, pieces: PieceSet,
                rights: frozenset[str] = frozenset()) -> EndRules:
    """The `end:` section as one record; piece names become codes.  `rights`:
    the letters of the variant's castling rights, which castling conditions
    name."""
    insufficient: list[MaterialPattern] = []
    for i, pattern in enumerate(spec.get("insufficient-material", [])):
        if isinstance(pattern, str):
            white, black = (p.strip() for p in pattern.split(" v "))
            unknown = [ch for ch in white + black if ch not in pieces.by_letter]
            if unknown:
                sink.report(("end", "insufficient-material", i),
                         f"unknown piece letter '{unknown[0]}'", "unknown-piece")
            insufficient.append(MaterialPattern(exact=(
                "".join(sorted(white)), "".join(sorted(black)))))
        else:
            only = sink.kinds(pieces, ("end", "insufficient-material", i, "only"),
                              pattern.get("only", []))
            insufficient.append(MaterialPattern(
                only=frozenset(only), one_colour=bool(pattern.get("one-colour"))))
    exceptions: list[MateException] = []
    for i, exception in enumerate(spec.get("checkmate-exceptions", [])):
        key: Literal["given-only-by", "series-without"] = \
            "given-only-by" if "given-only-by" in exception else "series-without"
        kinds = sink.kinds(pieces, ("end", "checkmate-exceptions", i, key), exception[key])
        exceptions.append(MateException(
            "only" if key == "given-only-by" else "series",
            frozenset(piece_code(k, s) for k in kinds for s in range(2)), exception["result"]))
    shuttle = None
    if "shuttle" in spec:
        kinds = sink.kinds(pieces, ("end", "shuttle", "pieces"), spec["shuttle"]["pieces"])
        shuttle = Shuttle(frozenset(piece_code(k, s) for k in kinds for s in range(2)),
                          spec["shuttle"]["result"])
    draw_points = None
    if "draws-decided-by" in spec:
        draw_points = _draw_points(sink, spec["draws-decided-by"], pieces)
    conditions: list[EndCondition] = []
    check_limit: int | None = None
    for i, item in enumerate(spec.get("conditions", [])):
        condition = sink.located(("end", "conditions", i),
                                 partial(_end_condition, sink, board, pieces, rights, i, item))
        if condition is not None:
            condition.reply = bool(item.get("reply", False))
            conditions.append(condition)
            if condition.kind == "checks":
                if check_limit is not None:
                    sink.report(("end", "conditions", i), "only one `checks` condition may be "
                             "declared: the position string counts one number of checks per "
                             "side", "bad-end-condition")
                check_limit = condition.count
    counting = None
    if "counting" in spec:
        counting = sink.located(("end", "counting"),
                                partial(_counting, sink, spec["counting"], pieces))
    return EndRules(
        checkmate=spec.get("checkmate", "loss"), stalemate=spec.get("stalemate", "draw"),
        conditions=conditions, check_limit=check_limit,
        draws_go_to=spec.get("draws-go-to"),
        repetition=spec.get("repetition", 3), move_rule=spec.get("move-rule"),
        draw_timing=spec.get("draw-timing", "on-occurrence"),
        automatic_repetition=spec.get("automatic-repetition"),
        automatic_move_rule=spec.get("automatic-move-rule"),
        insufficient=insufficient,
        double_pass=spec.get("double-pass"), facing_pass=spec.get("facing-pass"),
        board_full=spec.get("board-full"), checkmate_exceptions=exceptions,
        draw_points=draw_points, perpetual_check=spec.get("perpetual-check"),
        shuttle=shuttle, counting=counting,
        repetition_result=spec.get("repetition-result", "draw"),
        at_once=spec.get("at-once"))


def _draw_points(sink: Sink, spec: DrawPointsDeclaration, pieces: PieceSet) -> DrawPoints:
    """Each piece code's points, and each side's bonus."""
    values = [0.0] * piece_code(len(pieces.types), 0)
    for name, points in spec["points"].items():
        for kind in sink.kinds(pieces, ("end", "draws-decided-by", "points"), [name]):
            for side in range(2):
                values[piece_code(kind, side)] = float(points)
    bonus = spec.get("bonus", {})
    return DrawPoints(values, (float(bonus.get("white", 0)), float(bonus.get("black", 0))))


def _counting(sink: Sink, spec: CountingDeclaration, pieces: PieceSet) -> Counting:
    """Compile `end: counting`: piece names become codes and types."""
    path = ("end", "counting")
    kinds = sink.kinds(pieces, (*path, "pawns"), spec["pawns"])
    counting = Counting(pawns=tuple(piece_code(k, side) for k in kinds for side in range(2)))
    board = spec.get("board")
    if board is not None:
        counting.board_moves = board["moves"]
        counting.board_most = board.get("most-pieces")
        counting.board_with_pawns = bool(board.get("with-pawns", False))
    bare = spec.get("bare")
    if bare is not None:
        counting.start_at_pieces = bare.get("start", "pieces") == "pieces"
        counting.last_pawn = bool(bare.get("last-pawn", False))
        if counting.last_pawn and not counting.start_at_pieces:
            raise DeclarationError("`last-pawn` starts the count one ply before the "
                                   "other side would: it needs `start: pieces`",
                                   "bad-counting", where=("bare", "last-pawn"))
        for i, entry in enumerate(bare["limits"]):
            needs = []
            for name, least in entry.get("pieces", {}).items():
                kind = pieces.by_name.get(name)
                if kind is None:
                    sink.report((*path, "bare", "limits", i, "pieces", name),
                             f"unknown piece '{name}'", "unknown-piece", key=True)
                else:
                    needs.append((kind.index, least))
            counting.bare.append(CountLimit(tuple(needs), entry["moves"]))
    return counting


# The keys of an end condition that belong to one kind of condition only.
ONLY_WITH: dict[str, str | tuple[str, ...]] = {
    "answer": "reached", "grace": "bare", "safe": "reached", "at-most": "extinct",
             "opponent-at-least": "extinct",
             "lines": ("in-a-row", "on-a-line", "connected"), "at-least": "reached",
             "when-full": "reached"}


def _end_condition(sink: Sink, board: Board, pieces: PieceSet, rights: frozenset[str],
                   index: int, spec: EndConditionDeclaration) -> EndCondition:
    """One entry of `end: conditions`, its keys checked against its kind."""
    path = ("end", "conditions", index)
    result, answer = spec["result"], spec.get("answer")
    grace = bool(spec.get("grace", False))
    given = {key for key in spec if key != "grace" or grace}   # `grace: false` is no grace
    for key, only in ONLY_WITH.items():
        kinds = (only,) if isinstance(only, str) else only
        if key in given and not any(kind in spec for kind in kinds):
            article = "an" if kinds[0][0] in "aeiou" else "a"
            quoted = [f"`{kind}`" for kind in kinds]
            listed = " or ".join(filter(None, (", ".join(quoted[:-1]), quoted[-1])))
            raise DeclarationError(f"`{key}` applies to {article} {listed} condition only",
                                   "bad-end-condition")
    if answer is not None and spec.get("reply"):
        raise DeclarationError("`answer` and `reply` exclude each other: with `reply` "
                               "only the side to move meets the condition",
                               "bad-end-condition")
    if "checks" in spec:
        return EndCondition("checks", result, count=spec["checks"])
    if "on-a-line" in spec:
        codes = _side_codes(sink, pieces, (*path, "pieces"), spec["pieces"]) \
            if "pieces" in spec else None
        return EndCondition("on-a-line", result, count=spec["on-a-line"], codes=codes,
                            rows=_lines(board, spec.get("lines", ["all"])))
    if "in-a-square" in spec:
        codes = _side_codes(sink, pieces, (*path, "pieces"), spec["pieces"]) \
            if "pieces" in spec else None
        return EndCondition("in-a-square", result, count=spec["in-a-square"], codes=codes,
                            rows=_squares(board, spec["in-a-square"]))
    if "in-a-row" in spec:
        codes = _side_codes(sink, pieces, (*path, "pieces"), spec["pieces"]) \
            if "pieces" in spec else None
        return EndCondition("in-a-row", result, count=spec["in-a-row"], codes=codes,
                            rows=_rows(board, spec["in-a-row"], spec.get("lines", ["all"])))
    if "connected" in spec:
        return _connected(sink, board, pieces, path, spec)
    if "bare" in spec:
        return EndCondition("bare", result, answer=answer, grace=grace)
    for kind in CASTLING_KINDS:
        if kind in spec:
            unknown = sorted(set(spec[kind]) - rights)
            if unknown:
                raise DeclarationError(f"no castling of this variant has the right "
                                       f"{unknown[0]!r}", "bad-end-condition", where=(kind,))
            return EndCondition(kind, result, rights=frozenset(spec[kind]))
    if "extinct" in spec:
        names = spec["extinct"]
        codes = None if names == "all" else _side_codes(sink, pieces, (*path, "extinct"), names)
        return EndCondition("extinct", result, count=spec.get("at-most", 0), codes=codes,
                            grace=grace, rivals=spec.get("opponent-at-least", 0))
    regions = spec["reached"]
    masks = []
    for side in SIDE_NAMES:
        bits = sink.located((*path, "reached", side),
                            partial(board.resolve_region, regions[side]))
        masks.append(bits or 0)
    return EndCondition("reached", result, count=spec.get("at-least", 1),
                        regions=(masks[0], masks[1]), answer=answer,
                        grace=grace, safe=bool(spec.get("safe", False)),
                        full=bool(spec.get("when-full", False)),
                        codes=_side_codes(sink, pieces, (*path, "pieces"), spec["pieces"]))


def _connected(sink: Sink, board: Board, pieces: PieceSet, path: YamlPath,
               spec: EndConditionDeclaration) -> EndCondition:
    """A `connected` condition: each side's two regions, and the cells a
    step away from each cell along the `lines` directions."""
    pairs = []
    for side in SIDE_NAMES:
        pairs.append([sink.located((*path, "connected", side, i),
                                   partial(board.resolve_region, region)) or 0
                      for i, region in enumerate(spec["connected"][side])])
    directions = [d for lines in spec.get("lines", ["all"])
                  for d in board.topology.directions(lines, None)]
    steps = [0] * board.size
    for cell in range(board.size):
        for direction in directions:
            for ray in board.rays(cell, direction):
                if ray:
                    steps[cell] |= 1 << ray[0]
    codes = _side_codes(sink, pieces, (*path, "pieces"), spec["pieces"]) \
        if "pieces" in spec else None
    return EndCondition("connected", spec["result"], codes=codes,
                        regions=(pairs[0][0], pairs[1][0]), goals=(pairs[0][1], pairs[1][1]),
                        steps=tuple(steps))


def _rows(board: Board, length: int, lines: list[Any]) -> tuple[int, ...]:
    """Every run of `length` cells along a line of one of the `lines`
    directions (each run once, whichever end it is found from), as masks."""
    rows = set()
    directions = [d for spec in lines for d in board.topology.directions(spec, None)]
    for cell in range(board.size):
        for direction in directions:
            for ray in board.rays(cell, direction):
                if len(ray) >= length - 1:
                    rows.add(board.mask([cell, *ray[:length - 1]]))
    if not rows:
        raise DeclarationError(f"no line of the board holds {length} cells in a row",
                               "bad-end-condition", where=("in-a-row",))
    return tuple(sorted(rows))


def _lines(board: Board, lines: list[Any]) -> tuple[int, ...]:
    """Every line of the `lines` directions, whole, as masks (with the
    parts of it from each of its cells on: no more pieces stand on a part
    than on the whole)."""
    directions = [d for spec in lines for d in board.topology.directions(spec, None)]
    found = set()
    for cell in range(board.size):
        for direction in directions:
            for ray in board.rays(cell, direction):
                if ray:
                    found.add(board.mask([cell, *ray]))
    return tuple(sorted(found))


def _squares(board: Board, size: int) -> tuple[int, ...]:
    """Every block of `size` by `size` cells (a run of cells east, each the
    foot of a run north), as masks."""
    east, north = (board.topology.directions(name, None) for name in ("e", "n"))
    if len(east) != 1 or len(north) != 1:
        raise DeclarationError("`in-a-square` needs a board with one east and one north "
                               "direction", "bad-end-condition", where=("in-a-square",))
    blocks = set()
    for cell in range(board.size):
        cells: list[int] = []
        for foot in _run(board, cell, east[0], size):
            cells += _run(board, foot, north[0], size)
        if len(cells) == size * size:
            blocks.add(board.mask(cells))
    if not blocks:
        raise DeclarationError(f"no square of {size} by {size} cells on this board",
                               "bad-end-condition", where=("in-a-square",))
    return tuple(sorted(blocks))


def _run(board: Board, cell: int, direction: Any, length: int) -> list[int]:
    """`cell` and the cells after it along `direction`, `length` in all, or
    none where the line is shorter."""
    rays = board.rays(cell, direction)
    if not rays or len(rays[0]) < length - 1:
        return []
    return [cell, *rays[0][:length - 1]]


def _side_codes(sink: Sink, pieces: PieceSet, path: YamlPath,
                names: list[str]) -> tuple[frozenset[int], frozenset[int]]:
    """Each side's piece codes of the named pieces."""
    kinds = sink.kinds(pieces, path, names)
    return (frozenset(piece_code(k, 0) for k in kinds),
            frozenset(piece_code(k, 1) for k in kinds))
