"""Position end: declared conditions, mate, stalemate, material, counted
endings, the n-move rule and repetition.

The rules come from the variant's `end:` section.  The declared conditions
(`end: conditions`) are tested first, in the order written, each for the
side that has just moved and then for the side to move; then a pass that
ended the game (two in a row, or one while the royal pieces face), checkmate,
insufficient material, stalemate, a count that has run out, and the draws.
Under `draws-go-to` a drawn result goes to the named side.  Positions are
compared by a repetition key: placement, side to move, castling rights, the
pieces whose "not moved yet" status changes their moves, and the en passant
cell only when an en passant capture is legal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from variantkit.core.conditions import result_for
from variantkit.core.general import GeneralPosition, condition_outcome, met_at_once
from variantkit.core.moves import DROP, NORMAL, PASS, InternalMove
from variantkit.core.position import Position
from variantkit.pieces import type_of
from variantkit.public_types import SIDES, Outcome

if TYPE_CHECKING:
    from variantkit.tables import DrawPoints


def outcome(position: Position) -> Outcome | None:
    result = _outcome(position)
    points = position.rules.end.draw_points
    if result is not None and result.winner is None and points is not None:
        result = Outcome(_points_winner(position, points), result.reason)
    goes_to = position.rules.end.draws_go_to
    if result is not None and result.winner is None and goes_to is not None:
        return Outcome(goes_to, result.reason)
    return result


def _outcome(position: Position) -> Outcome | None:
    end = position.rules.end
    if end.conditions:
        # Declared conditions make a variant's rules general.
        assert isinstance(position, GeneralPosition)
        if end.at_once is not None:
            found = met_at_once(position, end.at_once)
            if found is not None:
                return found
        for condition in end.conditions:
            found = condition_outcome(position, condition)
            if found is not None:
                return found
    mover, other = SIDES[position.stm], SIDES[1 - position.stm]
    # A pass that ends the game leaves no moves: its own end, not stalemate.
    if position.ended_by_pass():
        if end.double_pass is not None and _passed_twice(position):
            return _result(position, end.double_pass, "double-pass")
        assert end.facing_pass is not None
        return result_for(end.facing_pass, mover, other, "facing-pass")
    if isinstance(position, GeneralPosition) and position.board_full():
        assert end.board_full is not None
        return _result(position, end.board_full, "board-full")
    legal = position.legal_internal()
    if not legal and position.is_check():
        if _mated_by_losing_drop(position):
            return Outcome(mover, "drop-mate")
        return result_for(_checkmate_result(position), mover, other, "checkmate")
    if insufficient_material(position):
        return Outcome(None, "insufficient-material")
    if not legal:
        return _result(position, end.stalemate, "stalemate")
    if isinstance(position, GeneralPosition) and position.counting_limit \
            and position.counting_ply > position.counting_limit:
        return Outcome(None, "counting")
    # Where draws are claimed, longer counts end the game by themselves
    # first (FIDE: fivefold repetition, seventy-five moves).  A claim is
    # the position's own, as Fairy-Stockfish and XBoard take it: the count
    # reached here, the position standing here for the N-th time; never
    # one announced with the move that would complete it.
    if end.draw_timing == "on-claim":
        if end.automatic_move_rule is not None \
                and position.halfmove >= 2 * end.automatic_move_rule:
            return Outcome(None, "move-rule")
        if end.automatic_repetition is not None \
                and _repeated(position, end.automatic_repetition):
            return Outcome(None, "repetition")
    if end.move_rule is not None and position.halfmove >= 2 * end.move_rule:
        return Outcome(None, "move-rule")
    if end.shuttle is not None and _shuttled(position, end.shuttle.codes):
        return result_for(end.shuttle.result, other, mover, "shuttle")
    if end.repetition is not None and _repeated(position, end.repetition):
        return _repetition_outcome(position, end.repetition)
    return None


def _shuttled(position: Position, codes: frozenset[int]) -> bool:
    """Whether the side that has just moved shuttled one of these pieces
    (see `end: shuttle` in the reference): its last moves, counted back
    from the newest, were B-A by one of the pieces, A-B (or a pass, and then
    A-B after it), B-A, A-B, and a move onto A that captured nothing; no
    capture in between, and the side was in check before none of them."""
    stack = position.history
    plies = min(position.halfmove, len(stack))  # positions since the last capture
    if plies < 8:
        return False
    last, code = stack[-1][0], stack[-1][1]
    if last[3] != NORMAL or last[2] or code not in codes:
        return False

    def move(back: int) -> InternalMove | None:
        return stack[-1 - back][0] if back < len(stack) else None

    def reverses(a: InternalMove | None, b: InternalMove | None) -> bool:
        return a is not None and b is not None and a[3] == NORMAL and not a[2] \
            and (a[0], a[1]) == (b[1], b[0])

    before = move(2)
    if before is None:
        return False
    count = 2 if reverses(before, last) else 1 if before[3] == PASS else 0
    if not count:
        return False
    back = 4
    while back <= plies:
        if count < 4:
            if not reverses(move(back), last if count == 1 else move(back - 2)):
                return False
            count += 1
            back += 2
            continue
        arrival, shuttle = move(back), move(back - 2)
        if arrival is None or shuttle is None or stack[-1 - back][2] \
                or shuttle[0] != arrival[1]:
            return False
        # Out of check before each of its moves (before the arrival only
        # when that position is itself within the count).
        checked = _checks_back(position, min(back + 1, plies))
        return not any(checked[1::2][:back // 2 + 1])
    return False


def _repetition_outcome(position: Position, times: int) -> Outcome:
    """A draw by repetition, unless under `perpetual-check` one side gave
    check in every position of the repetition (from the first occurrence
    of the repeated position on) where the other side was to move: that
    side gets the declared result.  Both sides checking throughout draw."""
    rule = position.rules.end.perpetual_check
    # Without a perpetual check, `repetition-result` for the side to move.
    us, them = position.stm, 1 - position.stm
    plain = result_for(position.rules.end.repetition_result, SIDES[us], SIDES[them],
                       "repetition")
    if rule is None:
        return plain
    current = repetition_key(position)
    occurrences = [i for i, key in enumerate(_history_keys(position)) if key == current]
    span = len(position.history) - occurrences[-(times - 1)]
    checked = _checks_back(position, span)
    by_them, by_us = all(checked[0::2]), all(checked[1::2])
    if by_them == by_us:
        return Outcome(None, "repetition") if by_them else plain
    checker, other = (them, us) if by_them else (us, them)
    return result_for(rule, SIDES[checker], SIDES[other], "repetition")


def _mated_by_losing_drop(position: Position) -> bool:
    """Whether the last move dropped a piece whose mate loses (`mate: loses`)."""
    if not position.history:
        return False
    _, _, dropped, kind, _ = position.history[-1][0]
    return kind == DROP and position.rules.hands.drop_mate_loses[dropped]


def _checks_back(position: Position, plies: int) -> list[bool]:
    """Whether the side to move was in check, in this position and in each
    of the `plies` positions before it, newest first."""
    checked = [position.is_check()]
    undone: list[InternalMove] = []
    for _ in range(plies):
        undone.append(position.history[-1][0])
        position.unmake_internal()
        checked.append(position.is_check())
    for move in reversed(undone):
        position.make_internal(move)
    return checked


def _points_winner(position: Position, points: DrawPoints) -> str | None:
    """The side with more points on the board (bonus included), or None."""
    totals = list(points.bonus)
    for code in range(2, len(position.bb)):
        if points.values[code]:
            totals[code & 1] += points.values[code] * position.bb[code].bit_count()
    if totals[0] == totals[1]:
        return None
    return SIDES[0] if totals[0] > totals[1] else SIDES[1]


def _checkmate_result(position: Position) -> str:
    """The result for the mated side: `checkmate`'s, unless one of the
    declared exceptions applies (the first that does)."""
    end = position.rules.end
    for exception in end.checkmate_exceptions:
        if exception.kind == "only":
            applies = _checking_codes(position) <= exception.codes
        else:
            applies = not _check_series_codes(position) & exception.codes
        if applies:
            return exception.result
    return end.checkmate


def _checking_codes(position: Position) -> set[int]:
    """The piece codes giving check to the side to move."""
    return {position.cells[cell] for cell in position.rules.board.cells_of(position.checkers())}


def _check_series_codes(position: Position) -> set[int]:
    """The piece codes that gave check in the unbroken series of checks by
    the side that has just moved, ending here: this position and each
    earlier one with the same side to move, back to the first not in check
    (or to the start of the moves played)."""
    codes: set[int] = set()
    undone: list[InternalMove] = []
    while position.is_check():
        codes |= _checking_codes(position)
        if len(position.history) < 2:
            break
        for _ in range(2):
            undone.append(position.history[-1][0])
            position.unmake_internal()
    for move in reversed(undone):
        position.make_internal(move)
    return codes


def _result(position: Position, result: str, reason: str) -> Outcome:
    """A declared result for the side to move (win, loss or draw), or one
    decided by the pieces on the board: under `more-pieces` the side with
    more wins, under `fewer-pieces` the side with fewer; equal counts draw."""
    mover, other = SIDES[position.stm], SIDES[1 - position.stm]
    if result not in ("more-pieces", "fewer-pieces"):
        return result_for(result, mover, other, reason)
    white, black = position.side_bb[0].bit_count(), position.side_bb[1].bit_count()
    if white == black:
        return Outcome(None, reason)
    more, fewer = (SIDES[0], SIDES[1]) if white > black else (SIDES[1], SIDES[0])
    return Outcome(more if result == "more-pieces" else fewer, reason)


def _passed_twice(position: Position) -> bool:
    """Whether the last two moves were passes, one by each side."""
    stack = position.history
    return len(stack) >= 2 and stack[-1][0][3] == PASS and stack[-2][0][3] == PASS


def repetition_key(position: Position) -> int:
    v = position.rules
    key = position.hash ^ (v.keys.turn_key if position.stm else 0) ^ position.state_key()
    # The game's castlings: a field read where gates are named may withhold
    # a castling whose king and rook are both still unmoved.
    for i, c in position.castlings_by_side[0] + position.castlings_by_side[1]:
        if c.in_place(position.unmoved, position.cells):
            key ^= v.keys.right_keys[i % len(v.keys.right_keys)]
    tracked = 0
    for code in v.unmoved_codes:
        tracked |= position.bb[code]
    tracked &= position.unmoved
    while tracked:
        low = tracked & -tracked
        key ^= v.keys.unmoved_keys[low.bit_length() - 1]
        tracked ^= low
    ep = position.legal_en_passant()
    if ep:
        key ^= v.keys.ep_keys[ep[0][1]]
    return key


def _history_keys(position: Position) -> list[int]:
    """Repetition keys of every earlier position of the game, oldest first.

    Keys already known are kept on the position, so a position asked for its outcome
    after every move walks back one move each time, not the whole position.
    """
    known, played = position.repetition_keys, len(position.history)
    replay: list[InternalMove] = []
    while len(known) + len(replay) < played:
        replay.append(position.history[-1][0])
        position.unmake_internal()
    missing = []
    for move in reversed(replay):
        missing.append(repetition_key(position))
        position.make_internal(move)
    del known[played:]
    known.extend(missing)
    return known[:played]


def _repeated(position: Position, times: int) -> bool:
    """Whether this position has now stood `times` times in the game."""
    return _history_keys(position).count(repetition_key(position)) + 1 >= times


def insufficient_material(position: Position) -> bool:
    """Whether the material matches one of the variant's dead patterns."""
    v = position.rules
    patterns = v.end.insufficient
    # A piece in hand may still be dropped anywhere: the patterns describe
    # the board's material with both hands empty.
    if not patterns or (v.hands.has_hands and any(position.hands)):
        return False
    letters: list[list[str]] = [[], []]
    kinds: set[int] = set()
    colours: set[int] = set()
    for code in range(2, len(position.bb)):
        bits = position.bb[code]
        if not bits:
            continue
        letters[code & 1] += [v.letter_of_code(code).upper()] * bits.bit_count()
        if not v.codes.royal_code[code]:
            kinds.add(type_of(code))
            colours |= {v.board.colours[c] for c in v.board.cells_of(bits)}
    material = ("".join(sorted(letters[0])), "".join(sorted(letters[1])))
    for p in patterns:
        if p.exact is not None and (p.exact == material or p.exact[::-1] == material):
            return True
        if p.only is not None and kinds <= p.only and (not p.one_colour or len(colours) <= 1):
            return True
    return False
