"""Standard algebraic notation (SAN) for every variant: part of the notation stage.

A move is written, as in chess, from these parts:

    piece letter, disambiguation, `x` (capture) or `~` (suborn), destination cell,
    `=` and the promotion letter, then `+` (check) or `#` (checkmate)

- The piece letter is the moving piece's uppercase letter; a piece that
  promotes to a choice of pieces (chess's pawn) has none, one with its own
  promoted form (shogi's `+P`) keeps it.
- The disambiguation is left out unless another legal move would be written
  the same.  It is then the first part of the from-cell's name that tells the
  moves apart, else the first run of consecutive parts that does (shortest
  first), at last the whole name.  A name's parts are its runs of lowercase
  letters, uppercase letters and digits, in order: `e` and `4` for `e4`, `B`,
  `e` and `4` for `Be4`, `d` and `3` for `d3`.  On a chess board this is the
  file, then the rank, then the square.  A capture by a piece without a
  letter always names a part of its from-cell (`exd5`).
- Castling is `O-O` (the rook nearer the king) and `O-O-O` where a side has
  exactly two castlings of one king staying on its plane, with rooks at
  different distances (chess, Trice's, Capablanca's, Strato's on a plane);
  any other castling is written as the king's move (`KBg1`).
- A suborn is the diplomat's letter, `~` and the converted piece's cell
  (`D~g2`); a plane-shift or any other move is a move to its destination.
- A gating move ends with `/` and the gated piece's letter (`Nc3/H`), a
  castling with gating also with the cell it is put on (`O-O/He1`), as
  Fairy-Stockfish writes them.
- A drop from the hand is written as its move string, the piece's
  uppercase letter, `@` and the cell (`P@e4`), as Fairy-Stockfish writes it.

Reading takes the move string first (`g1f3`; on Strato's board `Bf1Cg2`
would also read as a bishop's SAN), then the strict spellings (every
disambiguation the parts allow, `Ngf3` as well as `Nf3`), then lenient
ones: `0-0`, a capture without `x`, a promotion without `=` or in lower
case, a pawn with its letter (`Pe4`), a castling as the king's move.
Writing checks that what it writes reads back as the same move alone, so
SAN round-trips on any board.

Nothing here runs on the move generator's hot path: a position's SAN is
worked out from its list of legal moves when asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from variantkit.castling import segment
from variantkit.core.moves import (
    CASTLE,
    CASTLE_GATE,
    DROP,
    EN_PASSANT,
    GATE,
    SIDES,
    SUBORN,
    InternalMove,
    gate_parts,
)
from variantkit.core.position import Position, position_of
from variantkit.errors import QUOTE_LENGTH, IllegalMoveError
from variantkit.limits import MAX_SAN_LENGTH
from variantkit.notation import explain_bad_move, parse_move
from variantkit.outcome import outcome
from variantkit.pieces import type_of
from variantkit.values import Move

if TYPE_CHECKING:
    from variantkit.game import Game
    from variantkit.variant import Variant

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
    own_letter: str   # the piece's letter, always
    piece: str        # the piece's name, for messages
    capture: bool
    promotion: str    # the new piece's uppercase letter, or ""
    castle: str       # CASTLE_SHORT, CASTLE_LONG, or "" (not written as O-O)
    gate: str = ""    # gating: `/H`, or after a castling `/He1`
    drop: str = ""    # a drop's only spelling, `P@e4`, or ""


def san(game: Game | Position, move: object) -> str:
    """The SAN of a legal move (a `Move` or a move string) in a game's position."""
    position = position_of(game, "san")
    spellings = _Spellings(_entries(position))
    return spellings.write(position, _entry_of(position, spellings.entries, move))


def san_moves(game: Game | Position, moves: Iterable[Move | str]) -> list[str]:
    """The SAN of a sequence of moves played from a game's position (which
    is left as it was)."""
    position = position_of(game, "san_moves")
    played = 0
    out: list[str] = []
    try:
        for move in moves:
            spellings = _Spellings(_entries(position))
            entry = _entry_of(position, spellings.entries, move)
            out.append(spellings.write(position, entry))
            position.make_internal(entry.internal)
            played += 1
    finally:
        for _ in range(played):
            position.unmake_internal()
    return out


def legal_san(game: Game | Position) -> list[str]:
    """The SAN of every legal move, in the order of `Game.legal_moves`."""
    position = position_of(game, "legal_san")
    spellings = _Spellings(_entries(position))
    return [spellings.write(position, entry) for entry in spellings.entries]


def parse_san(game: Game | Position, text: object) -> Move:
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
    spellings = _Spellings(_entries(position))
    # A promotion to a `+` form ends its move string in `+` (`b2g7+`): read
    # the text with its marks first, then without them.
    whole = text.strip().rstrip("!?")
    found = spellings.read(whole) if whole != body else []
    if len(found) != 1:
        found = spellings.read(body)
    if len(found) == 1:
        return found[0].move
    if found:
        spelt = " or ".join(spellings.write(position, e) for e in found)
        raise IllegalMoveError(f"ambiguous move '{body}': it could be {spelt}")
    raise IllegalMoveError(_explain(position, spellings, body))


# -- the legal moves, described ------------------------------------------------


def _entries(position: Position) -> list[_Entry]:
    variant = position.variant
    # Pieces written without a letter, as chess's pawn: those that promote
    # to a choice of pieces (`pieces` with `choices`).  A piece with its own
    # promoted type (shogi's, `promotes-to`) keeps its letter, as
    # Fairy-Stockfish writes it.
    promoting = variant.pawn_like[position.stm]
    legal = position.legal_internal()
    castles = _castle_names(position, position.stm) \
        if any(m[3] in (CASTLE, CASTLE_GATE) for m in legal) else {}
    out: list[_Entry] = []
    for internal in legal:
        frm, to, promo, kind, extra = internal
        if kind == DROP:
            out.append(_drop_entry(position, internal))
            continue
        gate = ""
        if kind in (GATE, CASTLE_GATE):
            kind, extra, gate_cell, gate_code = gate_parts(internal)
            gate = "/" + variant.letter_of_code(gate_code).upper() + \
                (variant.board.names[gate_cell] if kind == CASTLE else "")
        code = position.cells[frm]
        kind_of_piece = variant.pieces.types[type_of(code)]
        capture = kind == EN_PASSANT or (kind not in (CASTLE, SUBORN) and position.cells[to] != 0)
        promotion = variant.letter_of_code(promo).upper().rstrip("~") if promo else ""
        move = position.public_move(internal)
        # A promoted piece is written by the letter it looks like (`Q~` moves as `Q`).
        letter = kind_of_piece.letter.rstrip("~")
        out.append(_Entry(move=move, internal=internal,
                          letter="" if code in promoting else letter,
                          own_letter=letter, piece=kind_of_piece.name,
                          capture=capture, promotion=promotion,
                          castle=castles.get(extra, "") if kind == CASTLE else "",
                          gate=gate))
    return out


def _drop_entry(position: Position, internal: InternalMove) -> _Entry:
    piece = position.variant.pieces.types[type_of(internal[2])]
    move = position.public_move(internal)
    letter = move.drop or ""
    return _Entry(move=move, internal=internal, letter=letter, own_letter=letter,
                  piece=piece.name, capture=False, promotion="", castle="", drop=str(move))


def _castle_names(position: Position, side: int) -> dict[int, str]:
    """Castling index -> `O-O` or `O-O-O`, for the castlings written so: a
    king with exactly two castlings that keep it on its plane, the rooks at
    different distances in the variant's declaration.  Under free castling
    a position's castlings are named after the declared ones they follow."""
    variant = position.variant
    names = _declared_castle_names(variant, side)
    if not variant.free_castling:
        return names
    by_right = {variant.castlings[i].right: name for i, name in names.items()}
    return {index: by_right[c.right] for index, c in position.castlings_by_side[side]
            if c.right in by_right}


def _declared_castle_names(variant: Variant, side: int) -> dict[int, str]:
    topology = variant.board.topology
    by_king: dict[int, list[tuple[int, int]]] = {}
    for index, c in variant.castlings_by_side[side]:
        if topology.plane_of(c.king_from) == topology.plane_of(c.king_to):
            distance = len(segment(variant.board, c.king_from, c.rook_from, c.king_to))
            by_king.setdefault(c.king_from, []).append((distance, index))
    names: dict[int, str] = {}
    for pair in by_king.values():
        if len(pair) == 2 and pair[0][0] != pair[1][0]:
            (_, near), (_, far) = sorted(pair)
            names[near], names[far] = CASTLE_SHORT, CASTLE_LONG
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
    return marker + entry.move.to_cell + promotion + entry.gate


def _marker(entry: _Entry) -> str:
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
        if part or entry.letter or not entry.capture:
            yield entry.letter + part + tail


def _lenient(entry: _Entry) -> Iterator[str]:
    if entry.drop:
        yield entry.drop
        return
    if entry.castle:
        yield entry.castle.replace("O", "0") + entry.gate
    letters = {entry.letter, entry.own_letter}
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

    def __init__(self, entries: list[_Entry]) -> None:
        self.entries = entries
        self._by_string = {str(e.move): [e] for e in entries}

    def read(self, body: str) -> list[_Entry]:
        """The moves `body` may name: the move string first (on a board such
        as Strato's, `Bf1Cg2` is a move string and also reads as a bishop's
        SAN), then strict SAN, then lenient SAN."""
        lowered = body[:-1] + body[-1].lower()  # e7e8Q is e7e8q
        found = self._by_string.get(body) or self._by_string.get(lowered)
        if found:
            return found
        # Every spelling but O-O holds the destination's name.
        near = [e for e in self.entries if e.castle or e.move.to_cell in body]
        for spellings in (_strict, _lenient):
            found = [e for e in near if body in set(spellings(e))]
            if found:
                return found
        return []

    def body(self, entry: _Entry) -> str:
        """The first strict spelling that reads back as this move alone."""
        for text in _strict(entry):
            if self.read(text) == [entry]:
                return text
        return str(entry.move)

    def write(self, position: Position, entry: _Entry) -> str:
        """The SAN: the body and the check or mate mark."""
        body = self.body(entry)
        position.make_internal(entry.internal)
        try:
            suffix = ("#" if not position.legal_internal() else "+") if position.is_check() else ""
        finally:
            position.unmake_internal()
        return body + suffix


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
    if body[0].isupper() and position.variant.code_of_letter(body[0]) is not None:
        return f"illegal move '{body}': {SIDES[position.stm]} has no legal move with that piece"
    example = entries[0]
    return (f"'{body}' is not a move here: expected SAN such as "
            f"'{spellings.body(example)}' or a move string such as '{example.move}'")
