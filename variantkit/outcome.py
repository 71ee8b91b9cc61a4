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

from variantkit.game import DROP, PASS, SIDES, Game, GeneralGame, InternalMove, Outcome
from variantkit.notation import legal_en_passant
from variantkit.pieces import type_of
from variantkit.variant import EndCondition

REASONS = {"checks": "check-count", "extinct": "extinction", "reached": "region",
           "bare": "bare-king"}


def outcome(game: Game) -> Outcome | None:
    result = _outcome(game)
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
    legal = game._legal()
    mover, other = SIDES[game.stm], SIDES[1 - game.stm]
    if not legal and game.is_check():
        if _mated_by_losing_drop(game):
            return Outcome(mover, "drop-mate")
        return _result(end.checkmate, mover, other, "checkmate")
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
    if end.facing_pass is not None and game._stack and game._stack[-1][0][3] == PASS \
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
    if end.repetition is not None and _repetition(game, end.repetition, claim):
        return _repetition_result(game, end.repetition, mover, other)
    return None


def _repetition_result(game: Game, times: int, mover: str, other: str) -> Outcome:
    """How a repetition ends the game: under `perpetual-check`, the side
    that gave check at every one of its moves through the repetition gets
    that result (a draw when both did); otherwise `repetition-result`."""
    end = game.variant.end
    if end.perpetual_check is not None:
        mover_checked, other_checked = _checked_through(game, times)
        if mover_checked != other_checked:
            checker, checked = (other, mover) if mover_checked else (mover, other)
            return _result(end.perpetual_check, checker, checked, "perpetual-check")
    return _result(end.repetition_result, mover, other, "repetition")


def _checked_through(game: Game, times: int) -> tuple[bool, bool]:
    """Whether the side to move was in check in each of its positions from
    the first of the `times` occurrences of the current position on, and
    whether the other side was in each of its own from the position before
    that first occurrence on (as Fairy-Stockfish counts a perpetual check)."""
    current = repetition_key(game)
    keys = _history_keys(game)
    first, seen = len(keys), 1
    for index in range(len(keys) - 2, -1, -2):
        if keys[index] == current:
            seen += 1
            if seen == times:
                first = index
                break
    since = max(first - 1, 0)
    replay = [game._stack[-1 - i][0] for i in range(len(keys) - since)]
    checks = []
    for _ in replay:
        checks.append(game.is_check())
        game._unmake()
    checks.append(game.is_check())
    for move in reversed(replay):
        game._make(move)
    checks.reverse()   # checks[i]: the position `since + i`
    mover = checks[first - since::2]
    other = checks[first - 1 - since::2] if first > 0 else checks[first + 1 - since::2]
    return all(mover), all(other)


def _mated_by_losing_drop(game: Game) -> bool:
    """Whether the last move dropped a piece whose mate loses (`mate: loses`)."""
    if not game._stack:
        return False
    _, _, dropped, kind, _ = game._stack[-1][0]
    return kind == DROP and game.variant.drop_mate_loses[dropped]


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
                                   game._allowed()):
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
        if game._attackers(low.bit_length() - 1, by, occupied, game.side_bb[by]):
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
    stack = game._stack
    return len(stack) >= 2 and stack[-1][0][3] == PASS and stack[-2][0][3] == PASS


def _move_rule(game: Game, plies: int, claim: bool) -> bool:
    if game.halfmove >= plies:
        return True
    if not claim or game.halfmove < plies - 1:
        return False
    # A claim may announce the move that completes the count, provided the
    # game goes on after it (mate on that move is mate).
    return _some_move_leads_to(game, lambda: game.halfmove >= plies and bool(game._legal()))


def _some_move_leads_to(game: Game, condition: Callable[[], bool],
                        moves: list[InternalMove] | None = None) -> bool:
    """Whether `condition` holds after some legal move (or one of `moves`)."""
    for move in game._legal() if moves is None else moves:
        game._make(move)
        try:
            if condition():
                return True
        finally:
            game._unmake()
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
    known, played = game._keys, len(game._stack)
    replay: list[InternalMove] = []
    while len(known) + len(replay) < played:
        replay.append(game._stack[-1][0])
        game._unmake()
    missing = []
    for move in reversed(replay):
        missing.append(repetition_key(game))
        game._make(move)
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
