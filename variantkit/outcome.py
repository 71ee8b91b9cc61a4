"""Game end: declared conditions, mate, stalemate, material, counted
endings, the n-move rule and repetition.

The rules come from the variant's `end:` section.  The declared conditions
(`end: conditions`) are tested first, in the order written, each for the
side that has just moved and then for the side to move; then checkmate,
insufficient material, stalemate, a count that has run out, and the draws.
Under `draws-go-to` a drawn result goes to the named side.  Positions are
compared by a repetition key: placement, side to move, castling rights, the
pieces whose "not moved yet" status changes their moves, and the en passant
cell only when an en passant capture is legal.
"""

from __future__ import annotations

from collections.abc import Callable

from variantkit.game import DROP, NORMAL, PASS, SIDES, Game, GeneralGame, InternalMove, Outcome
from variantkit.notation import legal_en_passant
from variantkit.pieces import type_of
from variantkit.variant import DrawPoints, EndCondition

REASONS = {"checks": "check-count", "extinct": "extinction", "reached": "region",
           "bare": "bare-king"}


def outcome(game: Game) -> Outcome | None:
    result = _outcome(game)
    points = game.variant.end.draw_points
    if result is not None and result.winner is None and points is not None:
        result = Outcome(_points_winner(game, points), result.reason)
    goes_to = game.variant.end.draws_go_to
    if result is not None and result.winner is None and goes_to is not None:
        return Outcome(goes_to, result.reason)
    return result


def _outcome(game: Game) -> Outcome | None:
    end = game.variant.end
    for condition in end.conditions:
        found = _condition(game, condition)
        if found is not None:
            return found
    legal = game.legal_internal()
    mover, other = SIDES[game.stm], SIDES[1 - game.stm]
    if not legal and game.is_check():
        if _mated_by_losing_drop(game):
            return Outcome(mover, "drop-mate")
        return _result(_checkmate_result(game), mover, other, "checkmate")
    if insufficient_material(game):
        return Outcome(None, "insufficient-material")
    if not legal:
        if end.stalemate == "fewer-pieces":
            return _fewer_pieces(game)
        return _result(end.stalemate, mover, other, "stalemate")
    if isinstance(game, GeneralGame) and game.counting_limit \
            and game.counting_ply > game.counting_limit:
        return Outcome(None, "counting")
    if end.double_pass is not None and _passed_twice(game):
        return _result(end.double_pass, mover, other, "double-pass")
    if end.facing_pass is not None and game.history and game.history[-1][0][3] == PASS \
            and game.royals_face():
        return _result(end.facing_pass, mover, other, "facing-pass")
    claim = end.draw_timing == "on-claim"
    # Where draws are claimed, longer counts end the game by themselves
    # first (FIDE: fivefold repetition, seventy-five moves).
    if claim and end.automatic_move_rule is not None \
            and _move_rule(game, 2 * end.automatic_move_rule, False):
        return Outcome(None, "move-rule")
    if claim and end.automatic_repetition is not None \
            and _repetition(game, end.automatic_repetition, False):
        return Outcome(None, "repetition")
    if end.move_rule is not None and _move_rule(game, 2 * end.move_rule, claim):
        return Outcome(None, "move-rule")
    if end.shuttle is not None and _shuttled(game, end.shuttle.codes):
        return _result(end.shuttle.result, other, mover, "shuttle")
    if end.repetition is not None and _repetition(game, end.repetition, claim):
        return _repetition_outcome(game, end.repetition)
    return None


def _shuttled(game: Game, codes: frozenset[int]) -> bool:
    """Whether the side that has just moved shuttled one of these pieces
    (see `end: shuttle` in the reference): its last moves, counted back
    from the newest, were B-A by one of the pieces, A-B (or a pass, and then
    A-B after it), B-A, A-B, and a move onto A that captured nothing; no
    capture in between, and the side was in check before none of them."""
    stack = game.history
    plies = min(game.halfmove, len(stack))  # positions since the last capture
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
        checked = _checks_back(game, min(back + 1, plies))
        return not any(checked[1::2][:back // 2 + 1])
    return False


def _repetition_outcome(game: Game, times: int) -> Outcome:
    """A draw by repetition, unless under `perpetual-check` one side gave
    check in every position of the repetition (from the first occurrence
    of the repeated position on) where the other side was to move: that
    side gets the declared result.  Both sides checking throughout draw."""
    rule = game.variant.end.perpetual_check
    # Without a perpetual check, `repetition-result` for the side to move.
    plain = _result(game.variant.end.repetition_result, SIDES[game.stm], SIDES[1 - game.stm],
                    "repetition")
    current = repetition_key(game)
    occurrences = [i for i, key in enumerate(_history_keys(game)) if key == current]
    if rule is None or len(occurrences) + 1 < times:
        return plain  # no rule, or a draw claimed with a move
    span = len(game.history) - occurrences[-(times - 1)]
    checked = _checks_back(game, span)
    by_them, by_us = all(checked[0::2]), all(checked[1::2])
    if by_them == by_us:
        return Outcome(None, "repetition") if by_them else plain
    checker, other = (1 - game.stm, game.stm) if by_them else (game.stm, 1 - game.stm)
    return _result(rule, SIDES[checker], SIDES[other], "repetition")


def _mated_by_losing_drop(game: Game) -> bool:
    """Whether the last move dropped a piece whose mate loses (`mate: loses`)."""
    if not game.history:
        return False
    _, _, dropped, kind, _ = game.history[-1][0]
    return kind == DROP and game.variant.drop_mate_loses[dropped]


def _checks_back(game: Game, plies: int) -> list[bool]:
    """Whether the side to move was in check, in this position and in each
    of the `plies` positions before it, newest first."""
    checked = [game.is_check()]
    undone: list[InternalMove] = []
    for _ in range(plies):
        undone.append(game.history[-1][0])
        game.unmake_internal()
        checked.append(game.is_check())
    for move in reversed(undone):
        game.make_internal(move)
    return checked


def _points_winner(game: Game, points: DrawPoints) -> str | None:
    """The side with more points on the board (bonus included), or None."""
    totals = list(points.bonus)
    for code in range(2, len(game.bb)):
        if points.values[code]:
            totals[code & 1] += points.values[code] * game.bb[code].bit_count()
    if totals[0] == totals[1]:
        return None
    return SIDES[0] if totals[0] > totals[1] else SIDES[1]


def _checkmate_result(game: Game) -> str:
    """The result for the mated side: `checkmate`'s, unless one of the
    declared exceptions applies (the first that does)."""
    end = game.variant.end
    for exception in end.checkmate_exceptions:
        if exception.kind == "only":
            applies = _checking_codes(game) <= exception.codes
        else:
            applies = not _check_series_codes(game) & exception.codes
        if applies:
            return exception.result
    return end.checkmate


def _checking_codes(game: Game) -> set[int]:
    """The piece codes giving check to the side to move."""
    return {game.cells[cell] for cell in game.variant.board.cells_of(game.checkers())}


def _check_series_codes(game: Game) -> set[int]:
    """The piece codes that gave check in the unbroken series of checks by
    the side that has just moved, ending here: this position and each
    earlier one with the same side to move, back to the first not in check
    (or to the start of the moves played)."""
    codes: set[int] = set()
    undone: list[InternalMove] = []
    while game.is_check():
        codes |= _checking_codes(game)
        if len(game.history) < 2:
            break
        for _ in range(2):
            undone.append(game.history[-1][0])
            game.unmake_internal()
    for move in reversed(undone):
        game.make_internal(move)
    return codes


def ended_by_condition(game: Game) -> bool:
    """Whether a declared end condition ends the game here."""
    return any(_condition(game, c) is not None for c in game.variant.end.conditions)


def _condition(game: Game, condition: EndCondition) -> Outcome | None:
    """The outcome one declared condition gives, if it holds."""
    reason = REASONS[condition.kind]
    moved, to_move = 1 - game.stm, game.stm
    if meets(game, condition, moved):
        if condition.answer is not None:
            if meets(game, condition, to_move):
                return _result(condition.answer, SIDES[moved], SIDES[to_move], reason)
            assert isinstance(game, GeneralGame)
            if moved == 0 and _some_move_leads_to(game, lambda: meets(game, condition, to_move),
                                   game.allowed_moves()):
                return None
        return _result(condition.result, SIDES[moved], SIDES[to_move], reason)
    if meets(game, condition, to_move, condition.grace):
        return _result(condition.result, SIDES[to_move], SIDES[moved], reason)
    return None


def meets(game: Game, condition: EndCondition, side: int, grace: bool = False) -> bool:
    """Whether `side` meets a declared end condition in this position.  With
    `grace` (the side to move under `grace: true`), a bare side meets it only
    when no single capture could bare the other side in reply."""
    kind, bb = condition.kind, game.bb
    if grace and kind != "bare":
        return False
    if kind == "checks":
        return isinstance(game, GeneralGame) and game.checks_left[side] == 0
    if kind == "extinct":
        if condition.codes is None:
            return game.side_bb[side].bit_count() <= condition.count
        return sum(bb[code].bit_count() for code in condition.codes[side]) <= condition.count
    if kind == "reached":
        assert condition.codes is not None
        there = 0
        for code in condition.codes[side]:
            there |= bb[code] & condition.regions[side]
        if condition.safe:
            there &= ~_attacked(game, there, 1 - side)
        return bool(there)
    return not game.non_royal(side) and game.non_royal(1 - side) >= (2 if grace else 1)


def _attacked(game: Game, cells: int, by: int) -> int:
    """Those of `cells` that a piece of side `by` attacks."""
    occupied = game.side_bb[0] | game.side_bb[1] | game.walls
    found = 0
    while cells:
        low = cells & -cells
        cells ^= low
        if game.attackers(low.bit_length() - 1, by, occupied, game.side_bb[by]):
            found |= low
    return found


def _fewer_pieces(game: Game) -> Outcome:
    """Stalemate under `fewer-pieces`: the side with fewer pieces wins."""
    counts = [game.side_bb[0].bit_count(), game.side_bb[1].bit_count()]
    if counts[0] == counts[1]:
        return Outcome(None, "stalemate")
    return Outcome(SIDES[0] if counts[0] < counts[1] else SIDES[1], "stalemate")


def _result(result: str, mover: str, other: str, reason: str) -> Outcome:
    """`result` is seen from the side to move: win, loss or draw."""
    winner = {"win": mover, "loss": other}.get(result)
    return Outcome(winner, reason)


def _passed_twice(game: Game) -> bool:
    """Whether the last two moves were passes, one by each side."""
    stack = game.history
    return len(stack) >= 2 and stack[-1][0][3] == PASS and stack[-2][0][3] == PASS


def _move_rule(game: Game, plies: int, claim: bool) -> bool:
    if game.halfmove >= plies:
        return True
    if not claim or game.halfmove < plies - 1:
        return False
    # A claim may announce the move that completes the count, provided the
    # game goes on after it (mate on that move is mate).
    return _some_move_leads_to(game, lambda: game.halfmove >= plies and bool(game.legal_internal()))


def _some_move_leads_to(game: Game, condition: Callable[[], bool],
                        moves: list[InternalMove] | None = None) -> bool:
    """Whether `condition` holds after some legal move (or one of `moves`)."""
    for move in game.legal_internal() if moves is None else moves:
        game.make_internal(move)
        try:
            if condition():
                return True
        finally:
            game.unmake_internal()
    return False


def repetition_key(game: Game) -> int:
    v = game.variant
    key = game.hash ^ (v.turn_key if game.stm else 0) ^ game.state_key()
    for i, c in enumerate(game.castlings):
        if c.in_place(game):
            key ^= v.right_keys[i % len(v.right_keys)]
    tracked = 0
    for code in v.unmoved_codes:
        tracked |= game.bb[code]
    tracked &= game.unmoved
    while tracked:
        low = tracked & -tracked
        key ^= v.unmoved_keys[low.bit_length() - 1]
        tracked ^= low
    ep = legal_en_passant(game)
    if ep:
        key ^= v.ep_keys[ep[0][1]]
    return key


def _history_keys(game: Game) -> list[int]:
    """Repetition keys of every earlier position of the game, oldest first.

    Keys already known are kept on the game, so a game asked for its outcome
    after every move walks back one move each time, not the whole game.
    """
    known, played = game.repetition_keys, len(game.history)
    replay: list[InternalMove] = []
    while len(known) + len(replay) < played:
        replay.append(game.history[-1][0])
        game.unmake_internal()
    missing = []
    for move in reversed(replay):
        missing.append(repetition_key(game))
        game.make_internal(move)
    del known[played:]
    known.extend(missing)
    return known[:played]


def _repetition(game: Game, times: int, claim: bool) -> bool:
    current = repetition_key(game)
    earlier = _history_keys(game)
    if earlier.count(current) + 1 >= times:
        return True
    if not claim:
        return False
    seen = earlier + [current]
    return _some_move_leads_to(game, lambda: seen.count(repetition_key(game)) + 1 >= times)


def insufficient_material(game: Game) -> bool:
    """Whether the material matches one of the variant's dead patterns."""
    v = game.variant
    patterns = v.end.insufficient
    # A piece in hand may still be dropped anywhere: the patterns describe
    # the board's material with both hands empty.
    if not patterns or (v.has_hands and any(game.hands)):
        return False
    letters: list[list[str]] = [[], []]
    kinds: set[int] = set()
    colours: set[int] = set()
    for code in range(2, len(game.bb)):
        bits = game.bb[code]
        if not bits:
            continue
        letters[code & 1] += [v.letter_of_code(code).upper()] * bits.bit_count()
        if not v.royal_code[code]:
            kinds.add(type_of(code))
            colours |= {v.board.colours[c] for c in v.board.cells_of(bits)}
    material = ("".join(sorted(letters[0])), "".join(sorted(letters[1])))
    for p in patterns:
        if p.exact is not None and (p.exact == material or p.exact[::-1] == material):
            return True
        if p.only is not None and kinds <= p.only and (not p.one_colour or len(colours) <= 1):
            return True
    return False
