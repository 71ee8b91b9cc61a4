"""How a game is drawn (`look:`): the board's style and marks, and the
pieces' shapes and characters, checked against the board and the pieces.

The rules never read a look; the drawings (`variantkit.drawing.svg`,
`variantkit.drawing.terminal`) do.  Everything here is plain data: region references
become cell masks, piece names become piece types, so that a drawing needs
no access to the declaration and a mistake is reported where it was written.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Literal, Required, TypedDict

from variantkit.board import Board, GridTopology, RegionRef
from variantkit.pieces import PieceSet, PieceType
from variantkit.rulebook.sink import Sink

BOARD_STYLES = ("chequered", "plain", "points")
SHAPES = ("figures", "discs", "pentagons")
PIECE_SETS = ("traditional", "international")
# Defaults by shape: each side's ink, the ink of promoted pieces (their
# letter starts with '+', as in position strings), a board's wood.
INK = {"figures": ("#1e1e1e", "#1e1e1e"), "discs": ("#b3261e", "#1e1e1e"),
       "pentagons": ("#1e1e1e", "#1e1e1e")}
PROMOTED_INK = "#b3261e"
WOOD = "#e9c88a"


# `look:` as the schema admits it (`LookDeclaration` has keys that are not
# Python names, hence its functional form).
class RiverDeclaration(TypedDict, total=False):
    between: Required[list[RegionRef]]   # two regions
    text: str


class InkDeclaration(TypedDict, total=False):
    white: str
    black: str


class CharactersDeclaration(TypedDict, total=False):
    text: str
    white: str
    black: str
    international: str
    figure: str


class PiecesLookDeclaration(TypedDict, total=False):
    shape: Literal["figures", "discs", "pentagons"]
    ink: InkDeclaration
    characters: dict[str, str | CharactersDeclaration]   # piece name -> its characters


LookDeclaration = TypedDict("LookDeclaration", {
    "board": Literal["chequered", "plain", "points"],
    "colour": str,
    "river": RiverDeclaration,
    "diagonals": list[RegionRef],
    "corner-dots": list[RegionRef],
    "point-marks": RegionRef,
    "pieces": PiecesLookDeclaration,
}, total=False)


@dataclass(frozen=True)
class Characters:
    """What a piece shows: the traditional characters of each side (White,
    Black), and the international set's text or figure when declared."""

    sides: tuple[str, str]
    international: str | None = None
    figure: str | None = None


@dataclass(frozen=True)
class Look:
    """A variant's drawing, as declared under `look:` (the defaults draw a
    chequered board with each piece's figure)."""

    board: str = "chequered"
    colour: str = WOOD
    river: tuple[int, int] | None = None   # the two regions' masks
    river_text: str = ""
    diagonals: tuple[int, ...] = ()        # masks of the regions with diagonals
    corner_dots: tuple[int, ...] = ()      # masks of the regions with dots at their corners
    point_marks: int = 0                   # cells whose point is marked
    shape: str = "figures"
    ink: tuple[str, str] = INK["figures"]
    characters: dict[int, Characters] = field(default_factory=dict)  # by piece type

    def text(self, kind: PieceType, side: int, pieces: str) -> str | None:
        """The characters piece type `kind` of `side` (0 White, 1 Black)
        shows in the set `pieces` ('traditional' or 'international'), or
        None where it shows its figure or its letter instead."""
        chars = self.characters.get(kind.index)
        if chars is None:
            return None
        return chars.sides[side] if pieces == "traditional" else chars.international

    def figure(self, kind: PieceType, pieces: str) -> str | None:
        """The figure piece type `kind` shows in the set `pieces`, if any:
        never in the traditional set of a piece with characters."""
        chars = self.characters.get(kind.index)
        if chars is None:
            return kind.glyph
        if pieces == "traditional" or chars.international is not None:
            return None
        return chars.figure or kind.glyph

    def across_river(self, a: int, b: int) -> bool:
        """Whether cells `a` and `b` are on the two banks of the river."""
        if self.river is None:
            return False
        first, second = self.river
        return bool((first >> a & 1 and second >> b & 1) or (first >> b & 1 and second >> a & 1))

    def ink_of(self, kind: PieceType, side: int) -> str:
        """The colour of the characters on a piece of `side`."""
        return PROMOTED_INK if kind.letter.startswith("+") and self.shape == "pentagons" \
            else self.ink[side]


def compile_look(sink: Sink, spec: LookDeclaration | None, board: Board,
                 pieces: PieceSet) -> Look:
    """The look declared under `look:` (the default look without one)."""
    if spec is None:
        return Look()
    style = spec.get("board", "chequered")
    gridded = isinstance(board.topology, GridTopology)
    if style != "chequered" and not gridded:
        sink.report(("look", "board"), f"look: board: {style} needs a grid board",
                    "look-board")
    for key in ("river", "point-marks"):
        if key in spec and style != "points":
            sink.report(("look", key), f"look: {key} needs board: points", "look-needs-points")

    def mask(path: tuple[str | int, ...], ref: RegionRef) -> int:
        return sink.located(("look", *path), lambda: board.resolve_region(ref)) or 0

    river = None
    if "river" in spec:
        sides = [mask(("river", "between", i), ref)
                 for i, ref in enumerate(spec["river"]["between"])]
        river = (sides[0], sides[1])
        if all(sides) and not _meet(board, Look(river=river)):
            sink.report(("look", "river", "between"), "look: river: the two regions have no "
                        "cells next to each other to run between", "look-river")
    piece_spec = spec.get("pieces", {})
    shape = piece_spec.get("shape", "figures")
    default_ink = INK[shape]
    inks = piece_spec.get("ink", {})
    characters: dict[int, Characters] = {}
    for name, chars in piece_spec.get("characters", {}).items():
        kind = pieces.by_name.get(name)
        if kind is None:
            sink.report(("look", "pieces", "characters", name), f"unknown piece '{name}'",
                        "unknown-piece", key=True)
            continue
        if isinstance(chars, str):
            characters[kind.index] = Characters((chars, chars))
            continue
        white, black = chars.get("white", chars.get("text")), chars.get("black", chars.get("text"))
        if white is None or black is None:
            sink.report(("look", "pieces", "characters", name), f"look: '{name}' needs `text` "
                        "(both sides' characters) or both `white` and `black`", "look-characters")
            continue
        characters[kind.index] = Characters((white, black), chars.get("international"),
                                            chars.get("figure"))
    return Look(
        board=style, colour=spec.get("colour", WOOD), river=river,
        river_text=spec.get("river", {}).get("text", ""),
        diagonals=tuple(mask(("diagonals", i), ref)
                        for i, ref in enumerate(spec.get("diagonals", []))),
        corner_dots=tuple(mask(("corner-dots", i), ref)
                          for i, ref in enumerate(spec.get("corner-dots", []))),
        point_marks=mask(("point-marks",), spec["point-marks"]) if "point-marks" in spec else 0,
        shape=shape, ink=(inks.get("white", default_ink[0]), inks.get("black", default_ink[1])),
        characters=characters)


def _meet(board: Board, river: Look) -> bool:
    """Whether the river's two regions have cells next to each other in a
    column of the board's layout (the river runs between rows)."""
    return any(river.across_river(a, b) for rows in board.layout
               for upper, lower in itertools.pairwise(rows)
               for a, b in zip(upper, lower, strict=False))
