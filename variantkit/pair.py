"""Two boards played as one game: bughouse and the games like it.

A variant whose file declares `hands: {captures: to-partner}` is one board
of a pair (bughouse, koedem, supply): two teams of two play it on boards A
and B, each player's partner holding the other colour on the other board.
A `Pair` holds the two `Game`s and plays them as one game: a move is made on
one board, and the piece it captures (as its `demotes-to` type: a promoted
pawn goes as a pawn) joins the hand of its own colour on the other board,
where the capturer's partner may drop it.  The moves of both boards form
one history, taken back in the order they were made.

The pair's position string is the two boards' joined by ` | ` (board A
first), as bughouse position strings are written.  The game ends when one
board ends; the team of the side that wins there wins (a draw there draws
the pair).  Teams are named by their colour on board A: `white` is board
A's White with board B's Black.

Games are read and written as bughouse PGN (BPGN): the tags WhiteA, BlackA,
WhiteB and BlackB name the players, each move is numbered with its board's
move number and the board's letter, upper case for White's moves and lower
case for Black's (`1A. e4 1B. d4 1a. e5 2A. Nf3 ...`), in the order they
were made; a game that does not start from the setup has a FEN tag with the
pair's position string.  The Result tag is board A's view: `1-0` is a win
for the team of board A's White.

    >>> from variantkit.pair import load_pair
    >>> pair = load_pair("bughouse")
    >>> _ = pair.push("A", "e2e4"), pair.push("A", "d7d5"), pair.push("A", "e4d5")
    >>> pair.game("B").hand("black")
    {'p': 1}
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from typing import NamedTuple, TypedDict

from rich.text import Text

from variantkit.core.moves import DOUBLE, EN_PASSANT, GATE, NORMAL
from variantkit.drawing.svg import render, side_by_side_svg
from variantkit.drawing.terminal import ansi, board_renderable, side_by_side, status_line
from variantkit.errors import IllegalMoveError, InvalidFenError, quote, shorten
from variantkit.game import Game
from variantkit.limits import MAX_POSITION_LENGTH
from variantkit.loader import bundled_hint, bundled_names
from variantkit.pgn import LINE_WIDTH, ROSTER_DEFAULTS, PgnError, parse_pgn, result_token
from variantkit.public_types import Move, Outcome
from variantkit.variant import Variant, load

BOARDS = ("A", "B")
# The move kinds that capture the piece on their target (or, en passant,
# the pawn passed): castling, passes, drops and promotions in place capture
# nothing, and suborning changes a piece's side without taking it.
CAPTURING_KINDS = frozenset({NORMAL, DOUBLE, EN_PASSANT, GATE})
SEPARATOR = " | "
# The BPGN tags written first, in this order.
BPGN_ROSTER = ("Event", "Site", "Date", "Round", "WhiteA", "BlackA", "WhiteB", "BlackB",
               "Result")
# A board's move number and letter, and maybe the move after them: `12b.`, `3A.e4`.
_NUMBERED = re.compile(r"(\d+)([AaBb])\.+(.*)")


class BoardMarks(TypedDict, total=False):
    """What `svg.render` marks on one board of a pair's drawing."""

    highlight: list[str]
    targets: dict[str, str]
    hand_highlight: str | None


class PairOutcome(NamedTuple):
    """How a pair's game ended: the winning team (`white`: board A's White
    and board B's Black; `black`: the other team; None: a draw), the board
    it ended on, and that board's own outcome."""

    winner: str | None
    board: str
    outcome: Outcome

    def __str__(self) -> str:
        """`board B: white wins by checkmate, so black's team wins`."""
        team = f"{self.winner}'s team wins" if self.winner else "the game is drawn"
        return f"board {self.board}: {self.outcome}, so {team}"


class Pair:
    """The two boards of a game played on a pair (see the module's docstring).

    `Pair(variant)` starts both boards from the variant's setup;
    `Pair(variant, fen)` from a pair's position string (`fenA | fenB`).
    """

    __slots__ = ("_passed", "_variant", "games")

    def __init__(self, variant: Variant, fen: str | None = None) -> None:
        if not plays_on_two_boards(variant):
            raise ValueError(f"{variant.name} is played on one board: a pair's variant "
                             "declares `hands: {captures: to-partner}`")
        self._variant = variant
        halves = (None, None) if fen is None else split_fen(fen)
        games = []
        for name, half in zip(BOARDS, halves, strict=True):
            try:
                games.append(variant.new_game(half))
            except InvalidFenError as exc:
                raise InvalidFenError(f"board {name}: {exc}") from exc
        self.games = (games[0], games[1])
        # The moves of both boards in the order they were made: the board's
        # index and the piece code passed to the other board (-1 for none).
        self._passed: list[tuple[int, int]] = []

    @property
    def variant(self) -> Variant:
        """The variant each board plays."""
        return self._variant

    def game(self, board: str) -> Game:
        """Board `A` or `B` as a `Game` (to read; play through the pair, so
        that captures reach the other board)."""
        return self.games[_index(board)]

    def legal_moves(self, board: str) -> list[Move]:
        """The legal moves on one board (none once the pair's game is over)."""
        if self.outcome() is not None:
            return []
        return self.game(board).legal_moves()

    def push(self, board: str, move: Move | str) -> Move:
        """Play a legal move (a `Move` or a move string) on one board; what
        it captures joins the other board's hand."""
        return self._play(board, lambda game: game.push(move))

    def push_san(self, board: str, text: str) -> Move:
        """Play a move given in SAN (or as a move string) on one board."""
        return self._play(board, lambda game: game.push_san(text))

    def parse_text(self, text: object) -> tuple[str, Move]:
        """A legal move written with its board, `A:e2e4` or `B:Nf3` (SAN or
        a move string, see `split_move`), as its board and the move.  An
        illegal move's error names its board."""
        board, written = split_move(text)
        if self.outcome() is not None:
            raise IllegalMoveError(f"the game is over ({self.outcome()})")
        try:
            return board, self.game(board).parse_san(written)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"board {board}: {exc}") from exc

    def push_text(self, text: object) -> tuple[str, Move]:
        """Play a move written with its board (see `parse_text`); return its
        board and the move."""
        board, move = self.parse_text(text)
        return board, self.push(board, move)

    def _play(self, board: str, play: Callable[[Game], Move]) -> Move:
        """Play a move on `board` with `play`, and pass what it captures."""
        index = _index(board)
        ended = self.outcome()
        if ended is not None:
            raise IllegalMoveError(f"the game is over ({ended})")
        game = self.games[index]
        moved = play(game)
        record = game.position.history[-1]
        kind, captured = record[0][3], record[2]
        passed = -1
        if captured and kind in CAPTURING_KINDS:
            passed = self.variant.rules.hands.to_partner[captured]
        if passed >= 0:
            self.games[1 - index].position.add_to_hand(passed)
        self._passed.append((index, passed))
        return moved

    def pop(self, board: str | None = None) -> tuple[str, Move]:
        """Take back the last move of the pair, or of one board, and return
        its board and the move.  A board's last move cannot be taken back
        once the piece it passed has been dropped on the other board."""
        if board is None:
            if not self._passed:
                raise IndexError("pop from a pair with no moves played")
            at = len(self._passed) - 1
        else:
            index = _index(board)
            at = next((i for i in range(len(self._passed) - 1, -1, -1)
                       if self._passed[i][0] == index), -1)
            if at < 0:
                raise IndexError(f"pop from board {board}, where no move was played")
        index, passed = self._passed[at]
        other = self.games[1 - index].position
        if passed >= 0:
            if not other.hands[passed]:
                raise ValueError(
                    f"board {BOARDS[index]}'s last move passed a piece that board "
                    f"{BOARDS[1 - index]} has dropped since: take that back first")
            other.add_to_hand(passed, -1)
        del self._passed[at]
        return BOARDS[index], self.games[index].pop()

    @property
    def move_stack(self) -> list[tuple[str, Move]]:
        """The moves played on both boards, oldest first, each with its board."""
        stacks = [iter(game.move_stack) for game in self.games]
        return [(BOARDS[index], next(stacks[index])) for index, _ in self._passed]

    def fen(self) -> str:
        """The pair's position string: board A's and board B's joined by ` | `."""
        return SEPARATOR.join(game.fen() for game in self.games)

    def outcome(self) -> PairOutcome | None:
        """None while both boards go on, else how the first board to end
        ended and which team that makes win."""
        for index, game in enumerate(self.games):
            ended = game.outcome()
            if ended is not None:
                winner = ended.winner
                if index == 1 and winner is not None:   # B's White plays for A's Black
                    winner = "black" if winner == "white" else "white"
                return PairOutcome(winner, BOARDS[index], ended)
        return None

    def copy(self) -> Pair:
        """An independent pair in the same position, history included."""
        twin = Pair.__new__(Pair)
        twin._variant = self._variant
        twin.games = (self.games[0].copy(), self.games[1].copy())
        twin._passed = list(self._passed)
        return twin

    def text(self, flip_b: bool = True, *, flip: bool = False, color: bool = False) -> str:
        """Both boards as text, side by side, each board's side to move
        under them, how the game ended, and the pair's position string;
        board B from Black's side unless `flip_b` is False, and `flip`
        turns both boards (as `svg` draws them).  With `color`, the text
        carries terminal (ANSI) styling, as `display.board_text`'s."""
        drawings = [board_renderable(game.position, status=False, flip=turned)
                    for game, turned in zip(self.games, self._turned(flip_b, flip), strict=True)]
        for drawing in drawings:
            drawing.rstrip()
        out = side_by_side(drawings, [f"board {name}" for name in BOARDS])
        for name, game in zip(BOARDS, self.games, strict=True):
            out.append(Text(f"\n{name}: {status_line(game.position).splitlines()[0]}"))
        ended = self.outcome()
        out.append(Text(f"\n{ended}" if ended else ""))
        out.append(Text(f"\n{self.fen()}\n"))
        return ansi(out) if color else out.plain

    def svg(self, flip_b: bool = True, *, flip: bool = False, size: float | None = None,
            pieces: str = "traditional",
            marks: Mapping[str, BoardMarks] | None = None) -> str:
        """Both boards drawn side by side in one SVG document, board B from
        Black's side (as its players sit beside their partners) unless
        `flip_b` is False; `flip` turns both boards.  `size` is each
        board's width in pixels and `pieces` the piece set, as for
        `svg.render`; `marks` gives a board's marks by its letter (the
        playground's selected piece and its targets).  Each board is a
        nested `<svg data-pair-board="A">` (or `B`)."""
        marks = marks or {}
        documents = [render(game, flip=turned, size=size, pieces=pieces, **marks.get(name, {}))
                     for name, game, turned in zip(BOARDS, self.games,
                                                   self._turned(flip_b, flip), strict=True)]
        return side_by_side_svg(documents, [f"board {name}" for name in BOARDS], keys=list(BOARDS))

    @staticmethod
    def _turned(flip_b: bool, flip: bool) -> tuple[bool, bool]:
        """Whether each board is drawn from Black's side."""
        return flip, flip != flip_b

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<Pair {self.variant.name} {self.fen()!r}>"

    def _repr_svg_(self) -> str:
        """Both boards in a notebook (Jupyter calls this)."""
        return self.svg()


def load_pair(name_or_path: str, fen: str | None = None) -> Pair:
    """A pair of boards of a bundled variant (or a variant file) that
    declares `hands: {captures: to-partner}`: `load_pair("bughouse")`."""
    return Pair(load(name_or_path), fen)


def plays_on_two_boards(variant: Variant) -> bool:
    """Whether `variant` is one board of a pair: its captures go to the
    partner's hand (`hands: {captures: to-partner}`)."""
    return bool(variant.document.data.get("hands", {}).get("captures") == "to-partner")


def split_move(text: object) -> tuple[str, str]:
    """A move written with its board, `A:e2e4`, `B:P@e5` or `b:Nf6` (the
    letter in either case), as the board and the move (an
    `IllegalMoveError` for anything else)."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move on a pair is a str, not {type(text).__name__}")
    board, colon, move = text.strip().partition(":")
    if not colon or board.upper() not in BOARDS or not move.strip():
        raise IllegalMoveError(f"a move on a pair names its board first (A:e2e4, B:Nf3), "
                               f"not {quote(text)}")
    return board.upper(), move.strip()


def split_fen(text: object) -> tuple[str, str]:
    """A pair's position string as its two boards' (an `InvalidFenError`
    for anything else)."""
    if not isinstance(text, str):
        raise InvalidFenError(f"a pair's position string is a str, not {type(text).__name__}")
    if len(text) > 2 * MAX_POSITION_LENGTH + len(SEPARATOR):
        raise InvalidFenError(f"a pair's position string of {len(text):,} characters, more "
                              f"than two boards' ({MAX_POSITION_LENGTH:,} each)")
    parts = [part.strip() for part in text.split("|")]
    if len(parts) != 2:
        raise InvalidFenError(f"a pair's position string is two position strings joined by "
                              f"' | ' (board A's, then board B's), not {quote(text)}")
    return parts[0], parts[1]


def _index(board: object) -> int:
    if board not in BOARDS:
        raise ValueError(f"a board is 'A' or 'B', not {board!r}")
    return BOARDS.index(str(board))


# -- bughouse PGN ----------------------------------------------------------------

def write_bpgn(pair: Pair, **tags: str) -> str:
    """The pair's game as bughouse PGN (see the module's docstring).
    Keyword arguments set tags (`WhiteA="Ann"`); Result defaults to the
    game's outcome, or `*` while it goes on."""
    start = pair.copy()
    while start.move_stack:
        start.pop()
    ended = pair.outcome()
    values = {name: ROSTER_DEFAULTS.get(name, "?") for name in BPGN_ROSTER}
    values["Result"] = "*" if ended is None else result_token(ended.winner)
    values["Variant"] = pair.variant.name
    if start.fen() != Pair(pair.variant).fen():
        values["SetUp"], values["FEN"] = "1", start.fen()
    values.update(tags)
    head = "".join(_tag_line(name, value) for name, value in values.items())
    tokens = []
    for board, move in pair.move_stack:
        game = start.game(board)
        tokens += [_move_number(game, board), game.san(move)]
        start.push(board, move)
    if ended is not None:
        tokens.append(f"{{{ended}}}")
    tokens.append(values["Result"])
    movetext = textwrap.fill(" ".join(tokens), LINE_WIDTH, break_long_words=False,
                             break_on_hyphens=False)
    return head + "\n" + movetext + "\n"


def read_bpgn(text: str, variant: Variant | None = None) -> Pair:
    """The first game of bughouse PGN text, replayed on `variant`, or on the
    bundled variant its Variant tag names (bughouse when there is none).
    Comments (a move's clock time, `{178.2}`) are skipped.  Every move's
    number must be the one its board is at (`1A.`, then `1a.`, `2A.` on
    board A): a wrong one is refused, with the game's move it was read at."""
    records = parse_pgn(text)
    if not records:
        raise PgnError("no game in the PGN text")
    record = records[0]
    if variant is None:
        name = record.tags.get("Variant", "bughouse").lower()
        if name not in bundled_names():
            raise PgnError(f"cannot load the variant of tag Variant {quote(name)} ("
                           f"{bundled_hint(name)}); pass the variant")
        variant = load(name)
    try:
        pair = Pair(variant, record.tags.get("FEN"))
    except InvalidFenError as exc:
        raise PgnError(f"bad FEN tag: {exc}") from exc
    except ValueError as exc:
        raise PgnError(str(exc)) from exc
    board: str | None = None  # the board of the number just read, until its move
    label = ""                # that number as written, for messages: `12b.`
    played = 0                # moves replayed, to say where an error is
    for token in record.moves:
        numbered = _NUMBERED.fullmatch(token)
        if numbered is not None:
            if board is not None:
                raise PgnError(f"move {label} (the game's move {played + 1}) has no move "
                               "after its number")
            number, letter, token = numbered[1], numbered[2], numbered[3]
            board, label = letter.upper(), f"{shorten(number)}{letter}."
            game = pair.game(board)
            expected = _move_number(game, board)
            # Compared as text: a number of thousands of digits is no int.
            if f"{number.lstrip('0') or '0'}{letter}." != expected:
                raise PgnError(f"move {label} (the game's move {played + 1}): board {board}'s "
                               f"next move is {game.turn}'s move {game.position.fullmove}, "
                               f"numbered {expected}")
            if not token:
                continue
        if board is None:
            raise PgnError(f"move {shorten(token)} (the game's move {played + 1}) has no board "
                           "and number before it (1A. for White on board A, 1a. for Black, "
                           "1B., 1b.)")
        try:
            pair.push_san(board, token)
        except IllegalMoveError as exc:
            raise PgnError(f"move {label} {shorten(token)} (the game's move {played + 1}): "
                           f"{exc}") from exc
        board = None
        played += 1
    if board is not None:
        raise PgnError(f"move {label} (the game's move {played + 1}) has no move after its "
                       "number")
    return pair


def _move_number(game: Game, board: str) -> str:
    """How BPGN numbers the next move on `board`: the board's move number,
    then its letter, upper case for White and lower case for Black (`12b.`)."""
    letter = board if game.position.stm == 0 else board.lower()
    return f"{game.position.fullmove}{letter}."


def _tag_line(name: str, value: str) -> str:
    """A PGN tag pair, its value's backslashes and quotes escaped."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]\n'
