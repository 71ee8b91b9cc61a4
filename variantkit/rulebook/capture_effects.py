"""What a move does to the pieces it moves or takes, beyond moving and
removing them (`capture-effects:`): a capturing piece that stays where it
stands and shoots (Rifle chess), that changes side (Andernach chess) or is
reborn on its game-array cell (AntiCirce); a piece moving without a
capture that changes side (AntiAndernach); a captured piece reborn on its
game-array cell (Circe), or on the other side's (Mirror Circe); a piece
that changes type as it captures or moves without capturing (`becomes:`,
Einstein and Chameleon chess).  Where a piece is reborn is declared per
piece (`rebirth:`) and for all (`rebirth-array:`), compiled into one table
per piece code and capture cell; what a piece becomes, into one table per
piece code.  A capturing piece that must at once make a move as the piece
it took moves (`capturer: makes`, Take&Make) has its make moves found by
the general position from the taken piece's own tables."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import partial
from typing import Literal, NamedTuple, TypedDict, TypeVar

from variantkit.board import SIDE_NAMES, Board, SideRegionRef
from variantkit.pieces import PieceSet, PieceType, piece_code
from variantkit.rulebook.sink import Sink

CapturerEffect = Literal["stays", "turns", "reborn", "makes"]


class RebirthDeclaration(TypedDict, total=False):
    """One piece's entry under `rebirth:`: how its rebirth cell is picked
    among its game-array cells when it has more than one, the one of the
    capture cell's colour or on the capture cell's file."""

    pick: Literal["colour", "file"]


class BecomesDeclaration(TypedDict, total=False):
    """`becomes:`: per piece name, the piece it turns into when it captures
    (`capturing`) or moves without capturing (`moving`)."""

    capturing: dict[str, str]
    moving: dict[str, str]


# `capture-effects:` as the schema admits it (`make-barred`: piece name ->
# the cells, a region or one per side, its make move may not end on).
CaptureEffectsDeclaration = TypedDict("CaptureEffectsDeclaration", {
    "capturer": CapturerEffect | list[CapturerEffect],
    "captured": Literal["removed", "reborn"],
    "mover": Literal["stays", "turns"],
    "rebirth": dict[str, RebirthDeclaration],   # piece name -> how its cell is picked
    # Whose game array holds a piece's rebirth cells: its own side's, or
    # the other side's (Mirror Circe).
    "rebirth-array": Literal["own", "opposite"],
    "becomes": BecomesDeclaration,
    "make-barred": dict[str, SideRegionRef],
}, total=False)


class CaptureEffects(NamedTuple):
    """The capture effects as the general position plays them."""

    capturer_stays: bool    # the capturing piece stays on its cell (it shoots)
    capturer_turns: bool    # the capturing piece changes side (not a royal one)
    capturer_reborn: bool   # the capturing piece is reborn; the capture needs its cell free
    captured_reborn: bool   # the captured piece is reborn if its cell is empty
    mover_turns: bool       # a piece moving without a capture changes side (not a royal one)
    # Per piece code, per capture cell: the cell the piece is reborn on (-1:
    # none); [] when nothing is reborn.
    rebirth: list[list[int]]
    # Per piece code, the cells where the setup has that piece: one that
    # lands there by rebirth or a change of side counts as not moved.
    home: list[int]
    # Per piece code, the code it becomes on its landing cell when it
    # captures, or moves without capturing (0: it stays what it is); []
    # when no piece changes type so.
    capturer_becomes: list[int]
    mover_becomes: list[int]
    # The capturing piece must at once make a move without capturing, from
    # the capture cell, as the taken piece moves (Take&Make); per piece
    # code, the cells where such a make move may not end ([] without makes).
    capturer_makes: bool
    make_barred: list[int]

    @property
    def any(self) -> bool:
        return self.capturer_stays or self.capturer_turns or self.capturer_reborn \
            or self.captured_reborn or self.mover_turns or bool(self.capturer_becomes) \
            or bool(self.mover_becomes) or self.capturer_makes


NO_EFFECTS = CaptureEffects(False, False, False, False, False, [], [], [], [], False, [])


def needs_general(effects: CaptureEffects) -> bool:
    """Whether these rules need the general position (`core.general`)."""
    return effects.any


def compile_capture_effects(sink: Sink, spec: CaptureEffectsDeclaration | None, board: Board,
                            pieces: PieceSet, start_cells: dict[int, int],
                            n_codes: int, captures_to_hand: bool) -> CaptureEffects:
    """The `capture-effects:` section as a record; NO_EFFECTS without one.
    A captured piece goes either to a hand or back to the board, not both."""
    if spec is None:
        return NO_EFFECTS
    declared = spec.get("capturer", [])
    capturer: set[str] = set(declared if isinstance(declared, list) else [declared])
    if {"stays", "reborn"} <= capturer:
        sink.report(("capture-effects", "capturer"), "a capturing piece either stays where it "
                    "stands or is reborn, not both", "capture-effects-clash")
    captured_reborn = spec.get("captured", "removed") == "reborn"
    if "makes" in capturer and (len(capturer) > 1 or captured_reborn or "becomes" in spec):
        sub_key = "capturer" if len(capturer) > 1 else "captured" if captured_reborn \
            else "becomes"
        sink.report(("capture-effects", sub_key), "a capturing piece that makes a move as "
                    "the piece it took (`capturer: makes`) takes no other effect",
                    "capture-effects-clash")
    if captured_reborn and captures_to_hand:
        sink.report(("capture-effects", "captured"), "a captured piece joins the capturer's "
                    "hand (`hands: {captures: ...}`), so it cannot also be reborn",
                    "rebirth-with-hands")
    reborn = captured_reborn or "reborn" in capturer
    home = [0] * n_codes
    for cell, code in start_cells.items():
        home[code] |= 1 << cell
    rebirth: list[list[int]] = []
    opposite = spec.get("rebirth-array", "own") == "opposite"
    if reborn:
        rebirth = _rebirth_table(sink, spec.get("rebirth", {}), board, pieces, home, opposite)
    for key in ("rebirth", "rebirth-array"):
        if key in spec and not reborn:
            sink.report(("capture-effects", key), f"`{key}` says where pieces are reborn, "
                        "but no piece is: declare `captured: reborn` or `capturer: reborn`",
                        "rebirth-unused", key=True)
    return CaptureEffects(
        capturer_stays="stays" in capturer, capturer_turns="turns" in capturer,
        capturer_reborn="reborn" in capturer, captured_reborn=captured_reborn,
        mover_turns=spec.get("mover", "stays") == "turns", rebirth=rebirth, home=home,
        capturer_becomes=_becomes(sink, spec.get("becomes", {}), "capturing", pieces, n_codes),
        mover_becomes=_becomes(sink, spec.get("becomes", {}), "moving", pieces, n_codes),
        capturer_makes="makes" in capturer,
        make_barred=_make_barred(sink, spec, "makes" in capturer, board, pieces, n_codes))


def _make_barred(sink: Sink, spec: CaptureEffectsDeclaration, makes: bool, board: Board,
                 pieces: PieceSet, n_codes: int) -> list[int]:
    """Per piece code, the cells its make move may not end on (`make-barred`)."""
    barred = spec.get("make-barred", {})
    if not makes:
        if barred:
            sink.report(("capture-effects", "make-barred"), "`make-barred` bars the ends of "
                        "make moves, but no piece makes one: declare `capturer: makes`",
                        "make-barred-unused", key=True)
        return []
    table = [0] * n_codes
    for name, kind, where in _known_pieces(sink, "make-barred", barred, pieces):
        for side in range(2):
            ref = where[SIDE_NAMES[side]] if isinstance(where, dict) else where
            table[piece_code(kind.index, side)] = sink.located(
                ("capture-effects", "make-barred", name),
                partial(board.resolve_region, ref)) or 0
    return table


Entry = TypeVar("Entry")


def _known_pieces(sink: Sink, key: str | tuple[str, ...], entries: Mapping[str, Entry],
                  pieces: PieceSet) -> Iterator[tuple[str, PieceType, Entry]]:
    """The entries of a table by piece name under `capture-effects: KEY`
    whose piece exists, with its type; each other name is reported where
    it stands (`unknown-piece`)."""
    path = ("capture-effects", *((key,) if isinstance(key, str) else key))
    for name, entry in entries.items():
        kind = pieces.by_name.get(name)
        if kind is None:
            sink.report((*path, name), f"unknown piece '{name}'", "unknown-piece", key=True)
        else:
            yield name, kind, entry


def _becomes(sink: Sink, spec: BecomesDeclaration, when: Literal["capturing", "moving"],
             pieces: PieceSet, n_codes: int) -> list[int]:
    """Per piece code, the code of the piece it becomes `when` (0: none);
    [] when no piece changes.  A royal piece keeps its type, and no piece
    becomes a royal one (the count of royal pieces stays what it is)."""
    table = [0] * n_codes
    for name, kind, into in _known_pieces(sink, ("becomes", when), spec.get(when, {}), pieces):
        where = ("capture-effects", "becomes", when, name)
        other = pieces.by_name.get(into)
        if other is None:
            sink.report(where, f"unknown piece '{into}'", "unknown-piece")
            continue
        if kind.royal or other.royal:
            sink.report(where, f"'{name}' becoming '{into}': a royal piece neither changes "
                        "type nor is made so", "royal-becomes")
            continue
        for side in range(2):
            table[piece_code(kind.index, side)] = piece_code(other.index, side)
    return table if any(table) else []


def _rebirth_table(sink: Sink, spec: dict[str, RebirthDeclaration], board: Board,
                   pieces: PieceSet, home: list[int], opposite: bool) -> list[list[int]]:
    """Per piece code and capture cell, the rebirth cell: among the piece's
    game-array cells (its own side's, or with `opposite` the other side's
    cells of its kind), its only one, or the one its `pick` matches (the
    default: the capture cell's colour)."""
    picks: dict[int, str] = {}
    for _, kind, rule in _known_pieces(sink, "rebirth", spec, pieces):
        picks[kind.index] = rule.get("pick", "colour")
    table: list[list[int]] = [[] for _ in home]
    for kind in pieces.types:
        pick = picks.get(kind.index, "colour")
        for side in range(2):
            code = piece_code(kind.index, side)
            cells = board.cells_of(home[piece_code(kind.index, 1 - side if opposite else side)])
            row = [-1] * board.size
            for capture in range(board.size) if cells else ():
                found = cells if len(cells) == 1 else [
                    c for c in cells if _matches(board, pick, c, capture)]
                if len(found) > 1:
                    where = ("capture-effects", "rebirth", kind.name) \
                        if kind.name in spec else ("capture-effects",)
                    sink.report(where, f"'{kind.name}' has {len(found)} game-array cells that "
                                f"match a capture on {board.names[capture]} by {pick}: declare "
                                f"a `pick` under `rebirth` that leaves one",
                                "rebirth-ambiguous", key=True)
                    return []
                row[capture] = found[0] if found else -1
            table[code] = row
    return table


def _matches(board: Board, pick: str, cell: int, capture: int) -> bool:
    if pick == "file":
        return board.coords[cell][0] == board.coords[capture][0]
    return board.colours[cell] == board.colours[capture]
