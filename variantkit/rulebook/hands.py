"""Pieces in hand (`hands:` and each piece's `drops:`): where a captured
piece goes (the capturer's hand, nowhere, or the hand of the partner board's
same side, `captures: to-partner`), and per piece code where and under what
restrictions it is dropped."""

from __future__ import annotations

from functools import partial
from typing import Any, Literal, NamedTuple, Required, TypedDict

from variantkit.betza import PieceDeclaration, PieceDropsDeclaration
from variantkit.board import SIDE_NAMES, Board, SideRegionRef
from variantkit.errors import DeclarationError, YamlPath
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.captures import ExplosionDeclaration
from variantkit.rulebook.roster import letter_of
from variantkit.rulebook.setup import split_hand
from variantkit.rulebook.sink import Sink
from variantkit.tables import DropRule


class DropEntryDeclaration(TypedDict, total=False):
    """One entry of `drops-enter:`."""

    moving: Required[str]   # the direction a drop travels in
    through: bool


# `hands:` as the schema admits it (keys that are not names take the
# functional form).
HandsDeclaration = TypedDict("HandsDeclaration", {
    "captures": Literal["to-capturer", "to-partner", "removed"],
    "order": list[str],
    "drops": bool,
    "must-drop": bool | list[str],   # all pieces, or those named
    "drops-unmoved": bool,
    "drops-enter": list[DropEntryDeclaration],
    # A direction, or a list the board reads as directions when compiled.
    "drops-fall": str | list[Any],
    "drops-grant-castling": bool,
}, total=False)

# The keys of the declaration this family reads: each piece's `drops:` and
# `demotes-to:` with `hands:`; with `explosion:` a blast may put a royal
# piece in hand.
class HandsKeys(TypedDict, total=False):
    hands: HandsDeclaration
    pieces: Required[dict[str, PieceDeclaration]]
    explosion: ExplosionDeclaration


class Hands(NamedTuple):
    """Where captured pieces go and how pieces in hand are dropped."""

    has_hands: bool
    all_cells: int
    captures_to_hand: bool
    # Whether pieces in hand drop (else they enter only by gating, on cells
    # of their drop regions too).
    drops: bool
    # A side holding pieces must drop one while it can (`must-drop`; per
    # piece code in `forced_drops`, all of them unless it names some); a
    # dropped piece counts as not moved yet (`drops-unmoved`); a king or rook
    # dropped on the cell a castling starts from, its partner standing on
    # its own, gives that castling's right (`drops-grant-castling`).
    must_drop: bool
    drops_unmoved: bool
    drops_grant_castling: bool
    to_hand: list[int]          # per captured piece code, the code joining the capturer's hand
    # Per captured piece code, the code joining the hand of the same side on
    # the partner board (`captures: to-partner`; bughouse), else -1: on its
    # own board such a capture leaves the game, and `variantkit.pair` passes it.
    to_partner: list[int]
    drop_regions: list[int]     # per piece code
    forced_drops: list[bool]    # per piece code
    drop_rules: list[DropRule | None]
    hand_codes: list[list[int]]   # per side, the codes that may be in hand, in written order
    # Per side, the codes whose drops keep them on both colours alike
    # (`drops: {colours: balanced}`), and the cells of colour 0.
    balanced: list[list[int]]
    colour_cells: int
    # Per piece code: whether a checkmate given by dropping it loses
    # (`mate: loses`), and the other types it may be dropped as (`also-as`:
    # kyoto shogi drops a piece in either form).
    drop_mate_loses: list[bool]
    drop_forms: list[list[int]]


def compile_hands(sink: Sink, data: HandsKeys, board: Board, pieces: PieceSet,
                  forwards: list[str | None], setup_fen: str) -> Hands:
    """The hand tables; a royal piece may be in hand only where the setup
    (`setup_fen`) puts it there."""
    n_codes = piece_code(len(pieces.types), 0)
    has_hands = "hands" in data
    all_cells = (1 << board.size) - 1
    spec = data.get("hands", {})
    to_capturer = spec.get("captures", "removed") == "to-capturer"
    to_partner_board = spec.get("captures") == "to-partner"
    to_hand = [-1] * n_codes
    to_partner = [-1] * n_codes
    drop_regions = [0] * n_codes
    drop_rules: list[DropRule | None] = [None] * n_codes
    hand_codes: list[list[int]] = [[], []]
    balanced: list[list[int]] = [[], []]
    colour_cells = sum(1 << cell for cell, colour in enumerate(board.colours) if colour == 0)
    setup_hand = split_hand((setup_fen.split() or [""])[0])[1] or ""
    # Hands are written in `order` first, then in declaration order.
    first = sink.kinds(pieces, ("hands", "order"), spec.get("order", []))
    rank = {kind: i for i, kind in enumerate(first)}
    declared = sorted(data["pieces"].items(),
                      key=lambda item: rank.get(pieces.by_name[item[0]].index, len(rank)))
    for name, piece in declared:
        t = pieces.by_name[name]
        path = ("pieces", name)
        if not has_hands:
            for key in ("drops", "demotes-to"):
                if key in piece:
                    sink.report((*path, key), f"`{key}` needs pieces in hand: declare `hands`",
                             "hands-missing", key=True)
            continue
        demoted = t.index
        if "demotes-to" in piece:
            kinds = sink.kinds(pieces, (*path, "demotes-to"), [piece["demotes-to"]])
            demoted = kinds[0] if kinds else t.index
            if pieces.types[demoted].royal:
                sink.report((*path, "demotes-to"), "a piece may not demote to a royal piece",
                         "bad-demotion")
        drops = piece.get("drops", {})
        for side in range(2):
            code = piece_code(t.index, side)
            # A royal piece is never captured into a hand; it may be in
            # one where the setup puts it there (placement), or where a
            # blast takes it as it takes any piece (atomic with a hand, as
            # Fairy-Stockfish plays it: the blown-up king joins the enemy's hand).
            blasted = to_capturer and "explosion" in data
            if t.royal and not blasted and letter_of(pieces, code) not in setup_hand:
                continue
            hand_codes[side].append(code)
            if to_capturer and (blasted or not t.royal):
                to_hand[code] = piece_code(demoted, 1 - side)
            if to_partner_board and not t.royal:
                # The capturer's partner plays the other colour: the piece
                # keeps its own.
                to_partner[code] = piece_code(demoted, side)
            region = drops.get("regions")
            drop_regions[code] = all_cells if region is None else sink.located(
                (*path, "drops", "regions"), partial(_side_region, board, region, side)) or 0
            drop_rules[code] = _drop_rule(sink, board, forwards, path, drops, side)
            if drops.get("colours") == "balanced":
                balanced[side].append(code)
    drop_mate_loses, drop_forms = _drop_options(sink, data["pieces"], pieces, n_codes)
    must_drop = spec.get("must-drop", False)
    forced_drops = [bool(must_drop)] * n_codes
    if isinstance(must_drop, list):
        forced_drops = [False] * n_codes
        for kind in sink.kinds(pieces, ("hands", "must-drop"), must_drop):
            forced_drops[piece_code(kind, 0)] = forced_drops[piece_code(kind, 1)] = True
    return Hands(has_hands, all_cells, to_capturer, has_hands and spec.get("drops", True),
                 bool(must_drop), bool(spec.get("drops-unmoved", False)),
                 bool(spec.get("drops-grant-castling", False)),
                 to_hand, to_partner, drop_regions, forced_drops, drop_rules, hand_codes, balanced,
                 colour_cells,
                 drop_mate_loses, drop_forms)


def _side_region(board: Board, ref: SideRegionRef, side: int) -> int:
    """A region reference, or one per side, as a side's cell mask."""
    if isinstance(ref, dict):
        ref = ref[SIDE_NAMES[side]]
    return board.resolve_region(ref)


def _drop_rule(sink: Sink, board: Board, forwards: list[str | None], path: YamlPath,
               drops: PieceDropsDeclaration, side: int) -> DropRule | None:
    """The restrictions of `drops` beyond the region, or None for none."""
    per_line = drops.get("per-line")
    lines: tuple[int, ...] = ()
    if per_line is not None:
        lines = sink.located((*path, "drops", "per-line"),
                             partial(_files, board, forwards[side])) or ()
    check = drops.get("check", "allowed") == "forbidden"
    mate = drops.get("mate", "allowed") == "forbidden"
    if not (lines or check or mate):
        return None
    return DropRule(lines, per_line["count"] if per_line else 0, check, mate)


def _files(board: Board, forward: str | None) -> tuple[int, ...]:
    """The board's files as a side sees them: the lines through each
    cell along its forward direction, each as a cell mask."""
    topology = board.topology
    if forward is None:
        raise DeclarationError("per-line: files run along a side's forward direction, "
                               "and this board has none", "bad-drops")
    ways = topology.directions("forward", forward) + topology.directions("backward", forward)
    files: set[int] = set()
    for cell in range(board.size):
        bits = 1 << cell
        for way in ways:
            for ray in board.rays(cell, way):
                bits |= board.mask(list(ray))
        files.add(bits)
    return tuple(sorted(files))


def _drop_options(sink: Sink, declared: dict[str, PieceDeclaration], pieces: PieceSet,
                  n_codes: int) -> tuple[list[bool], list[list[int]]]:
    """Per piece code: whether a drop mate loses, and its other drop forms."""
    mate_loses = [False] * n_codes
    forms_of: list[list[int]] = [[] for _ in range(n_codes)]
    for index, (name, piece) in enumerate(declared.items()):
        drops = piece.get("drops", {})
        forms = sink.kinds(pieces, ("pieces", name, "drops", "also-as"),
                           drops.get("also-as", []))
        for side in range(2):
            code = piece_code(index, side)
            mate_loses[code] = drops.get("mate") == "loses"
            forms_of[code] = [piece_code(kind, side) for kind in forms]
    return mate_loses, forms_of

