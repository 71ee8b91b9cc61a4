"""The setup (`setup:`, `numbered-setups:`) and how positions are written
(`position-string:`): the start position string, its placement read into
piece codes, the hole mark and its slots, and the shuffled setups.

The placement reader lives here, below the position core, so that the
rules can read their own setup when a variant loads; the notation stage
reads whole position strings with it.
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple, Required, TypedDict

from variantkit.board import SIDE_NAMES, Board, SideRegions
from variantkit.errors import InvalidFenError, quote
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook import board_regions
from variantkit.rulebook.sink import Sink
from variantkit.rulebook.walls import WallsDeclaration

# A run of empty cells is ASCII digits only: `\d` would also take other
# scripts' digits, and str.isdigit() superscripts that int() refuses.
# A promoted form's letter is two characters, `+P` or `Q~`.
_RUN_OR_LETTER = re.compile(r"[0-9]+|\+.|[^0-9]~|.", re.DOTALL)
# The pieces in hand after the placement, in brackets: `[QRbn]`.
_HAND = re.compile(r"\[([^\[\]]*)\]$")


# `position-string:` as the schema admits it (its keys are not names,
# hence the functional form; so below).
PositionStringDeclaration = TypedDict("PositionStringDeclaration", {
    "moved-field": bool,
    "holes": str,                    # the hole mark, one character
    "initial-rights": list[str],     # read by `rulebook.first_moves`
}, total=False)

# One step of `numbered-setups: {steps: ...}`.
NumberedStepDeclaration = TypedDict("NumberedStepDeclaration", {
    "pieces": Required[list[str]],
    "colour-of": str,                # a cell: the pieces go on cells of its colour
}, total=False)


class NumberedSetupsDeclaration(TypedDict):
    """`numbered-setups:`."""

    regions: SideRegions
    steps: list[NumberedStepDeclaration]


# The keys of the declaration this family reads; walls in the setup
# (`walls:`, `petrify:`) are written with the hole mark.
SetupKeys = TypedDict("SetupKeys", {
    "setup": Required[str],
    "position-string": PositionStringDeclaration,
    "numbered-setups": NumberedSetupsDeclaration,
    "walls": WallsDeclaration,
    "petrify": list[str],
}, total=False)


class Setup(NamedTuple):
    """The start position and the conventions of position strings."""

    fen: str                     # the start position string, as declared
    cells: dict[int, int]        # its placement, cell -> piece code ({} when it does not read)
    hole_mark: str | None        # holes written in position strings (Fairy-Stockfish's `*`)
    # The rows with a slot per column, -1 where there is no cell (see
    # `rulebook.board_regions.hole_slots`); None where the board's own layout serves.
    slots: list[list[list[int]]] | None
    moved_field: bool            # a seventh field lists the cells of pieces that have moved
    numbered: NumberedSetupsDeclaration | None   # read by `numbered_placement`

    def layout(self, board: Board) -> list[list[list[int]]]:
        """The rows position strings write: the slots, or the board's layout."""
        return self.slots or board.layout


def compile_setup(sink: Sink, data: SetupKeys, board: Board,
                  letter_codes: dict[str, int]) -> Setup:
    """The setup and the position-string conventions; a setup whose
    placement does not read is a problem at `setup`."""
    fen: str = data["setup"]
    written = data.get("position-string", {})
    hole_mark: str | None = written.get("holes")
    slots = board_regions.hole_slots(sink, board, hole_mark)
    cells: dict[int, int] = {}
    try:
        # Walls in the setup (`walls:`, `petrify:`) are read with the rest.
        walled: set[int] | None = set() if "walls" in data or "petrify" in data else None
        cells = parse_placement(slots or board.layout, hole_mark, letter_codes,
                                fen.split()[0], walled)
    except (InvalidFenError, IndexError) as exc:
        sink.report(("setup",), f"setup: {exc or 'empty position string'}", "bad-setup")
    return Setup(fen, cells, hole_mark, slots, bool(written.get("moved-field", False)),
                 data.get("numbered-setups"))


def parse_placement(layout: list[list[list[int]]], mark: str | None, letter_codes: dict[str, int],
                    placement: str, walls: set[int] | None = None) -> dict[int, int]:
    """Read the placement field into {cell: piece code}, on the rows of
    `layout` (planes of rows of cells, -1 for a hole written `mark`), the
    letters of `letter_codes`; with `walls`, the hole mark on a cell is a
    wall (a petrified piece, or one `walls:` put), added to the set.
    The pieces in hand (in brackets after it) are not part of it."""
    placement = split_hand(placement)[0]
    groups = placement.split("|")
    if len(groups) != len(layout):
        raise InvalidFenError(
            f"placement '{placement}' has {len(groups)} plane(s) separated by '|', "
            f"the board has {len(layout)}")
    pieces: dict[int, int] = {}
    for group_text, rows in zip(groups, layout, strict=True):
        row_texts = group_text.split("/")
        if len(row_texts) != len(rows):
            raise InvalidFenError(
                f"placement part {quote(group_text)} has {len(row_texts)} rows, "
                f"the board has {len(rows)}")
        for row_text, row in zip(row_texts, rows, strict=True):
            column = 0
            for token in _RUN_OR_LETTER.findall(row_text):
                if token[0] in "0123456789":
                    if len(token) > len(str(len(row))):  # more digits than the row needs
                        raise InvalidFenError(f"empty run {quote(token)} in {quote(row_text)} "
                                              f"is longer than the row ({len(row)} cells)")
                    if -1 in row[column:column + int(token)]:
                        raise InvalidFenError(f"empty run {quote(token)} in {quote(row_text)} "
                                              f"covers a hole, written {quote(mark or '')}")
                    column += int(token)
                    continue
                hole = column < len(row) and row[column] == -1
                if token == mark:
                    if column < len(row) and not hole:
                        if walls is None:
                            raise InvalidFenError(f"{quote(token)} in {quote(row_text)} stands "
                                                  "on a cell, not on a hole")
                        walls.add(row[column])
                    column += 1
                    continue
                code = letter_codes.get(token)
                if code is None:
                    raise InvalidFenError(
                        f"unknown piece letter {quote(token)} in {quote(row_text)}")
                if hole:
                    raise InvalidFenError(f"piece {quote(token)} in {quote(row_text)} stands "
                                          f"on a hole, written {quote(mark or '')}")
                if column < len(row):
                    pieces[row[column]] = code
                column += 1
            if column != len(row):
                raise InvalidFenError(
                    f"row {quote(row_text)} covers {column} cells, the board's row has "
                    f"{len(row)}")
    return pieces


def split_hand(placement: str) -> tuple[str, str | None]:
    """The placement field without its hand in brackets, and the hand's
    text (None when there are no brackets)."""
    found = _HAND.search(placement)
    if found is None:
        return placement, None
    return placement[:found.start()], found[1]


def numbered_placement(setup: Setup, board: Board, pieces: PieceSet,
                       letter_codes: dict[str, int], name: str, number: int) -> dict[int, int]:
    """The placement (cell -> piece code) of the start position numbered
    `number` among the variant's shuffled setups (`numbered-setups`);
    raises ValueError when there is none.  A step naming an unknown piece
    raises KeyError, a region that does not resolve DeclarationError.

    Each step places its pieces on the free cells of White's region (of
    one colour if asked): the choice is one digit of the number, the
    first step the lowest digit, cells chosen as combinations in cell
    order.  Black's pieces stand on the same files of its region."""
    spec = setup.numbered
    if spec is None:
        raise ValueError(f"{name} has no numbered setups")
    rows = [board.cells_of(board.resolve_region(spec["regions"][side]))
            for side in SIDE_NAMES]
    placed = parse_placement(setup.layout(board), setup.hole_mark, letter_codes,
                             setup.fen.split()[0])
    for row in rows:
        for cell in row:
            placed.pop(cell, None)
    free = list(range(len(rows[0])))
    left, count = number, 1
    for step in spec["steps"]:
        names = step["pieces"]
        colour = step.get("colour-of")
        usable = [i for i in free if colour is None
                  or board.colours[rows[0][i]] == board.colours[board.cell(colour)]]
        choices = list(itertools.combinations(usable, len(names)))
        if not choices:
            raise ValueError(f"numbered-setups: no room for {', '.join(names)}")
        left, digit = divmod(left, len(choices))
        count *= len(choices)
        for index, piece in zip(choices[digit], names, strict=True):
            kind = pieces.by_name[piece].index
            for side in range(2):
                placed[rows[side][index]] = piece_code(kind, side)
            free.remove(index)
    if left or number < 0:
        raise ValueError(f"{name} numbers its setups from 0 to {count - 1}")
    return placed
