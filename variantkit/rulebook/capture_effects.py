"""What a move does to the pieces it moves or takes, beyond moving and
removing them (`capture-effects:`): a capturing piece that stays where it
stands and shoots (Rifle chess), that changes side (Andernach chess) or is
reborn on its game-array cell (AntiCirce); a piece moving without a
capture that changes side (AntiAndernach); a captured piece reborn on its
game-array cell (Circe), or on the other side's (Mirror Circe).  Where a
piece is reborn is declared per piece (`rebirth:`) and for all
(`rebirth-array:`), compiled into one table per piece code and capture
cell."""

from __future__ import annotations

from typing import Literal, NamedTuple, TypedDict

from variantkit.board import Board
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

CapturerEffect = Literal["stays", "turns", "reborn"]


class RebirthDeclaration(TypedDict, total=False):
    """One piece's entry under `rebirth:`: how its rebirth cell is picked
    among its game-array cells when it has more than one, the one of the
    capture cell's colour or on the capture cell's file."""

    pick: Literal["colour", "file"]


# `capture-effects:` as the schema admits it.
CaptureEffectsDeclaration = TypedDict("CaptureEffectsDeclaration", {
    "capturer": CapturerEffect | list[CapturerEffect],
    "captured": Literal["removed", "reborn"],
    "mover": Literal["stays", "turns"],
    "rebirth": dict[str, RebirthDeclaration],   # piece name -> how its cell is picked
    # Whose game array holds a piece's rebirth cells: its own side's, or
    # the other side's (Mirror Circe).
    "rebirth-array": Literal["own", "opposite"],
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

    @property
    def any(self) -> bool:
        return self.capturer_stays or self.capturer_turns or self.capturer_reborn \
            or self.captured_reborn or self.mover_turns


NO_EFFECTS = CaptureEffects(False, False, False, False, False, [], [])


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
        mover_turns=spec.get("mover", "stays") == "turns", rebirth=rebirth, home=home)


def _rebirth_table(sink: Sink, spec: dict[str, RebirthDeclaration], board: Board,
                   pieces: PieceSet, home: list[int], opposite: bool) -> list[list[int]]:
    """Per piece code and capture cell, the rebirth cell: among the piece's
    game-array cells (its own side's, or with `opposite` the other side's
    cells of its kind), its only one, or the one its `pick` matches (the
    default: the capture cell's colour)."""
    picks: dict[int, str] = {}
    for name, rule in spec.items():
        kind = pieces.by_name.get(name)
        if kind is None:
            sink.report(("capture-effects", "rebirth", name), f"unknown piece '{name}'",
                        "unknown-piece", key=True)
            continue
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
