"""Draw a position in the terminal, for any board the topology can lay out.

The drawing reads only `board.layout` (groups of rows of cell indices),
`board.labels` (each group's title, row labels and column labels),
`board.columns` (where a board has them: each cell's column, so that gaps
show) and `board.wraps` (the joined edges), so it knows nothing of grids:
several groups (planes) are drawn side by side, rows of different lengths (a
circular board's centre, say) are centred, and a seam is marked with `:`
beside the joined edges and a line under the board.  A group without
coordinates (a graph board's) is followed by the same rows of cell names.  In a variant with
pieces in hand, Black's hand is written over the board and White's under it
(`black hand: 2p n`), each piece's letter after its count when it has more
than one.  Flipped, each group is drawn as Black sees it, turned half
round, and the hands change places (the second board of a pair).

With `pieces="traditional"`, a piece whose variant's `look:` gives it
characters shows them instead of its letter (Black's prefixed with `v` when
its pieces are pentagons, whose direction tells the sides apart on a real
board, as Japanese game records do); columns are as wide as the widest
symbol counted in terminal cells, East Asian characters being two wide.
"""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from variantkit.core.position import Position, Positioned, position_of
from variantkit.notation.fen import write_fen
from variantkit.outcome import outcome
from variantkit.pieces import type_of
from variantkit.public_types import SIDES
from variantkit.rulebook.look import PIECE_SETS

GAP = "    "  # between groups drawn side by side
STYLES = {
    "white": "bold",
    "black": "bold red",
    "empty": "dim",
    "label": "cyan",
    "title": "bold underline",
    "check": "bold reverse red",
    "mark": "bold green",
}


def board_text(game: Positioned, color: bool = False, pieces: str = "international") -> str:
    """The position (a `Game`'s or a core position) as text: the board, the
    side to move (and check), the FEN.

    With `color`, the text carries terminal (ANSI) styling made by rich.
    `pieces="traditional"` writes the characters the variant's look gives
    its pieces; `international` (the default) their letters.
    """
    text = board_renderable(position_of(game, "board_text"), pieces=pieces)
    return ansi(text) if color else text.plain


def ansi(text: Text) -> str:
    """A styled drawing as text with terminal (ANSI) styling."""
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="standard",
                      width=max(80, text.cell_len + 1), highlight=False)
    console.print(text, end="", soft_wrap=True)
    return buffer.getvalue()


def board_renderable(position: Position, marks: dict[int, str] | None = None,
                     status: bool = True, pieces: str = "international",
                     flip: bool = False) -> Text:
    """The same drawing as a styled rich `Text` (its `.plain` is the plain text).

    `marks` puts a symbol of its own on some cells (the destinations that
    `variantkit explain` shows); `status` adds the side to move and the FEN;
    `pieces` is the piece set (see `board_text`); `flip` turns each group
    half round, as Black sees it, with White's hand over it.
    """
    if pieces not in PIECE_SETS:
        raise ValueError(f"unknown piece set '{pieces}' (sets: {', '.join(PIECE_SETS)})")
    board = position.rules.board
    groups = []
    for i, rows in enumerate(board.layout):
        labels = board.labels[i] if i < len(board.labels) else None
        columns = board.columns[i] if board.columns else None
        if flip:
            rows, labels, columns = _turned(rows, labels, columns)
        groups.append(_group_lines(position, rows, labels, marks or {}, columns,
                                   traditional=pieces == "traditional"))
        if labels is None or not (any(labels[1]) or labels[2]):
            # No coordinates (a graph board): the cells' names, laid out alike.
            groups.append(_group_lines(position, rows, None, {}, columns, names=True))
    titled = any(title for title, _ in groups)
    blocks: list[list[Text]] = []
    for title, lines in groups:
        head = [Text(title, style=STYLES["title"])] if titled else []
        blocks.append(head + lines)
    height = max((len(b) for b in blocks), default=0)
    widths = [max((line.cell_len for line in b), default=0) for b in blocks]
    out = Text()
    hands = position.rules.hands.has_hands
    far, near = ("white", "black") if flip else ("black", "white")
    if hands:
        out.append_text(hand_line(position, far))
    for row in range(height):
        line = Text()
        for i, block in enumerate(blocks):
            piece = block[row] if row < len(block) else Text()
            if i:
                line.append(GAP)
            line.append_text(piece)
            if i < len(blocks) - 1:  # pad to the group's width; no trailing blanks
                line.append(" " * (widths[i] - piece.cell_len))
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    if hands:
        out.append_text(hand_line(position, near))
    for axis in board.wraps:
        out.append(f"{axis} wrap around: the last {axis[:-1]} is next to the first\n",
                   style=STYLES["label"])
    if status:
        out.append("\n")
        out.append_text(_status(position))
    return out


def _turned(rows: list[list[int]], labels: tuple[str, list[str], list[str]] | None,
            columns: list[list[int]] | None,
            ) -> tuple[list[list[int]], tuple[str, list[str], list[str]] | None,
                       list[list[int]] | None]:
    """A group turned half round, as the other side sees it: its rows and
    each row's cells in reverse order, row and column labels with them, and
    each cell's column mirrored."""
    turned = [row[::-1] for row in rows[::-1]]
    if labels is not None:
        title, row_labels, col_labels = labels
        padded = [row_labels[r] if r < len(row_labels) else "" for r in range(len(rows))]
        labels = (title, padded[::-1], col_labels[::-1])
    if columns is not None:
        span = max((c + 1 for row in columns for c in row), default=0)
        columns = [[span - 1 - c for c in row[::-1]] for row in columns[::-1]]
    return turned, labels, columns


def _group_lines(position: Position, rows: list[list[int]],
                 labels: tuple[str, list[str], list[str]] | None,
                 marks: dict[int, str], columns: list[list[int]] | None = None,
                 names: bool = False, traditional: bool = False) -> tuple[str, list[Text]]:
    """One group (plane): its title and its lines, row labels at the left and
    column labels underneath; with `columns`, each cell in its own column.
    With `names`, each cell shows its name instead of its piece; with
    `traditional`, a piece shows its look's characters where it has them."""
    title, row_labels, col_labels = labels if labels is not None else ("", [], [])
    rules = position.rules

    def symbol(cell: int) -> str:
        if names:
            return rules.board.names[cell]
        if cell in marks:
            return marks[cell]
        if position.walls >> cell & 1:
            return str(rules.setup.hole_mark)
        code = position.cells[cell]
        if not code:
            return "."
        text = rules.look.text(rules.pieces.types[type_of(code)], code & 1,
                                 "traditional") if traditional else None
        if text is None:
            return rules.letter_of_code(code)
        return ("v" if code & 1 and rules.look.shape == "pentagons" else "") + text

    letters = [[symbol(c) for c in row] for row in rows]
    width = max([1] + [len(s) for s in col_labels] + [cell_len(s) for r in letters for s in r])
    label_width = max([0] + [len(s) for s in row_labels[:len(rows)]])
    checked_name = position.checked_cell()
    checked = rules.board.index[checked_name] if checked_name else None
    longest = max((len(row) for row in rows), default=0)
    span = max((c + 1 for row in columns for c in row), default=0) if columns else longest
    board = rules.board
    seam = " :" if "files" in board.wraps else ""
    lines: list[Text] = []
    if "ranks" in board.wraps:
        lines.append(Text(" " * (label_width + len(seam) + 1) + ":" * (span * (width + 1) - 1)))
    for r, row in enumerate(rows):
        line = Text()
        label = row_labels[r] if r < len(row_labels) else ""
        line.append(label.rjust(label_width), style=STYLES["label"])
        line.append(seam)
        # Shorter rows are centred: a hexagon's narrow ranks, a disk's centre.
        if columns is None:
            line.append(" " * ((longest - len(row)) * (width + 1) // 2))
        at = 0
        for c, (cell, letter) in enumerate(zip(row, letters[r], strict=True)):
            if columns is not None:  # gaps where the row has none of its cells
                line.append(" " * ((width + 1) * (columns[r][c] - at)))
                at = columns[r][c] + 1
            line.append(" ")
            if names:
                style = STYLES["label"]
            elif cell == checked:
                style = STYLES["check"]
            elif cell in marks:
                style = STYLES["mark"]
            elif letter == ".":
                style = STYLES["empty"]
            else:
                style = STYLES["black" if position.cells[cell] & 1 else "white"]
            line.append(_centred(letter, width), style=style)
        line.append(seam)
        lines.append(line)
    if "ranks" in board.wraps:
        lines.append(lines[0].copy())
    if col_labels:
        footer = Text(" " * (label_width + len(seam)))
        for name in col_labels:
            footer.append(" ")
            footer.append(name.center(width), style=STYLES["label"])
        lines.append(footer)
    return title, lines


def side_by_side(drawings: list[Text], titles: list[str]) -> Text:
    """Drawings next to each other, each under its title (the two boards of
    a pair, `variantkit.pair`), with the gap planes are drawn with."""
    blocks = [[Text(title, style=STYLES["title"]), *drawing.split("\n", allow_blank=True)]
              for title, drawing in zip(titles, drawings, strict=True)]
    widths = [max(line.cell_len for line in block) for block in blocks]
    out = Text()
    for row in range(max(len(block) for block in blocks)):
        line = Text()
        for i, block in enumerate(blocks):
            piece = block[row] if row < len(block) else Text()
            line.append(GAP if i else "")
            line.append_text(piece)
            line.append(" " * (widths[i] - piece.cell_len))
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    return out


def _centred(text: str, width: int) -> str:
    """`text` centred in `width` terminal cells (as str.center, counting
    the cells each character takes)."""
    spare = max(0, width - cell_len(text))
    return " " * (spare // 2) + text + " " * (spare - spare // 2)


def hand_text(hand: dict[str, int]) -> str:
    """A hand in words: `2P N` (a count before a letter held more than
    once), `-` when it is empty."""
    return " ".join(f"{count}{letter}" if count > 1 else letter
                    for letter, count in hand.items()) or "-"


def hand_line(position: Position, side: str) -> Text:
    """One side's hand, as a line of its own."""
    line = Text(f"{side} hand: ", style=STYLES["label"])
    line.append(hand_text(position.hand(side)), style=STYLES[side])
    line.append("\n")
    return line


def status_line(position: Position) -> str:
    """The side to move, check or the result, and the position string, as plain text."""
    return _status(position).plain.rstrip("\n")


def _status(position: Position) -> Text:
    """Side to move, check or the game's end, and the position string."""
    status = Text(f"{SIDES[position.stm].capitalize()} to move")
    if position.is_check():
        status.append(", ")
        status.append("check", style=STYLES["check"])
    result = outcome(position)
    if result is not None:
        status.append(f" (game over: {result})")
    status.append(f"\nFEN: {write_fen(position)}\n")
    return status
