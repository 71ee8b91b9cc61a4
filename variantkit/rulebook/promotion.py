"""Promotion (`promotion:`): per side, which piece codes promote, where,
to what and under which limits, as `Promotion` and `Standing` tables."""

from __future__ import annotations

from functools import partial
from typing import Literal, NamedTuple, Required, TypedDict

from variantkit.board import SIDE_NAMES, Board, DirectionsDeclaration, SideRegions
from variantkit.errors import YamlPath
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.codes import empty_board_reach
from variantkit.rulebook.sink import Sink
from variantkit.tables import Generator, Promotion, Standing


class SideChoicesDeclaration(TypedDict):
    """A promotion rule's `choices:`, one list per side."""

    white: list[str]
    black: list[str]


StandingDeclaration = TypedDict("StandingDeclaration", {
    "steps": Required[DirectionsDeclaration],
    "last-anywhere": bool,
    "attack": Literal["allowed", "forbidden"],
}, total=False)

# One promotion rule as the schema admits it (keys that are not names take
# the functional form).
PromotionRuleDeclaration = TypedDict("PromotionRuleDeclaration", {
    "pieces": list[str],
    "promotes-to": dict[str, str],          # piece name -> its own promoted form
    "on-capture": bool,
    "by-en-passant": bool,
    "leaving": bool,
    "regions": Required[SideRegions],
    "choices": list[str] | SideChoicesDeclaration,
    "optional": SideRegions | Literal["where-it-can-move"],
    "limit": dict[str, int],                # piece name -> how many may exist
    "limit-also-counts": dict[str, list[str]],
    "standing": StandingDeclaration,
}, total=False)

# `promotion:`: one rule, or a list of them.
PromotionDeclaration = PromotionRuleDeclaration | list[PromotionRuleDeclaration]


class Promotions(NamedTuple):
    """How each piece code promotes, per side."""

    promotions: list[dict[int, Promotion]]   # per side, by the promoting piece code
    standing: list[dict[int, Standing]]      # per side: promotions made standing on a cell
    promotion_limit: list[int]               # per code, how many may exist (0: no limit)
    limit_counted: list[list[int]]           # per code, the codes its limit counts
    # Per side, the pieces that promote by `pieces` and `choices`, as
    # pawns do: SAN writes their moves without a letter.
    pawn_like: list[set[int]]
    # Pieces whose promotion can be undone (kyoto shogi: each type turns
    # into the other): that move does not reset the move-rule count.
    reversible_promotion: list[bool]
    # The same as `promotions`, per piece code (None where it never
    # promotes): the move generator reads it for each piece, and compiled,
    # a list read costs less than a dictionary's `get`.
    by_code: list[Promotion | None]


def needs_general(promotions: Promotions) -> bool:
    """Whether these rules need the general position (`core.general`), which
    holds back the promotions `from-inside: by-capture` does not allow."""
    return any(how is not None and how.inside_by_capture for how in promotions.by_code)


def promotion_rules(spec: PromotionDeclaration | None) -> list[PromotionRuleDeclaration]:
    """The `promotion:` section as a list of rules (one mapping is one rule)."""
    if not spec:
        return []
    return spec if isinstance(spec, list) else [spec]


class _Rules:
    """What compiling the promotion rules reads, and the tables they fill."""

    def __init__(self, sink: Sink, board: Board, pieces: PieceSet,
                 forwards: list[str | None], one_royal: bool,
                 generators: list[list[Generator]]) -> None:
        self.sink, self.board, self.pieces = sink, board, pieces
        self.forwards, self.one_royal, self.generators = forwards, one_royal, generators
        n_codes = len(generators)
        self.tables = Promotions([{}, {}], [{}, {}], [0] * n_codes,
                                 [[code] for code in range(n_codes)], [set(), set()],
                                 [False] * n_codes, [None] * n_codes)

    def rule(self, path: YamlPath, rule: PromotionRuleDeclaration) -> None:
        sink, board, tables = self.sink, self.board, self.tables
        movers = sink.kinds(self.pieces, (*path, "pieces"), rule.get("pieces", []))
        # `promotes-to`: each of these pieces has its own one promoted type.
        own_form = {kind: self.choices((*path, "promotes-to", name), [form])
                    for name, form in rule.get("promotes-to", {}).items()
                    for kind in sink.kinds(self.pieces, (*path, "promotes-to"), [name])}
        if not movers and not own_form:
            sink.report(path, "a promotion rule names its pieces: `pieces` with `choices`, or "
                     "`promotes-to`", "promotion-pieces")
        for name, count in rule.get("limit", {}).items():
            for kind in sink.kinds(self.pieces, (*path, "limit"), [name]):
                for side in range(2):
                    tables.promotion_limit[piece_code(kind, side)] = count
        for name, others in rule.get("limit-also-counts", {}).items():
            path_here = (*path, "limit-also-counts", name)
            for kind in sink.kinds(self.pieces, path_here, [name]):
                also = sink.kinds(self.pieces, path_here, others)
                for side in range(2):
                    code = piece_code(kind, side)
                    tables.limit_counted[code] = [code] + [piece_code(k, side) for k in also]
        choices = rule.get("choices", [])
        per_side = [((*path, "choices", side), choices[side]) for side in SIDE_NAMES] \
            if isinstance(choices, dict) else [((*path, "choices"), choices)] * 2
        kinds_at: dict[YamlPath, list[int]] = {}
        for where, names in per_side:
            if where not in kinds_at:
                kinds_at[where] = self.choices(where, names)
        optional = rule.get("optional")
        for side, side_name in enumerate(SIDE_NAMES):
            region = rule.get("regions", {}).get(side_name)
            if region is None:
                sink.report((*path, "regions"), f"no promotion region for {side_name}",
                         "missing-region")
                continue
            bits = sink.located((*path, "regions", side_name),
                                partial(board.resolve_region, region)) or 0
            # A move that leaves the region promotes as a move into it does.
            start = bits if rule.get("leaving", False) else 0
            optional_bits = 0
            if isinstance(optional, dict) and side_name in optional:
                optional_bits = (sink.located((*path, "optional", side_name), partial(
                    board.resolve_region, optional[side_name])) or 0) & bits
                if start:   # a move out of the region may always stay as it is
                    optional_bits |= ((1 << board.size) - 1) & ~bits
            standing = rule.get("standing")
            tables.pawn_like[side].update(piece_code(k, side) for k in movers)
            for kind, kinds in [*((k, kinds_at[per_side[side][0]]) for k in movers),
                                *own_form.items()]:
                code = piece_code(kind, side)
                codes = [piece_code(c, side) for c in kinds]
                if standing is not None:
                    steps = sink.located((*path, "standing", "steps"), partial(
                        self.step_cells, standing["steps"], side)) or [0] * board.size
                    tables.standing[side][code] = Standing(
                        bits, codes, steps, bool(standing.get("last-anywhere", False)),
                        standing.get("attack", "allowed") == "forbidden")
                    continue
                where_optional = optional_bits
                if optional == "where-it-can-move":
                    where_optional = self.mobile_cells(code)
                inside = rule.get("from-inside") == "by-capture"
                stuck = ((1 << board.size) - 1) & ~self.mobile_cells(code) if inside else 0
                tables.promotions[side][code] = Promotion(
                    bits, where_optional, codes, start, bool(rule.get("on-capture", False)),
                    bool(rule.get("by-en-passant", True)), inside, stuck)

    def mobile_cells(self, code: int) -> int:
        """The cells from which a piece (by code) could still move on the
        empty board: staying unpromoted anywhere else would strand it."""
        return sum(1 << cell for cell in range(self.board.size)
                   if empty_board_reach(self.generators, code, cell, initial=False))

    def step_cells(self, spec: DirectionsDeclaration, side: int) -> list[int]:
        """Per cell, the cells one step away in the directions `spec`."""
        board = self.board
        ways = board.topology.directions(spec, self.forwards[side])
        return [board.mask([ray[0] for way in ways for ray in board.rays(cell, way) if ray])
                for cell in range(board.size)]

    def choices(self, path: YamlPath, names: list[str]) -> list[int]:
        """The piece types of a list of promotion choices: no royal piece."""
        by_name = self.pieces.by_name
        for i, name in enumerate(names):
            if self.one_royal and name in by_name and by_name[name].royal:
                self.sink.report((*path, i), f"a piece may not promote to the royal piece '{name}'",
                              "royal-promotion")
        forms = [i for i, name in enumerate(names) if name in by_name
                 and by_name[name].letter.startswith("+")]
        if len(forms) > 1:
            self.sink.report((*path, forms[1]), f"'{names[forms[0]]}' and '{names[forms[1]]}' are "
                          "both promoted forms: a move string ending in '+' would name both",
                          "promoted-forms")
        return self.sink.kinds(self.pieces, path, names)


def compile_promotion(sink: Sink, spec: PromotionDeclaration | None,
                      board: Board, pieces: PieceSet, forwards: list[str | None],
                      one_royal: bool, generators: list[list[Generator]]) -> Promotions:
    """The promotion tables of `promotion:` (one rule or a list of them)."""
    rules = _Rules(sink, board, pieces, forwards, one_royal, generators)
    for index, rule in enumerate(promotion_rules(spec)):
        path: YamlPath = ("promotion", index) if isinstance(spec, list) else ("promotion",)
        rules.rule(path, rule)
    tables = rules.tables
    for side in range(2):
        table = tables.promotions[side]
        for code, how in table.items():
            tables.reversible_promotion[code] = bool(how.choices) and all(
                choice in table and code in table[choice].choices
                for choice in how.choices)
            tables.by_code[code] = how
    return tables
