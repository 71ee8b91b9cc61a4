"""The referee of a match between two engines, the built-in one or
external ones, in any variant: seeded opening plies, colours alternating
(each opening played once with each colour), the clocks kept, and every
game judged by variantkit's own rules.  An illegal or missing move, a
fallen flag, a resignation, a false claim and an engine that fails (at the
start of a game too) lose, with the reason; the results are scored with
the Elo difference and its 95% interval.

A draw the rules let a side claim (a repetition, the move rule, where the
variant's draws are claimed) ends the game only when a side claims it, as
XBoard and cutechess play (`Settings.adjudicate == "claims"`): a CECP
engine by announcing the result, the built-in engine at the first chance;
UCI and USI have no claim, so such games play on until an automatic end
(chess: the fifth repetition, the 75-move rule) or the ply limit.  With
"rules", the referee ends the game at the first draw the rules allow."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from variantkit.engine.search import SKILL_MAX, Engine, Limits
from variantkit.errors import IllegalMoveError
from variantkit.game import Game
from variantkit.outcome import repetition_key
from variantkit.pgn import result_token, write_pgn
from variantkit.protocols.driver import (
    RESIGN,
    Claim,
    Clock,
    EngineFailure,
    ExternalEngine,
    UnreadableMove,
)
from variantkit.public_types import SIDES, Outcome
from variantkit.variant import Variant

BUILTIN = "builtin"
# z for a two-sided 95% interval.
Z95 = 1.96
# How the referee ends a draw the rules let a side claim: when a side
# claims it (as XBoard and cutechess), or at once.
ADJUDICATIONS = ("claims", "rules")
# Seconds the referee waits after a move that makes a draw claimable for
# the engine that made it to claim it (a CECP engine announces it right
# after its move).
CLAIM_WAIT = 0.3


class Player(Protocol):
    """What the referee asks of an engine."""

    name: str

    def new_game(self, variant: Variant) -> None: ...

    def set_clock(self, base: float, increment: float) -> None: ...

    def move(self, game: Game, clock: Clock, wait: float) -> str | Claim | None:
        """The move's text, RESIGN, a Claim, or None when none came within
        `wait` seconds; EngineFailure for an engine that failed,
        UnreadableMove for a text that is no move of its protocol."""

    def claim_after(self, wait: float) -> Claim | None:
        """The claim the engine makes right after its move, within `wait`
        seconds (asked where its move made a draw claimable)."""

    def close(self) -> None: ...


class BuiltinPlayer:
    """The built-in engine, searched in this process, at full strength or
    at a skill level below SKILL_MAX (`variantkit.engine.search.weakening`,
    UCI's `Skill Level`)."""

    def __init__(self, depth: int | None = None, skill: float | None = None) -> None:
        self.name = "variantkit" + (f" depth {depth}" if depth else "") \
            + (f" skill {skill:g}" if skill is not None else "")
        self.depth = depth
        self.skill = SKILL_MAX if skill is None else skill
        self.engine: Engine | None = None
        self._claim: Claim | None = None   # the draw its last move made

    def new_game(self, variant: Variant) -> None:
        if self.engine is None or self.engine.variant is not variant:
            self.engine = Engine(variant)
        self.engine.skill = self.skill
        self.engine.new_game()

    def set_clock(self, base: float, increment: float) -> None:
        return None

    def move(self, game: Game, clock: Clock, wait: float) -> str | Claim | None:
        """The engine's move; a claim instead where the position lets it
        claim a draw (it claims at the first chance, as its CECP session
        does)."""
        assert self.engine is not None  # new_game comes first
        self._claim = None
        outcome = game.outcome()
        if outcome is not None:
            return Claim(result_token(outcome.winner), outcome.reason)
        if clock.movetime is not None:
            limits = Limits(depth=self.depth, movetime=clock.movetime)
        else:
            limits = Limits(depth=self.depth, wtime=clock.white, btime=clock.black,
                            winc=clock.increment, binc=clock.increment)
        move = self.engine.search(game, limits)
        after = game.copy()
        after.push(move)
        outcome = after.outcome()
        if outcome is not None:
            self._claim = Claim(result_token(outcome.winner), outcome.reason)
        return str(move)

    def claim_after(self, wait: float) -> Claim | None:
        return self._claim

    def close(self) -> None:
        return None


def player_for(spec: str, variant_name: str | None = None) -> Player:
    """`builtin` (or `builtin:DEPTH`), else an external engine
    (`uci:PATH`, `xboard:PATH`, `usi:PATH`), told each game by
    `variant_name` where given (a name it lists the game under)."""
    word, _, depth = spec.partition(":")
    if word == BUILTIN:
        return BuiltinPlayer(int(depth) if depth.isdigit() else None)
    return ExternalEngine(spec, variant_name)


@dataclass
class Settings:
    """A match's rules: games, time (movetime seconds a move, or a clock of
    `base` seconds plus `increment`), random opening plies, the seed, the
    ply at which a game is adjudicated a draw, the grace in seconds
    allowed past a time for the pipes' delay, and how a draw that is
    claimed is ended (ADJUDICATIONS: "claims", only when a side claims it;
    "rules", at once)."""

    games: int = 2
    movetime: float | None = 0.2
    base: float = 60.0
    increment: float = 0.0
    opening_plies: int = 0
    seed: int = 0
    max_plies: int = 300
    grace: float = 0.5
    adjudicate: str = "claims"


@dataclass
class GameResult:
    """One game: who played White (index 0 or 1 of the pair), the result
    token, the reason, and the game itself."""

    index: int
    white: int
    token: str
    reason: str
    game: Game = field(repr=False)

    def score(self, player: int) -> float:
        """Points of `player` (0 or 1) in this game."""
        if self.token == "1/2-1/2":
            return 0.5
        won = 0 if self.token == "1-0" else 1  # the colour that won
        return 1.0 if (self.white if won == 0 else 1 - self.white) == player else 0.0


def opening(variant: Variant, plies: int, seed: int) -> Game:
    """A game of `plies` random legal plies, from `seed`; fewer if it ends."""
    rng = random.Random(seed)
    game = variant.new_game()
    for _ in range(plies):
        moves = sorted(game.legal_moves(), key=str)
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    return game


def play_game(variant: Variant, players: tuple[Player, Player], white: int,
              settings: Settings, index: int) -> GameResult:
    """Game `index`, `players[white]` playing White, judged here."""
    game = opening(variant, settings.opening_plies, settings.seed * 100_003 + index // 2)
    for seat, player in enumerate(players):
        try:
            player.new_game(variant)
            player.set_clock(settings.base, settings.increment)
        except EngineFailure as exc:
            side = 0 if seat == white else 1
            return GameResult(index, white, result_token(SIDES[1 - side]),
                              f"{SIDES[side]}'s engine failed: {exc}", game)
    clocks = [settings.base, settings.base]
    on_claim = settings.adjudicate == "claims"
    while True:
        outcome = game.outcome()
        if outcome is not None and not (on_claim and claim_only(game, outcome)):
            return GameResult(index, white, result_token(outcome.winner), outcome.reason, game)
        if game.plies >= settings.max_plies:
            return GameResult(index, white, "1/2-1/2", "adjudicated: move limit", game)
        stm = game.position.stm
        mover = players[white if stm == 0 else 1 - white]
        allowed = settings.movetime if settings.movetime is not None else clocks[stm]
        clock = Clock(settings.movetime, clocks[0], clocks[1], settings.increment)
        loser = SIDES[stm]
        winner = result_token(SIDES[1 - stm])
        start = time.monotonic()
        try:
            text = mover.move(game, clock, allowed + settings.grace)
        except EngineFailure as exc:
            return GameResult(index, white, winner, f"{loser}'s engine failed: {exc}", game)
        except UnreadableMove as exc:
            return GameResult(index, white, winner, f"{loser} played an illegal move: {exc}",
                              game)
        elapsed = time.monotonic() - start
        if text == RESIGN:
            return GameResult(index, white, winner, f"{loser} resigned", game)
        if isinstance(text, Claim):
            return judged(game, text, stm, index, white)
        if text is None or elapsed > allowed + settings.grace:
            return GameResult(index, white, winner, f"{loser} lost on time "
                              f"({elapsed:.2f} s for {allowed:.2f} s)", game)
        try:
            game.push(text)
        except (IllegalMoveError, ValueError):
            return GameResult(index, white, winner,
                              f"{loser} played an illegal move: {text[:40]!r}", game)
        if settings.movetime is None:
            clocks[stm] += settings.increment - elapsed
        made = game.outcome()
        if on_claim and made is not None and claim_only(game, made):
            claim = mover.claim_after(CLAIM_WAIT)
            if claim is not None:
                return judged(game, claim, stm, index, white)


def claim_only(game: Game, outcome: Outcome) -> bool:
    """Whether the game's end is a draw its side may claim but the rules do
    not make by themselves: a repetition or the move rule in a variant
    whose draws are claimed, short of its automatic counts."""
    end = game.variant.rules.end
    if end.draw_timing != "on-claim" or outcome.reason not in ("repetition", "move-rule"):
        return False
    if end.automatic_move_rule is not None \
            and game.position.halfmove >= 2 * end.automatic_move_rule:
        return False
    return end.automatic_repetition is None or times_seen(game) < end.automatic_repetition


def times_seen(game: Game) -> int:
    """How many times the game's position has stood (this time included)."""
    earlier = game.copy()
    key, count = repetition_key(earlier.position), 1
    while earlier.plies:
        earlier.pop()
        count += repetition_key(earlier.position) == key
    return count


def judged(game: Game, claim: Claim, side: int, index: int, white: int) -> GameResult:
    """The end of a game in which `side` claimed a result: a claim of its
    own loss resigns; a claim the rules give (the position's end, a draw
    that may be claimed included) ends the game so; any other loses."""
    claimer, other = SIDES[side], SIDES[1 - side]
    outcome = game.outcome()
    if claim.token == result_token(other):
        return GameResult(index, white, claim.token, f"{claimer} resigned", game)
    if outcome is not None and claim.token == result_token(outcome.winner):
        return GameResult(index, white, claim.token, f"{outcome.reason} (claimed by {claimer})",
                          game)
    return GameResult(index, white, result_token(other),
                      f"{claimer} made a false claim: {claim.token} {{{claim.reason}}}", game)


def match(variant: Variant, players: tuple[Player, Player],
          settings: Settings) -> Iterator[GameResult]:
    """The games, one at a time; the first player has White in even games."""
    for index in range(settings.games):
        yield play_game(variant, players, index % 2, settings, index)


def pgn(variant: Variant, result: GameResult, names: tuple[str, str],
        event: str = "variantkit match") -> str:
    white = names[result.white]
    black = names[1 - result.white]
    return write_pgn(result.game, Event=event, Round=str(result.index + 1), White=white,
                     Black=black, Result=result.token, Termination=result.reason)


@dataclass
class Score:
    """The first player's wins, draws and losses, and what follows."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, points: float) -> None:
        if points == 1.0:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        else:
            self.losses += 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def fraction(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def elo(self) -> tuple[float, float, float]:
        """The Elo difference and its 95% interval (infinite at 0% or 100%),
        from the spread of the game scores."""
        n, p = self.games, self.fraction
        if not n:
            return 0.0, -math.inf, math.inf
        spread = (self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2
                  + self.losses * p ** 2) / n
        margin = Z95 * math.sqrt(spread / n)
        return elo_of(p), elo_of(p - margin), elo_of(p + margin)


def elo_of(fraction: float) -> float:
    """The Elo difference that predicts this score fraction."""
    if fraction <= 0:
        return -math.inf
    if fraction >= 1:
        return math.inf
    return 400 * math.log10(fraction / (1 - fraction))


def table(names: tuple[str, str], score: Score) -> str:
    """The results as a small text table."""
    elo, low, high = score.elo()
    return "\n".join([
        f"{'engine':<32} {'score':>9} {'W-D-L':>9}",
        f"{names[0][:32]:<32} {score.wins + score.draws / 2:>4g}/{score.games:<4} "
        f"{score.wins}-{score.draws}-{score.losses:<5}",
        f"{names[1][:32]:<32} {score.losses + score.draws / 2:>4g}/{score.games:<4} "
        f"{score.losses}-{score.draws}-{score.wins:<5}",
        f"Elo difference {elo:+.0f} (95%: {low:+.0f} to {high:+.0f})"])


__all__ = ["ADJUDICATIONS", "BUILTIN", "BuiltinPlayer", "GameResult", "Player", "Score",
           "Settings", "claim_only", "match", "opening", "pgn", "play_game", "player_for",
           "table"]
