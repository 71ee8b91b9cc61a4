"""Games as PGN (Portable Game Notation), for any variant.

Moves are written in the variant's own style, standard algebraic notation
unless its file declares another (`Nf3`, `O-O`, `e8=Q+`, `D~g2`, a drop
`P@e4`; shogi's `P-76`), or in the style asked for (`usi`, `wxf`, ...; see
`variantkit.notation.san`), numbered `1. e4 e5 2. ...` (a number before
each White turn), after the seven standard tags (Event, Site, Date, Round, White, Black,
Result), a `Variant` tag and a `Termination` tag (`normal` for a game that
ended, `unterminated` for one that goes on); a game that does not start from
the variant's setup also gets `SetUp "1"` and `FEN`.  A finished game's
outcome is also given in words, in a comment before the result (`{black
wins by checkmate}`).  Reading accepts every style and the library's move strings
(`e2e4`, `Ae1Bg1`, `f1~g2`, `P@e4`, a promotion to a promoted form
`b9b10+`), skips comments (`{...}`, `; ...`), NAGs (`$1`), annotation marks
(`!`, `?`, `+`, `#`) and variations (`(...)`), and replays the moves on the
variant named by the `Variant` tag (chess when there is none) or on the
variant given.  `iter_games` reads a file of any size one game at a time;
`read_games` and `read_pgn` take text of at most `MAX_PGN_LENGTH`
characters (docs/limits.md).

    >>> import variantkit
    >>> from variantkit.pgn import read_pgn, write_pgn
    >>> game = variantkit.load("chess").new_game()
    >>> _ = game.push("e2e4")
    >>> str(read_pgn(write_pgn(game)).move_stack[0])
    'e2e4'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from variantkit.errors import IllegalMoveError, InvalidFenError, quote, shorten
from variantkit.game import Game
from variantkit.limits import (
    MAX_PGN_GAME_LENGTH,
    MAX_PGN_GAMES,
    MAX_PGN_LENGTH,
    MAX_PGN_PLIES,
    MAX_PGN_TAGS,
)
from variantkit.loader import bundled_hint, bundled_names
from variantkit.notation.san import san_moves
from variantkit.variant import Variant, load

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
ROSTER_DEFAULTS = {"Date": "????.??.??"}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
LINE_WIDTH = 80
KEPT_ENTRIES = 64  # start positions (to copy) and tag spellings iter_games keeps
_TOKEN = re.compile(r"""
    (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | (?P<comment>\{[^}]*\}|;[^\n]*)
  | (?P<open>\{)
  | (?P<nag>\$\d+)
  | (?P<variation>[()])
  | (?P<result>1-0|0-1|1/2-1/2|\*)(?=\s|$|[()\[{;])
  | (?P<number>\d+\s*\.+)
  | (?P<move>[^\s{}()\[\];$]+)
  | (?P<bad>\S)
""", re.VERBOSE)


class PgnError(ValueError):
    """PGN text that cannot be read or replayed."""


@dataclass
class PgnRecord:
    """One game as read from PGN text, before it is replayed."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: str = "*"

    def variant_name(self) -> str:
        """The bundled variant the `Variant` tag names (PGN without the tag is
        a chess game, as the PGN standard has it).  A tag never names a file:
        PGN text may come from anywhere, so it must not make the reader load
        paths."""
        name = self.tags.get("Variant", "chess")
        if name.lower() not in bundled_names():
            raise PgnError(f"cannot load the variant of tag Variant {quote(name)} ("
                           f"{bundled_hint(name)}); pass the variant")
        return name.lower()

    def start(self, variant: Variant) -> Game:
        """The game's start position on `variant`: its FEN tag, or the setup."""
        try:
            return variant.new_game(self.tags.get("FEN"))
        except InvalidFenError as exc:
            raise PgnError(f"bad FEN tag: {exc}") from exc

    def replay(self, variant: Variant | None = None, start: Game | None = None) -> Game:
        """The game: the moves played on `variant`, or on the bundled variant
        the `Variant` tag names, from `start` (a fresh copy of this record's
        start position, when the caller has one) or from `self.start`."""
        if variant is None:
            variant = load(self.variant_name())
        game = start if start is not None else self.start(variant)
        for text in self.moves:
            number, side = game.position.fullmove, game.position.stm
            try:
                game.push_san(text)
            except IllegalMoveError as exc:
                dots = "." if side == 0 else "..."
                raise PgnError(f"move {number}{dots} {shorten(text)}: {exc}") from exc
        return game


def result_token(winner: str | None) -> str:
    """The PGN result for a game won by `winner` (None: a draw)."""
    return {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[winner]


def write_pgn(game: Game, style: str | None = None, **tags: str) -> str:
    """The game as PGN text, its moves in `style` (the variant's own by
    default: SAN, or shogi's `P-76`; see `variantkit.notation.san`).  Keyword
    arguments set tags (`White="Ann"`); Result defaults to the game's
    outcome, or `*` while it goes on."""
    start = game.copy()
    while start.plies:
        start.pop()
    outcome = game.outcome()
    result = "*" if outcome is None else result_token(outcome.winner)
    values = {name: ROSTER_DEFAULTS.get(name, "?") for name in ROSTER}
    values["Result"] = result
    values["Variant"] = game.variant.name
    start_fen = start.fen()
    if start_fen != game.variant.new_game().fen():
        values["SetUp"], values["FEN"] = "1", start_fen
    values.update(tags)
    values.setdefault("Termination", "unterminated" if values["Result"] == "*" else "normal")
    head = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in values.items())
    ending = [f"{{{outcome}}}"] if outcome is not None else []
    return head + "\n" + _wrap(_movetext(start, game, ending + [values["Result"]], style)) + "\n"


def iter_games(source: str | TextIO, variant: Variant | None = None) -> Iterator[Game]:
    """Each game of PGN text or of an open text file, replayed, one at a
    time: a file is read a line at a time as the games are asked for, so its
    size is not bounded, only each game's (`MAX_PGN_GAME_LENGTH`
    characters, `MAX_PGN_PLIES` moves).  Each variant the tags name is
    loaded once, and each start position is set up once."""
    names: dict[str | None, str] = {}   # Variant tags read, and the bundled name each gives
    loaded: dict[str, Variant] = {}
    starts: dict[tuple[str, str | None], Game] = {}
    for record in iter_records(source):
        played_on = variant
        if played_on is None:
            tag = record.tags.get("Variant")
            if tag not in names:
                _keep_few(names)
                names[tag] = record.variant_name()
            if names[tag] not in loaded:
                loaded[names[tag]] = load(names[tag])
            played_on = loaded[names[tag]]
        key = (played_on.name, record.tags.get("FEN"))
        if key not in starts:
            _keep_few(starts)
            starts[key] = record.start(played_on)
        yield record.replay(played_on, starts[key].copy())


def _keep_few(cache: dict[Any, Any]) -> None:
    """Empty one of iter_games's caches when it is full: a stream of games
    may name ever new positions and spellings."""
    if len(cache) >= KEPT_ENTRIES:
        cache.clear()


def read_games(text: str, variant: Variant | None = None) -> list[Game]:
    """Every game in the PGN text (at most `MAX_PGN_LENGTH` characters and
    `MAX_PGN_GAMES` games), replayed; `iter_games` reads a file of any size
    one game at a time."""
    _check_length(text)
    games: list[Game] = []
    for game in iter_games(text, variant):
        if len(games) == MAX_PGN_GAMES:
            raise PgnError(f"more than {MAX_PGN_GAMES:,} games in the PGN text: iter_games "
                           "reads any number, one at a time")
        games.append(game)
    return games


def read_pgn(text: str, variant: Variant | None = None) -> Game:
    """The first game in the PGN text, replayed."""
    _check_length(text)
    record = next(iter_records(text), None)
    if record is None:
        raise PgnError("no game in the PGN text")
    return record.replay(variant)


def parse_pgn(text: str) -> list[PgnRecord]:
    """The games in PGN text: tags, move strings and result, not replayed."""
    _check_length(text)
    return list(iter_records(text))


def iter_records(source: str | TextIO) -> Iterator[PgnRecord]:
    """The games of PGN text or of an open text file, one at a time: tags,
    move strings and result, not replayed."""
    current = PgnRecord()
    started = False  # the current record has tags or moves
    depth = 0        # nesting of variations being skipped
    begun = 0        # where the current record's text begins
    for match, offset in _tokens(source):
        if offset + match.end() - begun > MAX_PGN_GAME_LENGTH:
            raise PgnError(f"a game of more than {MAX_PGN_GAME_LENGTH:,} characters "
                           f"{_where(current)}")
        kind = match.lastgroup
        if kind in ("comment", "nag", "number"):
            continue
        if kind == "variation":
            depth += 1 if match.group() == "(" else -1
            if depth < 0:
                raise PgnError(f"unmatched ')' {_where(current)}")
            continue
        if kind == "open":
            raise PgnError(f"unclosed comment '{{' {_where(current)}")
        if depth:
            continue
        if kind == "tag":
            if current.moves:
                raise PgnError(f"tag {match.group('name')} after the moves {_where(current)}"
                               " (a result token is missing)")
            if len(current.tags) >= MAX_PGN_TAGS:
                raise PgnError(f"more than {MAX_PGN_TAGS} tags {_where(current)}")
            current.tags[match.group("name")] = re.sub(r"\\(.)", r"\1", match.group("value"))
            started = True
        elif kind == "result":
            current.result = match.group()
            yield current
            current, started, begun = PgnRecord(), False, offset + match.end()
        elif kind == "move":
            if len(current.moves) >= MAX_PGN_PLIES:
                raise PgnError(f"a game of more than {MAX_PGN_PLIES:,} moves {_where(current)}")
            # Marks stay: SAN reading drops them, and a move string to a
            # promoted form ends in `+` (`b2g7+`).
            current.moves.append(match.group())
            started = True
        else:
            raise PgnError(f"cannot read {quote(match.group())} {_where(current)}")
    if depth:
        raise PgnError(f"unclosed variation '(' {_where(current)}")
    if started:
        yield current


def _tokens(source: str | TextIO) -> Iterator[tuple[re.Match[str], int]]:
    """The tokens of PGN text or of an open file, each with the offset of
    the text it was matched in.  A file is read a line at a time; a comment
    left open at a line's end takes in the lines that follow up to one that
    closes it (as comments may span lines), at most one game's length."""
    if isinstance(source, str):
        for match in _TOKEN.finditer(source):
            yield match, 0
        return
    offset = 0
    text = source.readline(MAX_PGN_GAME_LENGTH + 1)
    while text:
        for match in _TOKEN.finditer(text):
            if match.lastgroup == "open" and len(text) <= MAX_PGN_GAME_LENGTH:
                # Read on to the line that closes the comment, then match again.
                more = _lines_to_close(source, MAX_PGN_GAME_LENGTH - len(text))
                if more:
                    offset += match.start()
                    text = text[match.start():] + more
                    break
            yield match, offset
        else:
            offset += len(text)
            text = source.readline(MAX_PGN_GAME_LENGTH + 1)


def _lines_to_close(source: TextIO, room: int) -> str:
    """The lines of `source` up to and including the first with a `}`, or as
    many as `room` characters allow."""
    lines: list[str] = []
    while room > 0:
        line = source.readline(room)
        lines.append(line)
        room -= len(line)
        if not line or "}" in line:
            break
    return "".join(lines)


def _check_length(text: str) -> None:
    if len(text) > MAX_PGN_LENGTH:
        raise PgnError(f"PGN text of {len(text):,} characters, more than the "
                       f"{MAX_PGN_LENGTH:,} read at once (iter_games reads any size)")


def _where(record: PgnRecord) -> str:
    """Where the reader is, for error messages."""
    if not record.moves:
        return "before the first move"
    return f"after move {len(record.moves)} ({shorten(record.moves[-1])})"


def _movetext(start: Game, game: Game, ending: list[str], style: str | None) -> str:
    """The numbered moves written in `style`, then the `ending` tokens."""
    # A number before each White turn (where a turn has several moves,
    # `turns:`, before its first move only), and before the first move.
    replay = start.copy()
    tokens = []
    for i, (text, move) in enumerate(zip(san_moves(start, game.move_stack, style),
                                         game.move_stack, strict=True)):
        position = replay.position
        if position.stm == 0 and (i == 0 or not position.turn_played()):
            tokens.append(f"{position.fullmove}.")
        elif i == 0:
            tokens.append(f"{position.fullmove}...")
        tokens.append(text)
        replay.push(move)
    return " ".join(tokens + ending)


def _wrap(text: str) -> str:
    lines: list[str] = []
    line = ""
    for token in text.split():
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    return "\n".join(lines + [line])


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
