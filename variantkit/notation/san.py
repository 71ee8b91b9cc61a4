"""Written moves for every variant, in standard algebraic notation (SAN) or
in another of the `STYLES` a game's players use: part of the notation stage.

A variant's file says which style its moves are written in by default
(`notation: style`, SAN unless it says otherwise: shogi's games write
`P-76`), which others its tradition offers, and the letters its pieces are
written with where they are not their position-string letters (xiangqi's
horse `H`).  Every function that writes takes a `style`; reading takes
every style.  The shogi styles (`hodges-number` `P-76`, `hodges` `P-7f`,
`hosking` `P76`), `usi` (`7g7f`) and xiangqi's `wxf` (`H2+3`) are written
as Fairy-Stockfish writes them (USI has no Fairy-Stockfish notation: it
is Hodges's cells run together); see docs/notation.md#styles.

In SAN a move is written, as in chess, from these parts:

    piece letter, disambiguation, `x` (capture), `~` (suborn) or `<->` (swap),
    destination cell,
    `=` and the promotion letter, then `+` (check) or `#` (checkmate)

- The piece letter is the moving piece's uppercase letter, or the one its
  variant declares; a piece that promotes to a choice of pieces (chess's
  pawn) has none unless declared, one with its own promoted form (shogi's
  `+P`) keeps it.
- The disambiguation is left out unless another legal move would be written
  the same.  It is then the first part of the from-cell's name that tells the
  moves apart, else the first run of consecutive parts that does (shortest
  first), at last the whole name.  A name's parts are its runs of lowercase
  letters, uppercase letters and digits, in order: `e` and `4` for `e4`, `B`,
  `e` and `4` for `Be4`, `d` and `3` for `d3`.  On a chess board this is the
  file, then the rank, then the square.  A capture by a piece without a
  letter always names a part of its from-cell (`exd5`).
- Castling is `O-O` and `O-O-O` where a side has exactly two castlings of
  one king staying on its plane: on a grid `O-O` goes towards the later
  files (the h-side, as Fairy-Stockfish writes it whatever the rooks'
  distances), elsewhere `O-O` is the castling with the nearer rook; any
  other castling is written as the king's move (`KBg1`).
- A suborn is the diplomat's letter, `~` and the converted piece's cell
  (`D~g2`); a swap (`swaps:`) is the piece's letter, `<->` and the cell of
  the enemy piece it changes places with (`R<->h8`, `Ra<->h8`), a piece
  without a letter naming a part of its cell (`e<->d5`); a plane-shift or
  any other move is a move to its destination.
- A gating move ends with `/` and the gated piece's letter (`Nc3/H`), a
  castling with gating also with the cell it is put on (`O-O/He1`), as
  Fairy-Stockfish writes them.
- A move that also puts a wall on a cell (`walls:`) ends with a comma and
  the wall's cell (`e4,e5`, `Qdd7,d8`, `O-O,b1`), as Fairy-Stockfish
  writes it.
- A drop from the hand is written as its move string, the piece's
  uppercase letter, `@` and the cell (`P@e4`), as Fairy-Stockfish writes it.

Reading takes the move string first (`g1f3`; on Strato's board `Bf1Cg2`
would also read as a bishop's SAN), then the variant's own style, the
strict SAN spellings (every disambiguation the parts allow, `Ngf3` as well
as `Nf3`), the other styles, then lenient SAN: `0-0`, a capture without
`x`, a promotion without `=` or in lower case, a pawn with its letter
(`Pe4`) or without a declared one (`ab3`), a piece by its position-string
letter (`Nc3` for xiangqi's `Hc3`), a castling as the king's move.
Writing checks that what it writes reads back as the same move alone (else
it writes the move string), so every style round-trips on any board.

Nothing here runs on the move generator's hot path: a position's SAN is
worked out from its list of legal moves when asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from variantkit.board import GridTopology
from variantkit.castling_moves import segment
from variantkit.core.moves import (
    CASTLE,
    CASTLE_GATE,
    DROP,
    EN_PASSANT,
    GATE,
    NORMAL,
    REMOTE,
    SUBORN,
    SWAP,
    WALLED,
    InternalMove,
    gate_parts,
    wall_parts,
)
from variantkit.core.position import Position, Positioned, position_of
from variantkit.errors import QUOTE_LENGTH, IllegalMoveError, quote
from variantkit.limits import MAX_SAN_LENGTH
from variantkit.notation.fen import SWAP_MARK, explain_bad_move, parse_move
from variantkit.outcome import outcome
from variantkit.pieces import type_of
from variantkit.public_types import SIDES, Move
from variantkit.rulebook.notation import STYLES, fits

if TYPE_CHECKING:
    from variantkit.rules import Rules

MAX_TEXT = MAX_SAN_LENGTH  # longer move text is refused before any work is done
CASTLE_SHORT, CASTLE_LONG = "O-O", "O-O-O"
ANNOTATIONS = "+#!?"
_PART = re.compile(r"[a-z]+|[A-Z]+|[0-9]+|.")


@dataclass(frozen=True)
class _Entry:
    """One legal move with what its SAN needs to know."""

    move: Move
    internal: InternalMove
    letter: str       # the SAN letter: "" for a piece that promotes
    own_letter: str   # the piece's letter in written moves, always
    piece: str        # the piece's name, for messages
    capture: bool
    promotion: str    # the new piece's uppercase letter, or ""
    castle: str       # CASTLE_SHORT, CASTLE_LONG, or "" (not written as O-O)
    gate: str = ""    # gating: `/H`, or after a castling `/He1`; a wall: `,e5`
    drop: str = ""    # a drop's only spelling, `P@e4`, or ""
    could_promote: bool = False   # not promoting where a move to a promoted form may
    # Letters also read in lenient SAN: the position-string letter where moves
    # write another (xiangqi's `N`), none for a pawn written with one (`ab3`).
    also: tuple[str, ...] = ()
    # A two-step capture: `x` and the midway cell, written before its end
    # cell, which follows `x` (a second capture) or `-` (`Nxg6-h5`).
    via: str = ""


def san(game: Positioned, move: object, style: str | None = None) -> str:
    """A legal move (a `Move` or a move string) written in a game's position,
    in `style` (one of `STYLES`; the variant's own by default)."""
    position = position_of(game, "san")
    spellings = _Spellings(position, _entries(position))
    return spellings.write(_entry_of(position, spellings.entries, move), style)


def san_moves(game: Positioned, moves: Iterable[Move | str],
              style: str | None = None) -> list[str]:
    """A sequence of moves played from a game's position (which is left as
    it was), written in `style` (the variant's own by default)."""
    position = position_of(game, "san_moves")
    played = 0
    out: list[str] = []
    try:
        for move in moves:
            spellings = _Spellings(position, _entries(position))
            entry = _entry_of(position, spellings.entries, move)
            out.append(spellings.write(entry, style))
            position.make_internal(entry.internal)
            played += 1
    finally:
        for _ in range(played):
            position.unmake_internal()
    return out


def legal_san(game: Positioned, style: str | None = None) -> list[str]:
    """Every legal move written in `style` (the variant's own by default),
    in the order of `Game.legal_moves`."""
    position = position_of(game, "legal_san")
    spellings = _Spellings(position, _entries(position))
    return [spellings.write(entry, style) for entry in spellings.entries]


def parse_san(game: Positioned, text: object) -> Move:
    """The legal move that SAN (or a move string) names; `IllegalMoveError`
    says why when there is none or more than one."""
    position = position_of(game, "parse_san")
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move is written as SAN or a move string, not {text!r}")
    if len(text) > MAX_TEXT:
        raise IllegalMoveError(
            f"move text of {len(text)} characters is too long (at most {MAX_TEXT})")
    body = text.strip().rstrip(ANNOTATIONS)
    if not body:
        raise IllegalMoveError(f"empty move text {text!r}")
    spellings = _Spellings(position, _entries(position))
    # A promotion to a `+` form ends its move string in `+` (`b2g7+`): read
    # the text with its marks first, then without them.
    whole = text.strip().rstrip("!?")
    found = spellings.read(whole) if whole != body else []
    if len(found) != 1:
        found = spellings.read(body)
    if len(found) == 1:
        return found[0].move
    if found:
        spelt = " or ".join(spellings.write(e) for e in found)
        raise IllegalMoveError(f"ambiguous move '{body}': it could be {spelt}")
    raise IllegalMoveError(_explain(position, spellings, body))


# -- the legal moves, described ------------------------------------------------


def _entries(position: Position) -> list[_Entry]:
    rules = position.rules
    # Pieces written without a letter, as chess's pawn: those that promote
    # to a choice of pieces (`pieces` with `choices`).  A piece with its own
    # promoted type (shogi's, `promotes-to`) keeps its letter, as
    # Fairy-Stockfish writes it.
    promoting = rules.promotion.pawn_like[position.stm]
    legal = position.legal_internal()
    castles = _castle_names(position, position.stm) \
        if any(m[3] in (CASTLE, CASTLE_GATE, WALLED + CASTLE) for m in legal) else {}
    out: list[_Entry] = []
    for internal in legal:
        frm, to, promo, kind, extra = internal
        wall = ""
        if kind >= WALLED:   # written as the move without it, a comma and the wall's cell
            (_, _, _, kind, extra), wall_cell = wall_parts(internal)
            wall = "," + rules.board.names[wall_cell]
        if kind == DROP:
            out.append(_drop_entry(position, internal))
            continue
        gate = ""
        if kind in (GATE, CASTLE_GATE):
            kind, extra, gate_cell, gate_code = gate_parts(internal)
            gate = "/" + rules.letter_of_code(gate_code).upper() + \
                (rules.board.names[gate_cell] if kind == CASTLE else "")
        code = position.cells[frm]
        kind_of_piece = rules.pieces.types[type_of(code)]
        # A pass (janggi's: the king's move to its own cell) captures nothing.
        # A NORMAL move's `extra`: the cells it takes besides its landing cell.
        capture = kind == EN_PASSANT or (kind == NORMAL and extra != 0) \
            or (kind not in (CASTLE, SUBORN, SWAP, REMOTE) and frm != to
                and position.cells[to] != 0)
        promotion = rules.letter_of_code(promo).upper().rstrip("~") if promo else ""
        move = position.public_move(internal)
        # A promoted piece is written by the letter it looks like (`Q~` moves
        # as `Q`), unless the variant declares the piece's letter.
        declared = rules.notation.letters.get(type_of(code))
        plain = kind_of_piece.letter.rstrip("~")
        letter = declared or plain
        bare = "" if code in promoting else letter
        out.append(_Entry(move=move, internal=internal,
                          letter=bare if declared is None else declared,
                          own_letter=letter, piece=kind_of_piece.name,
                          capture=capture, promotion=promotion,
                          castle=castles.get(extra, "") if kind == CASTLE else "",
                          gate=gate + wall, also=(plain, bare),
                          via="x" + move.via if move.via else ""))
    # The moves that could promote into a promoted form and do not (shogi's `=`).
    promotable = {(e.internal[0], e.internal[1]) for e in out if e.move.promotion == "+"}
    return [replace(e, could_promote=True) if (e.internal[0], e.internal[1]) in promotable and
            not e.move.promotion and not e.drop else e for e in out]


def _drop_entry(position: Position, internal: InternalMove) -> _Entry:
    piece = position.rules.pieces.types[type_of(internal[2])]
    move = position.public_move(internal)
    letter = move.drop or ""
    return _Entry(move=move, internal=internal, letter=letter, own_letter=letter,
                  piece=piece.name, capture=False, promotion="", castle="", drop=str(move))


def _castle_names(position: Position, side: int) -> dict[int, str]:
    """Castling index -> `O-O` or `O-O-O`, for the castlings written so: a
    king with exactly two castlings that keep it on its plane, the rooks at
    different distances in the variant's declaration.  Under free castling
    a position's castlings are named after the declared ones they follow."""
    rules = position.rules
    names = _declared_castle_names(rules, side)
    if not rules.castling.free_castling:
        return names
    by_right = {rules.castling.castlings[i].right: name for i, name in names.items()}
    return {index: by_right[c.right] for index, c in position.castlings_by_side[side]
            if c.right in by_right}


def _declared_castle_names(rules: Rules, side: int) -> dict[int, str]:
    """On a grid, `O-O` is the castling towards the later files (the
    h-side) and `O-O-O` the other, as Fairy-Stockfish writes them whatever
    the rooks' distances (Embassy chess, 9x9 Modern chess); elsewhere `O-O`
    is the castling with the nearer rook."""
    topology = rules.board.topology
    files = topology.files if isinstance(topology, GridTopology) else 0
    by_king: dict[int, list[tuple[int, int]]] = {}
    for index, c in rules.castling.by_side[side]:
        if topology.plane_of(c.king_from) == topology.plane_of(c.king_to):
            if files:
                # Towards the later files first, so that sorting puts it first.
                order = -1 if c.rook_from % files > c.king_from % files else 1
            else:
                order = len(segment(rules.board, c.king_from, c.rook_from, c.king_to))
            by_king.setdefault(c.king_from, []).append((order, index))
    names: dict[int, str] = {}
    for pair in by_king.values():
        if len(pair) == 2 and pair[0][0] != pair[1][0]:
            (_, short), (_, long) = sorted(pair)
            names[short], names[long] = CASTLE_SHORT, CASTLE_LONG
    return names


def _entry_of(position: Position, entries: list[_Entry], move: object) -> _Entry:
    if not isinstance(move, Move | str):
        raise IllegalMoveError(
            f"a move is a Move or a move string, not {repr(move)[:QUOTE_LENGTH]}")
    if isinstance(move, Move) and move.promotion:
        move = replace(move, promotion=move.promotion.lower())
    text = str(move)
    for entry in entries:
        if str(entry.move) == text:
            return entry
    legal = position.legal_internal()
    raise IllegalMoveError(explain_bad_move(position, text, legal))


# -- spellings -----------------------------------------------------------------


def name_parts(name: str) -> list[str]:
    """A cell name's parts: runs of lowercase letters, uppercase letters,
    digits (`Be4` -> `B`, `e`, `4`)."""
    return _PART.findall(name)


@lru_cache(maxsize=4096)
def _disambiguations(name: str) -> tuple[str, ...]:
    """What may stand between the piece letter and the rest: nothing, each
    part, then runs of parts, longer and longer, up to the whole name."""
    parts = name_parts(name)
    spans = [""]
    for length in range(1, len(parts) + 1):
        for start in range(len(parts) - length + 1):
            span = "".join(parts[start:start + length])
            if span not in spans:
                spans.append(span)
    return tuple(spans)


def _tail(entry: _Entry, marker: str, promotion: str) -> str:
    return entry.via + marker + entry.move.to_cell + promotion + entry.gate


def _marker(entry: _Entry) -> str:
    if entry.via:
        return "x" if entry.capture else "-"
    if entry.move.swap:
        return SWAP_MARK
    return "~" if entry.move.suborn else "x" if entry.capture else ""


def _strict(entry: _Entry) -> Iterator[str]:
    if entry.drop:
        yield entry.drop
        return
    if entry.castle:
        yield entry.castle + entry.gate
        return
    tail = _tail(entry, _marker(entry), f"={entry.promotion}" if entry.promotion else "")
    for part in _disambiguations(entry.move.from_cell):
        # A pawn's capture names its file, on the way (`via`) too, and so does its swap.
        if part or entry.letter or not (entry.capture or entry.via or entry.move.swap):
            yield entry.letter + part + tail


def _lenient(entry: _Entry) -> Iterator[str]:
    if entry.drop:
        yield entry.drop
        return
    if entry.castle:
        yield entry.castle.replace("O", "0") + entry.gate
    letters = {entry.letter, entry.own_letter, *entry.also}
    markers = {_marker(entry), ""} if entry.capture else {_marker(entry)}
    promotions = {f"={entry.promotion}", entry.promotion, f"={entry.promotion.lower()}"} \
        if entry.promotion else {""}
    for letter in letters:
        for part in _disambiguations(entry.move.from_cell):
            for marker in markers:
                for promotion in promotions:
                    yield letter + part + _tail(entry, marker, promotion)


class _Spellings:
    """Reading and writing among one position's legal moves."""

    def __init__(self, position: Position, entries: list[_Entry]) -> None:
        self.position = position
        self.entries = entries
        self._by_string = {str(e.move): [e] for e in entries}
        # The moves by destination, castlings under "" (O-O names none), so
        # that a reading looks at the destinations rather than at every move
        # (amazons: 2,176 moves onto 100 cells).
        self._by_target: dict[str, list[int]] = {}
        for index, entry in enumerate(entries):
            self._by_target.setdefault("" if entry.castle else entry.move.to_cell,
                                       []).append(index)
        self._styled: dict[str, dict[str, list[_Entry]]] = {}

    def read(self, body: str) -> list[_Entry]:
        """The moves `body` may name: the move string first (on a board such
        as Strato's, `Bf1Cg2` is a move string and also reads as a bishop's
        SAN), then the variant's own style, strict SAN, the other styles
        that fit the board, and at last lenient SAN."""
        lowered = body[:-1] + body[-1].lower()  # e7e8Q is e7e8q
        found = self._by_string.get(body) or self._by_string.get(lowered)
        if found:
            return found
        notation = self.position.rules.notation
        for style in dict.fromkeys((notation.style, "san", *notation.traditions, *STYLES)):
            found = self._read_strict_san(body) if style == "san" \
                else self._texts(style).get(body, [])
            if found:
                return found
        return [e for e in self._near(body) if body in set(_lenient(e))]

    def _near(self, body: str) -> list[_Entry]:
        # Every SAN spelling but O-O holds the destination's name.
        near = sorted(index for cell, indexes in self._by_target.items()
                      if cell in body for index in indexes)
        return [self.entries[index] for index in near]

    def _read_strict_san(self, body: str) -> list[_Entry]:
        # A strict spelling ends in the move's gate or wall (`,e5`): a test
        # that spares spelling out the moves with another one.
        return [e for e in self._near(body)
                if (e.drop or body.endswith(e.gate)) and body in set(_strict(e))]

    def _texts(self, style: str) -> dict[str, list[_Entry]]:
        """Every text style `style` writes or reads for a legal move (none
        where the style does not fit the board)."""
        texts = self._styled.get(style)
        if texts is None:
            texts = {}
            if fits(self.position.rules.board, self.position.rules.forwards, style):
                for entry in self.entries:
                    for text in dict.fromkeys(self._spell(entry, style)):
                        texts.setdefault(text, []).append(entry)
            self._styled[style] = texts
        return texts

    def _spell(self, entry: _Entry, style: str) -> Iterator[str]:
        """A move's spellings in a style other than SAN, the one written first."""
        position = self.position
        topology = position.rules.board.topology
        assert isinstance(topology, GridTopology)
        if style == "usi":
            yield _usi(entry, topology)
        elif style == "wxf":
            yield _wxf(position, entry, topology)
        else:
            yield from _shogi(entry, style, topology, self._crowded(entry))

    def _crowded(self, entry: _Entry) -> bool:
        """Whether another piece written alike may move where this one goes
        (so the shogi styles name the cell it leaves), as Fairy-Stockfish
        judges it: by a move that promotes alike (both not, or both)."""
        frm, to = entry.internal[0], entry.internal[1]
        return not entry.drop and any(
            not other.drop and other.own_letter == entry.own_letter
            and other.internal[1] == to and other.internal[0] != frm
            and other.move.promotion == entry.move.promotion
            for other in self.entries)

    def body(self, entry: _Entry) -> str:
        """The first strict SAN spelling that reads back as this move alone."""
        for text in _strict(entry):
            if self.read(text) == [entry]:
                return text
        return str(entry.move)

    def write(self, entry: _Entry, style: str | None = None) -> str:
        """The move written in `style` (the variant's own by default): SAN
        with its check or mate mark, or the first of the style's spellings
        that reads back as this move alone."""
        rules = self.position.rules
        style = style or rules.notation.style
        if style == "san":
            return self.body(entry) + self._check_mark(entry)
        if style not in STYLES:
            raise ValueError(f"unknown move style {quote(style)} (styles: {', '.join(STYLES)})")
        if not fits(rules.board, rules.forwards, style):
            raise ValueError(f"move style {quote(style)} counts files and ranks: {rules.name} "
                             "is not a grid of one plane whose sides move along the files")
        for text in self._spell(entry, style):
            if self.read(text) == [entry]:
                return text
        return str(entry.move)

    def _check_mark(self, entry: _Entry) -> str:
        position = self.position
        mover = position.stm
        position.make_internal(entry.internal)
        try:
            if position.stm == mover:   # a turn of several moves goes on: no check given
                return ""
            return ("#" if not position.legal_internal() else "+") if position.is_check() else ""
        finally:
            position.unmake_internal()


# -- the styles that count files and ranks --------------------------------------


def _square(topology: GridTopology, cell: int, rank_letters: bool) -> str:
    """A cell as shogi numbers it: the file counted from the right, the
    rank from the top, as a number or (Hodges, USI) a letter."""
    file, rank = cell % topology.files, cell // topology.files
    rank_text = chr(ord("a") + topology.ranks - 1 - rank) if rank_letters \
        else str(topology.ranks - rank)
    return str(topology.files - file) + rank_text


def _change(entry: _Entry) -> str:
    """A promotion as the shogi styles write it: `+` into the promoted form,
    `-` back (kyoto shogi), `=` and the letter for a choice of pieces."""
    promotion = entry.move.promotion
    if promotion in ("+", "-"):
        return promotion
    return f"={entry.promotion}" if promotion else ""


def _shogi(entry: _Entry, style: str, topology: GridTopology, crowded: bool) -> Iterator[str]:
    """`hodges-number` (`P-76`, `G49-58`, `Px23+`, `P*55`), `hodges`
    (`P-7f`) and `hosking` (`P76`, `P'55`): the piece's letter, the cell it
    leaves where another piece written alike may go there too, `-`
    (Hosking: only after a cell), `x` or the drop mark, the cell it goes
    to, then `+` for a promotion, `=` for a move that could promote and
    does not.  The spelling with the cell it leaves, and without `=`, are
    also read."""
    letters = style == "hodges"
    to = _square(topology, entry.internal[1], letters)
    if entry.drop:
        yield entry.letter + ("'" if style == "hosking" else "*") + to
        return
    origin = _square(topology, entry.internal[0], letters)
    mark = "~" if entry.move.suborn else "x" if entry.capture else "-"
    change = _change(entry) + entry.gate
    if not change and entry.could_promote:
        change = "="
    short = entry.own_letter + ("" if mark == "-" and style == "hosking" else mark) + to
    long = entry.own_letter + origin + mark + to
    for text in ([long, short] if crowded else [short, long]):
        yield text + change
    if change == "=":
        yield short
        yield long


def _usi(entry: _Entry, topology: GridTopology) -> str:
    """The Universal Shogi Interface's move: the cells left and reached
    (`7g7f`), `+` for a promotion; a drop is `P*5e`."""
    to = _square(topology, entry.internal[1], True)
    if entry.drop:
        return entry.letter + "*" + to
    return _square(topology, entry.internal[0], True) + to + _change(entry) + entry.gate


def _wxf(position: Position, entry: _Entry, topology: GridTopology) -> str:
    """Xiangqi's WXF notation: the piece's letter, the file it leaves
    counted from the mover's right, `+` forward, `-` backward or `=`
    sideways, then the ranks moved for a move along the file, else the file
    reached (`H2+3`, `C8=5`, `R1-2`).  Of two like pieces on one file the
    front one is `+` and the rear one `-` in place of the file, where the
    other could make the same move on an empty board (`R+=5`; an advisor's
    partner outside the palace could not); of three or more, the letter is
    the piece's place from the front (`29=8`)."""
    if entry.drop:
        return str(entry.move)
    files = topology.files
    frm, to = entry.internal[0], entry.internal[1]
    north = position.rules.forwards[position.stm] == "n"

    def file_number(cell: int) -> str:
        file = cell % files
        return str(files - file if north else file + 1)

    def ahead(cell: int) -> int:
        return cell // files if north else -(cell // files)

    code = position.cells[frm]
    alike = [cell for cell in range(frm % files, topology.ranks * files, files)
             if position.cells[cell] == code]
    letter, origin = entry.own_letter, file_number(frm)
    if len(alike) > 2:
        letter = str(1 + sum(ahead(cell) > ahead(frm) for cell in alike))
    elif len(alike) == 2:
        other = alike[0] if alike[1] == frm else alike[1]
        step_file, step_rank = to % files - frm % files, to // files - frm // files
        file, rank = other % files + step_file, other // files + step_rank
        if 0 <= file < files and 0 <= rank < topology.ranks and \
                position.rules.empty_board_reach(code, other) >> (rank * files + file) & 1:
            origin = "+" if ahead(frm) > ahead(other) else "-"
    if ahead(to) == ahead(frm):
        motion = "=" + file_number(to)
    else:
        motion = ("+" if ahead(to) > ahead(frm) else "-") + (
            str(abs(ahead(to) - ahead(frm))) if to % files == frm % files else file_number(to))
    return letter + origin + motion + _change(entry) + entry.gate


def _explain(position: Position, spellings: _Spellings, body: str) -> str:
    """Why `body` names no legal move, in words."""
    entries = spellings.entries
    if not entries:
        return f"illegal move '{body}': the game is over ({outcome(position)})"
    if parse_move(position, body):
        return explain_bad_move(position, body, position.legal_internal())
    pieces = [e for e in entries if e.own_letter == body[0] and e.letter]
    if pieces:
        spelt = ", ".join(sorted({spellings.body(e) for e in pieces}))
        return f"illegal move '{body}'; the legal {pieces[0].piece} moves are {spelt}"
    if body[0].isupper() and position.rules.code_of_letter(body[0]) is not None:
        return f"illegal move '{body}': {SIDES[position.stm]} has no legal move with that piece"
    example = entries[0]
    return (f"'{body}' is not a move here: expected SAN such as "
            f"'{spellings.body(example)}' or a move string such as '{example.move}'")
