"""Position strings (FEN) and move strings: the fifth stage.

The placement part of a position string follows the board's layout: rows
separated by `/`, planes by `|`, digits counting empty cells.  Then come the
side to move, castling rights, the en passant cell, the half-move clock and
the move number, as in chess.  Move strings are the from-cell, the to-cell
(with `~` between them for a suborn) and an optional promotion letter.

Strings are written as Fairy-Stockfish writes them, or in one of the other
`STYLES`; every style is read: the pocket in brackets or as an extra rank,
the checks left before the clocks or the checks given after them, castling
rights as letters or by the rooks' files (Chess960 starts included).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from variantkit.board import GridTopology
from variantkit.castling_moves import Castling, by_side, derive_castling
from variantkit.core.general import GeneralPosition, empty_position
from variantkit.core.moves import DROP, SWAP, InternalMove
from variantkit.core.position import Position
from variantkit.errors import CastlingFieldError, InvalidFenError, quote
from variantkit.limits import MAX_CELL_NAME_LENGTH, MAX_COUNTER, MAX_HELD, MAX_POSITION_LENGTH
from variantkit.outcome import outcome
from variantkit.public_types import SIDES
from variantkit.rulebook.setup import parse_placement, split_hand

if TYPE_CHECKING:
    from variantkit.rules import Rules

SIDE_LETTERS = ("w", "b")
# How `write_fen` may write a position: as Fairy-Stockfish does (the
# default); as lichess does (the pocket as an extra rank `.../RNBQKBNR/Pn`,
# the checks each side has given after the clocks `+2+0`); or with castling
# rights as the rooks' files (`HAha`, Shredder-FEN).
STYLES = ("fairy-stockfish", "lichess", "shredder")
# A piece's letter in a hand: a promoted form's is two characters, `+P` or `Q~`.
_LETTER = re.compile(r"\+.|.~|.", re.DOTALL)


def read_hand(position: Position, text: str) -> None:
    """Put the pieces of a hand's text (`QRbn`, empty or `-` for none) into
    the position's hands."""
    v = position.rules
    if not v.hands.has_hands:
        raise InvalidFenError(f"{v.name} has no pieces in hand, but the placement ends "
                              f"with a hand in brackets {quote('[' + text + ']')}")
    if text == "-":
        return
    # At most twice as many pieces, on the board and in hand, as the board
    # has cells (reversi: 60 discs in each hand), so every count has its key.
    pieces = sum(bits.bit_count() for bits in position.side_bb)
    for letter in _LETTER.findall(text):
        code = v.code_of_letter(letter)
        if code is None or code not in v.hands.hand_codes[code & 1]:
            raise InvalidFenError(f"{quote(letter)} in the hand {quote('[' + text + ']')} "
                                  "is not a piece that may be in hand")
        pieces += 1
        if pieces > MAX_HELD * v.board.size:
            raise InvalidFenError(f"the hand {quote('[' + text[:40] + ']')} holds more pieces "
                                  f"than {MAX_HELD} times the board's cells")
        position.add_to_hand(code)


def write_hand(position: Position) -> str:
    """The pieces in hand as written after the placement: `[QRbn]`, `[]`."""
    v = position.rules
    return "[" + "".join(v.letter_of_code(code) * position.hands[code]
                         for side in range(2) for code in v.hands.hand_codes[side]) + "]"


def read_fen(rules: Rules, text: object) -> Position:
    """The position the string describes."""
    if not isinstance(text, str):
        raise InvalidFenError(f"a position string is text, not {type(text).__name__}")
    if not text.strip():
        raise InvalidFenError("empty position string")
    if len(text) > MAX_POSITION_LENGTH:
        raise InvalidFenError(f"position string of {len(text):,} characters, more than the "
                              f"{MAX_POSITION_LENGTH:,} allowed")
    fields = text.split()
    checks = _take_checks(fields, rules.end.check_limit)
    inside_turn = _take_turn_field(fields) if rules.turns.any else None
    swapped = _take_swap_field(rules, fields) if rules.swaps.any else None
    if len(fields) == 4 and all(f.isascii() and f.isdigit() for f in fields[2:]):
        # No castling nor en passant field (`w 0 1`), as Fairy-Stockfish
        # writes the start of a game that has neither (ataxx, flipello).
        fields[2:2] = ["-", "-"]
    most = 7 if rules.setup.moved_field else 6
    if len(fields) > most:
        raise InvalidFenError(
            f"position string has {len(fields)} fields, at most {most}: {quote(text)}")
    moved = fields[6] if len(fields) == 7 else None
    placement, turn, rights, ep, halfmove, fullmove = (fields + ["w", "-", "-", "0", "1"][
        len(fields) - 1:])[:6]
    placement = _pocket_in_brackets(rules, placement)
    position = empty_position(rules)
    walls: set[int] | None = set() if rules.captures.petrify or rules.walls else None
    for cell, code in parse_placement(rules.setup.layout(rules.board), rules.setup.hole_mark,
                                       rules.letter_codes, placement, walls).items():
        position.place(cell, code)
    hand = split_hand(placement)[1]
    if hand is not None:
        read_hand(position, hand)
    for cell in walls or ():
        position.place_wall(cell)
    if turn not in SIDE_LETTERS:
        raise InvalidFenError(f"side to move must be 'w' or 'b', not {quote(turn)}")
    position.stm = SIDE_LETTERS.index(turn)
    position.halfmove = _count(halfmove, "half-move clock", 0)
    position.fullmove = _count(fullmove, "move number", 1)
    if isinstance(position, GeneralPosition) and rules.end.counting is not None \
            and ep.isascii() and ep.isdigit():
        # A running count: its limit stands in the en passant field and the
        # plies counted in the half-move field (as Fairy-Stockfish writes it).
        position.counting_limit = _count(ep, "counting limit", 0)
        ep = "-"
        if position.counting_limit:
            position.counting_ply, position.halfmove = position.halfmove, 0
    if rules.royals.one_royal:
        _check_royals(position)
    if checks is not None and isinstance(position, GeneralPosition):
        position.checks_left = checks
    if rules.castling.free_castling:
        position.unmoved, others = _free_castling(position, rights)
        if others:
            raise _no_rook(others[0])
    elif moved is None:
        position.unmoved = _unmoved_or_960(position, rights)
    else:
        position.unmoved = _unmoved_listed(position, moved)
    if moved is not None and castling_rights(position) != rights:
        raise CastlingFieldError(
            f"castling field {quote(rights)} does not match the pieces that have not moved "
            f"(they give '{castling_rights(position)}')")
    if swapped is not None and isinstance(position, GeneralPosition):
        position.swap_before = _swap_before(position, swapped)
    if isinstance(position, GeneralPosition) and position.turn_state is not None:
        _set_turn(position, ep, inside_turn)
    else:
        _set_en_passant(position, ep)
    them = 1 - position.stm
    # Under explosions the move that blows up the last enemy royal piece may
    # leave its own king attacked.
    blown_up = isinstance(position, GeneralPosition) and bool(rules.captures.blast) \
        and bool(rules.codes.royal_codes[position.stm]) and not position.royals(position.stm)
    if position.side_in_check(them) and not blown_up:
        raise InvalidFenError(
            f"the side not to move ({('white', 'black')[them]}) is in check")
    return position


# The turn field of a game whose turns have several moves, written while a
# turn is under way: the moves played in it, the moves it has, and the
# cells passed by the double steps the side to move has made in it
# (`1/2` or `1/2:e3`).
_TURN_FIELD = re.compile(r"(\d{1,3})/(\d{1,3})(?::(\S+))?")


def _take_turn_field(fields: list[str]) -> tuple[int, int, str] | None:
    """Take the turn field (the last, `1/2:e3`) out of `fields`, if written."""
    if len(fields) < 2:
        return None
    found = _TURN_FIELD.fullmatch(fields[-1])
    if found is None:
        return None
    fields.pop()
    return int(found[1]), int(found[2]), found[3] or ""


def _set_turn(position: GeneralPosition, ep: str,
              inside_turn: tuple[int, int, str] | None) -> None:
    """A game whose turns have several moves: the en passant field (each
    cell passed by a double step the side to move may take), and where the
    turn stands (`inside_turn`: the turn field, None at a turn's start)."""
    state = position.turn_state
    assert state is not None
    if ep != "-":
        state.open = tuple(_passages(position, ep, 1 - position.stm))
        position.ep_target, position.ep_victim = state.open[0]
    if inside_turn is None:
        return
    played, length, made = inside_turn
    if length != state.length(position):
        raise InvalidFenError(f"turn field {played}/{length}: this turn has "
                              f"{state.length(position)} moves")
    if not 0 < played < length:
        raise InvalidFenError(f"turn field {played}/{length}: a turn under way has played "
                              f"1 to {length - 1} of its moves")
    state.played = played
    if made:
        state.made = tuple(_passages(position, made, position.stm, made=True))


# The swap field (`swaps:`), written last where the last move was a swap
# that the replies may not answer by a swap: its cells, as its move string
# writes them (`a1<->a8`).
SWAP_MARK = "<->"


def _take_swap_field(rules: Rules, fields: list[str]) -> tuple[int, int] | None:
    """Take the swap field (the last, `a1<->a8`) out of `fields`, if written."""
    if len(fields) < 2 or SWAP_MARK not in fields[-1]:
        return None
    first, _, second = fields.pop().partition(SWAP_MARK)
    index = rules.board.index
    if first not in index or second not in index or first == second:
        raise InvalidFenError(f"swap field {quote(first + SWAP_MARK + second)}: expected two "
                              "cells, as `a1<->a8`")
    return index[first], index[second]


def _swap_before(position: GeneralPosition, cells: tuple[int, int]) -> InternalMove:
    """The swap the swap field names: the piece of the side that has just
    moved on its second cell, a piece of the other side that may swap with
    it on its first."""
    frm, to = cells
    mover, other = position.cells[to], position.cells[frm]
    if not mover or mover & 1 == position.stm or position.swaps.partner[mover] != other:
        raise InvalidFenError(f"swap field: no swap of the side that has just moved brought "
                              f"its piece to {position.rules.board.names[to]} from "
                              f"{position.rules.board.names[frm]}")
    return (frm, to, 0, SWAP, 0)


def _take_checks(fields: list[str], limit: int | None) -> list[int] | None:
    """Remove the checks field from `fields` and return the checks each side
    still has to give (None without one).  Fairy-Stockfish writes them
    before the clocks (`3+3`); lichess writes the checks given after them
    (`+2+0`: White has given two, so it has one left of three)."""
    if limit is None:
        return None
    for index in (4, len(fields) - 1):
        if 4 <= index < len(fields) and "+" in fields[index]:
            text = fields.pop(index)
            if not text.startswith("+"):
                return _check_counts(text, text, limit)
            return [limit - n for n in _check_counts(text[1:], text, limit)]
    return None


def _check_counts(counts_text: str, text: str, limit: int) -> list[int]:
    """The two counts `W+B` of the checks field `text`."""
    counts = counts_text.split("+")
    if len(counts) != 2 or not all(c.isascii() and c.isdigit() and len(c) <= len(str(limit))
                                   and int(c) <= limit for c in counts):
        raise InvalidFenError(
            f"checks field must be two counts from 0 to {limit}, as 'W+B' (the checks left, "
            f"before the clocks) or '+W+B' (the checks given, after them), not {quote(text)}")
    return [int(counts[0]), int(counts[1])]


def _pocket_in_brackets(rules: Rules, placement: str) -> str:
    """The placement with a pocket written as an extra rank (lichess:
    `.../4K3/Qn`, `.../4K3/` when both are empty) moved into brackets
    (`.../4K3[Qn]`); any other placement unchanged."""
    if not rules.hands.has_hands or split_hand(placement)[1] is not None or "|" in placement:
        return placement
    layout = rules.setup.layout(rules.board)
    rows = placement.split("/")
    if len(layout) != 1 or len(rows) != len(layout[0]) + 1:
        return placement
    return "/".join(rows[:-1]) + "[" + rows[-1] + "]"


def _count(text: str, what: str, minimum: int) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_COUNTER))
            and minimum <= int(text) <= MAX_COUNTER):
        raise InvalidFenError(
            f"{what} must be a whole number from {minimum} to {MAX_COUNTER:,}, not {quote(text)}")
    return int(text)


def _check_royals(position: Position) -> None:
    v = position.rules
    for side, name in enumerate(("white", "black")):
        count = sum(position.bb[code].bit_count() + position.hands[code]
                    for code in range(2 + side, len(position.bb), 2) if v.codes.royal_code[code])
        if count != 1:
            raise InvalidFenError(f"{name} must have exactly one royal piece (on the board or "
                                  f"in hand), found {count}")


def _unmoved(position: Position, rights: str) -> int:
    """Pieces that have not moved: those on their setup cells, except the
    castling pieces whose rights the string withdraws."""
    v = position.rules
    unmoved = _on_setup_cells(position)
    if v.hands.drops_unmoved or v.hands.drops_grant_castling:
        # Dropped pieces may hold rights: castling pieces on their cells may
        # hold their rights wherever the setup had them.
        for c in v.castling.castlings:
            for cell, code in ((c.king_from, c.king_code), (c.rook_from, c.rook_code)):
                if position.cells[cell] == code:
                    unmoved |= 1 << cell
    # A gating right may name any own piece of the region (its letter says
    # whether it has moved).
    for side, region in enumerate(v.gating.regions):
        unmoved |= position.side_bb[side] & region
    declared = {c.right for c in v.castling.castlings}
    initial = _initial_rights(position, unmoved)
    if rights != "-":
        if len(set(rights)) != len(rights):
            raise CastlingFieldError(f"castling field {quote(rights)} repeats a letter")
        for letter in rights:
            if letter in initial and letter not in declared:
                continue
            if letter not in declared:
                raise CastlingFieldError(
                    f"unknown castling right {quote(letter)} (this variant has "
                    f"{''.join(sorted(declared | set(initial))) or 'none'})")
            # The pieces themselves, not only unmoved cells: a gating
            # region counts every piece of its rank as unmoved.
            if not any(c.right == letter and c.in_place(unmoved, position.cells)
                       for c in v.castling.castlings):
                raise CastlingFieldError(
                    f"castling right '{letter}' but its king and rook are not on their cells")
    granted = set() if rights == "-" else set(rights)
    # A piece a right is about has moved unless some right it is part of is
    # granted: a castling's (its king and rook) or its own letter.
    subject = granted_cells = 0
    for c in v.castling.castlings:
        subject |= c.need
        if c.right in granted:
            granted_cells |= c.need
    for letter, cells in initial.items():
        subject |= cells
        if letter in granted:
            granted_cells |= cells
    return unmoved & (~subject | granted_cells)


def _initial_rights(position: Position, unmoved: int, written: bool = False) -> dict[str, int]:
    """`initial-rights` and gating rights: each letter the castling field may
    hold for them, with the cells it stands for (listed pieces not moved
    yet; the pieces of a gating region not moved yet).  `written`: only the
    gating rights of a side that may still gate (it holds pieces in hand, or
    captures may bring it some)."""
    v = position.rules
    names = v.board.names
    letters: dict[str, int] = {}
    cells = [(cell, code & 1) for code in v.first_moves.initial_rights
             for cell in v.board.cells_of(position.bb[code] & unmoved)]
    for side, region in enumerate(v.gating.regions):
        if region and not (written and not may_gate(position, side)):
            cells += [(cell, side) for cell in v.board.cells_of(position.side_bb[side] & unmoved
                                                                 & region)]
    for cell, side in cells:
        letter = _file_right(names[cell], side)
        letters[letter] = letters.get(letter, 0) | 1 << cell
    return letters


def may_gate(position: Position, side: int) -> bool:
    """Whether `side` may still gate: it holds pieces in hand, or captured
    pieces join hands (Fairy-Stockfish drops the rights of an empty hand
    that nothing can fill again)."""
    v = position.rules
    held = v.hands
    return held.captures_to_hand or any(position.hands[code] for code in held.hand_codes[side])


def _unmoved_or_960(position: Position, rights: str) -> int:
    """The pieces that have not moved, the castling field read against the
    declared castlings; read as Chess960 rights (X-FEN `KQkq` with rooks off
    the corners, Shredder-FEN `AHah`) where it does not fit them, as
    Fairy-Stockfish reads it for every variant that castles.  A field read
    so sets Chess960 mode (castling written as the king taking its rook).
    A field that fits neither is reported as it fails against the declared
    castlings.  Where file letters also name gates, the field is read as
    `_gated_rights` says."""
    v = position.rules
    if not _files_may_name_rooks(v):
        return _unmoved(position, rights)
    if v.gating.any:
        return _gated_rights(position, rights)
    try:
        return _unmoved(position, rights)
    except CastlingFieldError as declared:
        try:
            unmoved, others = _free_castling(position, rights)
        except CastlingFieldError:
            raise declared from None
        if others:
            raise declared from None
    position.chess960 = True
    return unmoved


def _gated_rights(position: Position, rights: str) -> int:
    """The pieces that have not moved, in a variant that gates, the castling
    field read letter by letter as Fairy-Stockfish reads it (the same in
    Chess960 mode or not):

    - a declared castling letter (`K`, `q`): the outermost rook on that
      side of the king castles (X-FEN), and it and the king may gate;
    - a file letter: the side's piece on that file may gate; while the side
      may not gate (`may_gate`: its hand is empty for good) a rook of its
      king's line named so castles instead, the last named on each side of
      the king;
    - a side no letter gave a castling, whose king may gate, castles with
      the rooks that may gate: in file order, the last on each side of the
      king (the form Fairy-Stockfish writes in Chess960 mode: `HAE`).

    Only the castlings so granted are this game's (a king and a rook that
    may both gate do not castle otherwise).  Chess960 mode is set when a
    file letter gave a castling or a castling's pieces stand off their
    declared cells."""
    v = position.rules
    letters = [] if rights == "-" else list(rights)
    if len(set(letters)) != len(letters):
        raise CastlingFieldError(f"castling field {quote(rights)} repeats a letter")
    region_pieces = 0
    for side, region in enumerate(v.gating.regions):
        region_pieces |= position.side_bb[side] & region
    gates = _initial_rights(position, region_pieces)
    declared = {c.right: index for index, c in enumerate(v.castling.castlings)}
    kings = [_castling_king(position, c) for c in v.castling.castlings]
    rooks: dict[int, int] = {}     # castling index -> its rook's cell
    by_file: set[int] = set()      # the castlings a file letter gave
    gated = 0
    for letter in letters:
        index = declared.get(letter)
        if index is not None:
            found = kings[index]
            line = [] if found is None else [
                c for c in found[1] if position.cells[c] == v.castling.castlings[index].rook_code]
            if found is None or not line:
                raise _no_rook(letter)
            rooks[index] = line[-1]
            by_file.discard(index)
            gated |= (1 << found[0]) | (1 << line[-1])
            continue
        if letter not in gates:
            raise CastlingFieldError(
                f"unknown castling right {quote(letter)} (this variant has "
                f"{''.join(sorted(set(declared) | set(gates)))})")
        gated |= gates[letter]
        side = int(letter.islower())
        if not may_gate(position, side):
            for cell in v.board.cells_of(gates[letter]):
                index = _castling_of_rook(position, kings, side, cell)
                if index is not None:
                    rooks[index] = cell
                    by_file.add(index)
    names = v.board.names
    for side in (0, 1):
        if any(v.castling.castlings[index].side == side for index in rooks):
            continue
        for cell in sorted(v.board.cells_of(gated & position.side_bb[side]),
                           key=lambda c: _file_right(names[c], 0)):
            index = _castling_of_rook(position, kings, side, cell)
            found = None if index is None else kings[index]
            if index is not None and found is not None and gated >> found[0] & 1:
                rooks[index] = cell
                by_file.add(index)
    castling_pieces = 0
    for code in {c.king_code for c in v.castling.castlings} \
            | {c.rook_code for c in v.castling.castlings}:
        castling_pieces |= position.bb[code]
    unmoved = (_on_setup_cells(position) & ~castling_pieces & ~region_pieces) | gated
    castlings = list(v.castling.castlings)
    for index, rook in rooks.items():
        template, found = v.castling.castlings[index], kings[index]
        assert found is not None   # a castling's rook is found on its king's line
        king, line, back = found
        if (king, rook) != (template.king_from, template.rook_from):
            castlings[index] = _castling_from(position, template, (king, rook), [*line, *back],
                                              _file_right(names[rook], template.side))
        unmoved |= (1 << king) | (1 << rook)
    position.castlings = castlings
    position.castlings_by_side = [[(i, c) for i, c in enumerate(castlings)
                                   if i in rooks and c.side == side] for side in (0, 1)]
    position.chess960 = bool(by_file) or castlings != v.castling.castlings
    return unmoved


def _castling_of_rook(position: Position,
                      kings: list[tuple[int, list[int], list[int]] | None],
                      side: int, cell: int) -> int | None:
    """The index of the castling of `side` whose rook stands on `cell`, on
    its king's line (`kings`: each castling's `_castling_king`), or None."""
    for index, c in enumerate(position.rules.castling.castlings):
        found = kings[index]
        if c.side == side and found is not None and cell in found[1] \
                and position.cells[cell] == c.rook_code:
            return index
    return None


def _files_may_name_rooks(v: Rules) -> bool:
    """Whether a file letter in the castling field may name a castling rook:
    on a grid (as under `free-castling`), in a variant that castles and
    whose field names no files for `initial-rights` (gating files may be
    named too: a letter then names both)."""
    return bool(v.castling.castlings) and not v.first_moves.initial_rights \
        and isinstance(v.board.topology, GridTopology)


def _no_rook(letter: str) -> CastlingFieldError:
    return CastlingFieldError(f"castling right '{letter}': no rook of that side stands there")


def _free_castling(position: Position, rights: str) -> tuple[int, list[str]]:
    """Castling rights that name rooks wherever king and rooks stand
    (Chess960): each right is a rook's file (`HAha`, as Fairy-Stockfish and
    Shredder write it) or a declared right letter (`KQkq`: the outermost rook
    on that side of the king, X-FEN).  Sets the position's castling moves
    from where king and rooks stand, one per declared castling and in the
    same order (a castling without its right stays as declared: it never
    applies, as its pieces count as moved); returns the pieces that have not
    moved and the letters that name no castling rook."""
    v = position.rules
    board = v.board
    letters = [] if rights == "-" else list(rights)
    if len(set(letters)) != len(letters):
        raise CastlingFieldError(f"castling field '{rights}' repeats a letter")
    castlings = v.castling.castlings
    castling_pieces = {c.king_code for c in castlings} | {c.rook_code for c in castlings}
    unmoved = _on_setup_cells(position)
    for code in castling_pieces:
        unmoved &= ~position.bb[code]
    castlings = list(v.castling.castlings)
    for index, template in enumerate(v.castling.castlings):
        found = _castling_king(position, template)
        if found is None:
            continue
        king, line, back = found
        rooks = [c for c in line if position.cells[c] == template.rook_code]
        by_file = [c for c in rooks if _file_right(board.names[c], template.side) in letters]
        if template.right in letters and rooks:
            rook, letter = rooks[-1], template.right
        elif by_file:
            rook, letter = by_file[0], _file_right(board.names[by_file[0]], template.side)
        else:
            continue
        letters.remove(letter)
        castlings[index] = _castling_from(position, template, (king, rook), [*line, *back],
                                          letter)
        unmoved |= (1 << king) | (1 << rook)
    position.castlings, position.castlings_by_side = castlings, by_side(castlings)
    return unmoved, letters


def _castling_from(position: Position, template: Castling, king_and_rook: tuple[int, int],
                   king_lines: list[int], letter: str) -> Castling:
    """The castling `template` with its king and rook where they stand
    (`king_lines`: the cells of the king's line both ways), landing on the
    declared cells; `letter` is the right that names it."""
    king, rook = king_and_rook
    if template.king_to not in [king, *king_lines]:
        raise CastlingFieldError(
            f"castling right '{letter}': the king is not on its first rank")
    return derive_castling(position.rules.board, template.right, (king, template.king_to),
                           (rook, template.rook_to), position.cells[king], template.rook_code,
                           royal=bool(template.safe))


def _castling_king(position: Position, template: Castling) -> tuple[int, list[int],
                                                                      list[int]] | None:
    """Where a castling's king stands, with the cells of its line towards
    the castling's rook and away from it: the side's royal piece, or else
    the one piece of the king's type on the declared king's line (None if
    there is none, or more than one)."""
    topology = position.rules.board.topology
    way = next(d for d in topology.directions("all", None) if any(
        template.rook_from in ray for ray in topology.rays(template.king_from, d)))
    away = tuple(-x for x in way)
    king = position.royal[template.side]
    if king < 0 or position.cells[king] != template.king_code:
        home = [template.king_from, *(c for d in (way, away)
                                      for ray in topology.rays(template.king_from, d)
                                      for c in ray)]
        kings = [c for c in home if position.cells[c] == template.king_code]
        if len(kings) != 1:
            return None
        king = kings[0]
    line = [c for ray in topology.rays(king, way) for c in ray]
    back = [c for ray in topology.rays(king, away) for c in ray]
    return king, line, back


def _file_right(name: str, side: int) -> str:
    """A rook's castling right under free castling: its file letter, upper
    case for White."""
    file = name.rstrip("0123456789")
    return file.upper() if side == 0 else file


def _on_setup_cells(position: Position) -> int:
    """Cells holding the piece the setup puts there."""
    bits = 0
    for cell, code in position.rules.setup.cells.items():
        if position.cells[cell] == code:
            bits |= 1 << cell
    return bits


def _unmoved_listed(position: Position, moved: str) -> int:
    """The moved field: pieces on their setup cells that have moved anyway."""
    unmoved = _on_setup_cells(position)
    if moved == "-":
        return unmoved
    board = position.rules.board
    for name in moved.split(","):
        cell = board.index.get(name)
        if cell is None:
            raise InvalidFenError(f"moved field: unknown cell {quote(name)}")
        if not unmoved >> cell & 1:
            raise InvalidFenError(
                f"moved field: {name} does not hold the piece the setup puts there")
        unmoved &= ~(1 << cell)
    return unmoved


def _set_en_passant(position: Position, ep: str) -> None:
    """The en passant field: a cell the last move passed over.  Fairy-Stockfish
    may write several cells in one field (the cells passed and the cell of
    the piece that passed them, `e3e4`); any passed cell among them is taken."""
    if ep == "-":
        return
    position.ep_target, position.ep_victim = _passages(position, ep, 1 - position.stm)[0]


def _passages(position: Position, text: str, mover: int,
              made: bool = False) -> list[tuple[int, int]]:
    """The double steps of `mover` over the cells written in `text`: the
    cells each passed (a mask) and the cell its piece stands on; the first
    found for each cell.  Cells no piece has passed over are left out (as
    Fairy-Stockfish writes it, the field may name the cell the piece stands
    on too, `e3e4`), and a field with none that one has is an
    InvalidFenError.  The double steps `made` in the turn under way
    may have their cells taken again for now (the turn's later moves may
    free them before it ends)."""
    cells = _cell_list(position.rules.board.index, text)
    if cells is None:
        raise InvalidFenError(f"unknown en passant cell {quote(text)}")
    found: list[tuple[int, int]] = []
    for cell in cells:
        passage = _passage(position, cell, mover, made)
        if passage is not None and passage not in found:
            found.append(passage)
    if not found:
        raise InvalidFenError(f"en passant cell {quote(text)}: no piece has just passed "
                              "over it")
    return found


def _passage(position: Position, cell: int, mover: int,
             made: bool = False) -> tuple[int, int] | None:
    """A double step of `mover` over `cell`, or None (see `_passages`)."""
    target = 1 << cell
    for code in range(2 + mover, len(position.bb), 2):
        for gen in position.rules.codes.generators[code]:
            for frm, landings in enumerate(gen.passed):
                for to, passed in landings.items():
                    if passed & target and position.cells[to] == code and (
                            made or not (position.cells[frm] or position.cells[cell])):
                        return passed, to
    return None


def _cell_list(index: dict[str, int], text: str) -> list[int] | None:
    """Cell names written one after another (`e3`, `e3e4`), or None if the
    text does not split into cell names."""
    if text in index:
        return [index[text]]
    for end in range(1, len(text)):
        if text[:end] in index:
            rest = _cell_list(index, text[end:])
            if rest is not None:
                return [index[text[:end]], *rest]
    return None


def castling_rights(position: Position, files: bool = False) -> str:
    """The castling field, White's rights then Black's: each side's
    castling rights whose king and rook are still unmoved, then by file its
    `initial-rights` and gating rights of unmoved pieces that no written
    castling right covers (`KQBCDFGkqbcdfg`).  A castling right is its
    declared letter, or its rook's file in Chess960 mode (where a gate's
    letter is written for the king too, as Fairy-Stockfish writes it), with
    `files` (Shredder-FEN, where files name no gating or initial rights),
    and where the letter would name another rook (X-FEN)."""
    letters: list[list[str]] = [[], []]
    v = position.rules
    covered = 0
    # The game's castlings: a gating variant's field may withhold one whose
    # king and rook both still gate.
    for _, c in position.castlings_by_side[0] + position.castlings_by_side[1]:
        by_file = position.chess960 or (files and _files_may_name_rooks(v)
                                        and not v.gating.any) \
            or not _outermost_rook(position, c)
        right = _file_right(v.board.names[c.rook_from], c.side) if by_file else c.right
        if right not in letters[c.side] and c.in_place(position.unmoved, position.cells):
            letters[c.side].append(right)
            covered |= 1 << c.rook_from if by_file else c.need
    if v.first_moves.initial_rights or v.gating.any:
        for letter in sorted(_initial_rights(position, position.unmoved & ~covered, written=True)):
            side = letters[letter.islower()]
            if letter not in side:
                side.append(letter)
    return "".join(letters[0] + letters[1]) or "-"


def _outermost_rook(position: Position, c: Castling) -> bool:
    """Whether a castling's rook is the outermost of its kind on that side
    of the king, the rook its declared letter names (X-FEN)."""
    if any(c is declared for declared in position.rules.castling.castlings):
        return True
    topology = position.rules.board.topology
    for d in topology.directions("all", None):
        for ray in topology.rays(c.king_from, d):
            if c.rook_from in ray:
                return not any(position.cells[cell] == c.rook_code
                               for cell in ray[ray.index(c.rook_from) + 1:])
    return True


def placement(position: Position) -> str:
    v = position.rules
    cells = position.cells
    groups = []
    for rows in v.setup.layout(v.board):
        texts = []
        for row in rows:
            text, empty = "", 0
            for cell in row:
                code = cells[cell] if cell >= 0 else 0
                if code or cell < 0 or position.walls >> cell & 1:
                    text += (str(empty) if empty else "") + \
                        (v.letter_of_code(code) if code else str(v.setup.hole_mark))
                    empty = 0
                else:
                    empty += 1
            texts.append(text + (str(empty) if empty else ""))
        groups.append("/".join(texts))
    return "|".join(groups)


def write_fen(position: Position, style: str = "fairy-stockfish") -> str:
    """The position string, written in one of the `STYLES`."""
    if style not in STYLES:
        raise ValueError(f"unknown position string style {quote(style)} (styles: "
                         f"{', '.join(STYLES)})")
    names = position.rules.board.names
    ep_moves = position.legal_en_passant()
    ep = names[ep_moves[0][1]] if ep_moves else "-"
    state = position.turn_state if isinstance(position, GeneralPosition) else None
    if state is not None and ep_moves:   # every cell the side to move may take on
        ep = "".join(dict.fromkeys(names[move[1]] for move in ep_moves))
    halfmove = position.halfmove
    if isinstance(position, GeneralPosition) and position.counting_limit:
        ep, halfmove = str(position.counting_limit), position.counting_ply
    board = placement(position)
    if position.rules.hands.has_hands:
        hand = write_hand(position)
        # The pocket as an extra rank needs a board of one plane.
        board += "/" + hand[1:-1] if style == "lichess" and "|" not in board else hand
    fields = [board, SIDE_LETTERS[position.stm],
              castling_rights(position, files=style == "shredder"), ep,
              str(halfmove), str(position.fullmove)]
    limit = position.rules.end.check_limit
    if isinstance(position, GeneralPosition) and limit is not None:
        if style == "lichess":
            fields.append("".join(f"+{limit - n}" for n in position.checks_left))
        else:
            fields.insert(4, "+".join(str(n) for n in position.checks_left))
    if position.rules.setup.moved_field:
        moved = position.rules.board.cells_of(_on_setup_cells(position) & ~position.unmoved)
        fields.append(",".join(names[c] for c in moved) or "-")
    if state is not None and state.played:
        made = "".join(names[(passed & -passed).bit_length() - 1] for passed, _ in state.made)
        fields.append(f"{state.played}/{state.length(position)}" + (":" + made if made else ""))
    swapped = position.last_swap() if isinstance(position, GeneralPosition) \
        and not position.swaps.after_swap else None
    if swapped is not None:   # the replies may not swap
        fields.append(f"{names[swapped[0]]}{SWAP_MARK}{names[swapped[1]]}")
    return " ".join(fields)


def parse_move(position: Position, text: str) -> list[tuple[str, str, str | None]]:
    """Every reading of a move string as (from, to, promotion letter).

    Cell names are at most MAX_CELL_NAME_LENGTH characters, so a longer
    string has no reading and only that many split points are tried."""
    names = position.rules.board.index
    letter, at, cell = text.partition("@")
    if at:
        return [(cell, cell, letter)] if cell in names and letter else []
    body = text.replace("~", "", 1).replace(SWAP_MARK, "", 1)
    readings: list[tuple[str, str, str | None]] = []
    if len(body) > 2 * MAX_CELL_NAME_LENGTH + 1:
        return readings
    for i in range(1, len(body)):
        frm, rest = body[:i], body[i:]
        if frm not in names:
            continue
        if rest in names:
            readings.append((frm, rest, None))
        elif len(rest) > 1 and rest[:-1] in names and (rest[-1].isalpha() or rest[-1] == "+"):
            readings.append((frm, rest[:-1], rest[-1]))
    return readings


def without_empty_wall(position: Position, text: str) -> str:
    """A move string with Fairy-Stockfish's spelling of a move without a
    wall, where a turn is a move or a wall (`walls: {or-move: true}`), read
    as the plain move: it writes the move, a comma, its landing cell and the
    board's first cell (`e2e4,e4a1`), though no wall goes there.  A wall
    alone (`a1a1,a1a3`: a piece that stays) is left as it is."""
    plain, comma, rest = text.partition(",")
    first = position.rules.board.names[0]
    for reading in parse_move(position, plain) if comma else []:
        frm, to, _ = reading
        if frm != to and rest == to + first:
            return plain
    return text


def explain_bad_move(position: Position, text: str, legal: list[InternalMove]) -> str:
    """Why a move string names no legal move, in words."""
    walling = position.rules.walls
    if walling is not None and walling.kind != "none":
        return _explain_bad_walled(position, text, legal)
    readings = parse_move(position, text)
    shown = quote(text)
    if not readings:
        return (f"{shown} is not a move here: expected a from-cell, a to-cell and an "
                f"optional promotion letter, e.g. '{_example(position, legal)}'")
    if not legal:
        return f"illegal move {shown}: the game is over ({outcome(position)})"
    if "@" in text:
        return _explain_bad_drop(position, text, readings[0][2] or "", readings[0][1], legal)
    frm = readings[0][0]
    names = position.rules.board.names
    from_here = sorted(str(position.public_move(m)) for m in legal if names[m[0]] == frm)
    side = SIDES[position.stm]
    if not from_here:
        return f"illegal move {shown}: {side} has no legal move from {frm}"
    return f"illegal move {shown}; legal moves from {frm}: {', '.join(from_here)}"


def _explain_bad_walled(position: Position, text: str, legal: list[InternalMove]) -> str:
    """Why a move string of a game with walls (`e2e4,e4e5`) names no legal
    move: its form, the move without the wall, or where the wall may go."""
    shown = quote(text)
    if not legal:
        return f"illegal move {shown}: the game is over ({outcome(position)})"
    plain, comma, wall_part = text.partition(",")
    public = [position.public_move(m) for m in legal]
    example = str(public[0])
    plains = {str(replace(m, wall=None)): m for m in public}
    readings = parse_move(position, plain)
    if plain not in plains:
        if not (comma and readings):
            return (f"{shown} is not a move here: every move also puts a wall on a cell, "
                    f"written as the move, a comma, its landing cell and the wall's cell, "
                    f"e.g. '{example}'")
        frm = readings[0][0]
        here = sorted({p for p, m in plains.items() if m.from_cell == frm})
        if not here:
            return f"illegal move {shown}: {SIDES[position.stm]} has no legal move from {frm}"
        listed = ", ".join(here[:12]) + (", ..." if len(here) > 12 else "")
        return (f"illegal move {shown}: {quote(plain)} is not a legal move here; legal moves "
                f"from {frm}, each then followed by its wall: {listed}")
    to_cell = plains[plain].to_cell
    walls = sorted(m.wall or "" for m in public if str(replace(m, wall=None)) == plain)
    cells = ", ".join(walls[:12]) + (", ..." if len(walls) > 12 else "")
    if not comma:
        return (f"illegal move {shown}: the move also puts a wall on a cell, written "
                f"'{plain},{to_cell}' and the wall's cell ({cells})")
    if not wall_part.startswith(to_cell):
        return (f"illegal move {shown}: after the comma comes the move's landing cell "
                f"{to_cell}, then the wall's cell, e.g. '{plain},{to_cell}{walls[0]}'")
    return f"illegal move {shown}: after {plain} the wall may go to {cells}"


def _explain_bad_drop(position: Position, text: str, letter: str, cell: str,
                      legal: list[InternalMove]) -> str:
    """Why a drop `P@e4` is not legal: no such piece in hand, or where it may go."""
    v = position.rules
    shown = quote(text)
    if not v.hands.has_hands:
        return f"illegal move {shown}: {v.name} has no pieces in hand to drop"
    code = v.code_of_letter(letter.upper())
    if code is not None:
        code |= position.stm
    if code is None or not position.hands[code]:
        side = SIDES[position.stm]
        held = "".join(k * n for k, n in position.hand(side).items()) or "nothing"
        return f"illegal move {shown}: {side} has no {quote(letter)} in hand (it holds {held})"
    names = position.rules.board.names
    cells = sorted(names[m[1]] for m in legal if m[3] == DROP and m[2] == code)
    if not cells:
        return f"illegal move {shown}: {letter} may not be dropped anywhere here"
    shown_cells = ", ".join(cells[:12]) + (", ..." if len(cells) > 12 else "")
    return (f"illegal move {shown}: {letter} may not be dropped on {cell}; "
            f"it may go to {shown_cells}")


def _example(position: Position, legal: list[InternalMove]) -> str:
    return str(position.public_move(legal[0])) if legal else "e2e4"
