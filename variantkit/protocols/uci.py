"""The built-in engine behind UCI (and, through a dialect, USI): reads a
GUI's commands, keeps the variant and position it sets, searches on a
thread while it goes on answering, and writes `info` and `bestmove`.

Any bundled variant is chosen with the `UCI_Variant` option, and any
variant file with `VariantPath` (loaded and chosen at once; a
Fairy-Stockfish ini file adds its sections to `UCI_Variant`'s choices,
each compiled when chosen).  A variant loads while input is still read:
`isready` is answered once it is loaded, `quit` at once.  The other
options: `MultiPV` (that many best lines, each reported), `UCI_Chess960`
(castling written and read as the king taking its rook), `Hash` (the
bound of the transposition table, in megabytes), `Clear Hash`, and
`Skill Level`, `UCI_LimitStrength` and `UCI_Elo`, which weaken the engine
(`variantkit.engine.search.weakening`).  A command that is unknown or malformed
is answered with `info string`, UCI's only way to tell the GUI, never
with a traceback."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, TextIO

import variantkit
from variantkit.errors import IllegalMoveError, quote, shorten
from variantkit.protocols.channel import Channel, command_words
from variantkit.protocols.host import (
    DEFAULT_VARIANT,
    PATH_CHARS,
    REFUSED,
    Host,
    IniChoices,
    Thinking,
    bounded_int,
    load_variant,
    read_ini_choices,
    serve_session,
)
from variantkit.public_types import Move

if TYPE_CHECKING:
    from variantkit.engine.search import Engine, Limits, SearchInfo
    from variantkit.game import Game, VariantFace
    from variantkit.variant import Variant

# The option that chooses a bundled variant, in USI as well.
VARIANT_OPTION = "UCI_Variant"
# The go words followed by a number.  `mate N` asks for a mate in N moves:
# a search of 2N-1 plies (UCI; USI's own meaning is in its dialect).
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime",
              "mate", "byoyomi")
GO_WORDS = (*GO_NUMBERS, "infinite", "ponder", "searchmoves")
# Options a GUI may set that change nothing here (pondering is the GUI's
# `go ponder`; the search has one thread).
IGNORED_OPTIONS = ("Ponder", "Threads", "USI_Ponder")
# Hash: the table's bound in megabytes (the engine's TT_ENTRY_BYTES an
# entry); its default is the engine's own bound, TT_LIMIT entries (kept
# here so that `uci` is answered without importing the search; a test
# holds them equal).
HASH_MIN, HASH_DEFAULT, HASH_MAX = 1, 400, 4096
# MultiPV: best lines reported.
MULTIPV_MAX = 500
# Skill Level's range: SKILL_LEVELS is full strength (the engine's
# SKILL_MAX, which a test holds equal).
SKILL_LEVELS = 20
# UCI_Elo's scale, measured: skill levels with their ratings on Stockfish
# 15.1's UCI_Elo scale (matches of chess at 0.2 s a move on an idle
# machine; docs/engine.md, "Strength levels"), weakest first and ending at
# full strength.  A UCI_Elo between two is the level interpolated linearly
# (`skill_of_elo`); below the weakest measured level the scale does not
# reach.
MEASURED_LEVELS: tuple[tuple[int, float], ...] = ((1315, 15.0), (1591, 18.0),
                                                  (1789, float(SKILL_LEVELS)))
ELO_MIN, ELO_MAX = MEASURED_LEVELS[0][0], MEASURED_LEVELS[-1][0]
# `setoption name NAME [value VALUE]`, words apart by any white space.
SET_OPTION = re.compile(r"name\s+(.+?)(?:\s+value(?:\s+(.*))?)?", re.DOTALL)


class Dialect:
    """The words and notations of UCI; USI subclasses it."""

    hello, ok, new_game, name = "uci", "uciok", "ucinewgame", "UCI"
    no_move = "(none)"   # the best move of a game that is over
    position_word = "fen"
    default_variant = DEFAULT_VARIANT
    # The go keywords of White's and Black's clocks and increments.
    clock_words = {"wtime": "wtime", "btime": "btime", "winc": "winc", "binc": "binc"}
    # Whether `go mate T` is USI's checkmate search (T milliseconds, or
    # `infinite`, answered with `checkmate ...`) rather than UCI's depth.
    checkmate_search = False
    # Whether the UCI_Chess960 option is offered, and the name of the
    # table's size option.
    chess960 = True
    hash_option = "Hash"

    def supports(self, variant: VariantFace) -> bool:
        return True

    def variants(self) -> list[str]:
        return variantkit.variants()

    def position_out(self, game: Game) -> str:
        return game.fen()

    def move_out(self, variant: VariantFace, move: Move) -> str:
        return str(move)

    def move_in(self, variant: VariantFace, text: str) -> str:
        return text

    def game_from(self, variant: VariantFace, text: str) -> Game:
        return variant.new_game(text)


class UciSession(Host):
    """One GUI's session with the built-in engine."""

    def __init__(self, channel: Channel, dialect: Dialect | None = None) -> None:
        self.dialect = dialect or Dialect()
        super().__init__(channel, self.dialect.default_variant)
        self.pondering: Limits | None = None
        # The Fairy-Stockfish ini file VariantPath named last, if any.
        self.ini: IniChoices | None = None
        self.multipv = 1
        self.chess960 = False
        self.skill_level = SKILL_LEVELS
        self.limit_strength = False
        self.elo = ELO_MAX

    def say(self, text: str) -> None:
        self.channel.write(f"info string {text}")

    def refuse_line(self, reason: str, detail: str) -> None:
        self.say(detail)

    def command(self, line: str) -> None:
        word, rest = command_words(line)
        d = self.dialect
        if word == d.hello:
            self.hello()
        elif word == "isready":
            self.prepare()   # the default variant, loaded once the GUI waits for it
            self.channel.write("readyok")
        elif word == "setoption":
            self.set_option(rest)
        elif word == d.new_game:
            self.finish()
            self.engine.new_game()
            self.set_game(self.variant.new_game())
        elif word == "position":
            self.position(rest)
        elif word == "go":
            self.go(rest.split())
        elif word == "stop":
            self.finish()
        elif word == "ponderhit":
            if self.thinking is not None and self.pondering is not None:
                self.thinking.ponderhit(self.pondering)
                self.pondering = None
        elif word in ("debug", "register", "gameover"):
            pass  # nothing to do for these
        else:
            self.say(f"unknown command: {shorten(line, 80)}")

    def hello(self) -> None:
        """The engine's name and options, then `uciok`: written without
        loading any variant, so that a GUI probing engines waits little."""
        d = self.dialect
        names = " ".join(f"var {name}" for name in d.variants())
        self.channel.write(
            f"id name variantkit {variantkit.__version__}", "id author the variantkit developers",
            f"option name {VARIANT_OPTION} type combo default {self.wanted} {names}",
            "option name VariantPath type string default <empty>",
            "option name Ponder type check default false",
            f"option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}",
            *(["option name UCI_Chess960 type check default false"] if d.chess960 else []),
            f"option name {d.hash_option} type spin default {HASH_DEFAULT} min {HASH_MIN} "
            f"max {HASH_MAX}",
            "option name Clear Hash type button",
            f"option name Skill Level type spin default {SKILL_LEVELS} min 0 max {SKILL_LEVELS}",
            "option name UCI_LimitStrength type check default false",
            f"option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}",
            d.ok)

    def set_option(self, rest: str) -> None:
        match = SET_OPTION.fullmatch(rest)
        if match is None:
            self.say(f"malformed setoption: {shorten(rest, 80)}")
            return
        name, value = " ".join(match[1].split()), (match[2] or "").strip()
        if name == VARIANT_OPTION:
            self.choose_variant(value)
        elif name == "VariantPath":
            if value and value != "<empty>":
                self.variant_path(value)
        elif name == "Clear Hash":
            self.finish()
            if self._engine is not None:
                self._engine.clear_table()
        elif name == "UCI_Chess960":
            self.chess960 = self.check(name, value, self.chess960)
            if self._game is not None:
                self.set_game(self._game)
        elif name == "UCI_LimitStrength":
            self.limit_strength = self.check(name, value, self.limit_strength)
            self.retune()
        elif name in ("MultiPV", "Skill Level", "UCI_Elo", "Hash", "USI_Hash"):
            self.set_number(name, value)
        elif name not in IGNORED_OPTIONS:
            self.say(f"unknown option: {shorten(name, 80)}")

    def check(self, name: str, value: str, current: bool) -> bool:
        """A check option's new value (`true`/`false`); told and kept as it
        was for another value."""
        if value.lower() in ("true", "false"):
            return value.lower() == "true"
        self.say(f"option {name}: true or false expected, not {shorten(value, 20)}")
        return current

    def set_number(self, name: str, value: str) -> None:
        """A spin option, clamped into its range (told when it was not
        a number or out of the range)."""
        low, high = {"MultiPV": (1, MULTIPV_MAX), "Skill Level": (0, SKILL_LEVELS),
                     "UCI_Elo": (ELO_MIN, ELO_MAX)}.get(name, (HASH_MIN, HASH_MAX))
        try:
            number = bounded_int(value)
        except ValueError:
            self.say(f"option {name}: a number from {low} to {high} expected")
            return
        if not low <= number <= high:
            self.say(f"option {name}: {number} is out of {low} to {high}; "
                     f"{min(max(number, low), high)} taken")
        number = min(max(number, low), high)
        if name == "MultiPV":
            self.multipv = number
        elif name == "Skill Level":
            self.skill_level = number
        elif name == "UCI_Elo":
            self.elo = number
        else:
            from variantkit.engine.search import TT_ENTRY_BYTES

            self.finish()
            self.table_entries = number * 2**20 // TT_ENTRY_BYTES
        self.retune()

    def retune(self) -> None:
        """Give the engine in play the table size and strength set."""
        self.skill = skill_of_elo(self.elo) if self.limit_strength \
            else None if self.skill_level >= SKILL_LEVELS else float(self.skill_level)
        if self._engine is not None:
            self.finish()
            self.tune(self._engine)

    def choose_variant(self, name: str) -> None:
        """`UCI_Variant`: a bundled variant, or a section of the ini file
        VariantPath named, compiled now."""
        ini = self.ini
        if name in self.dialect.variants():
            self.use(lambda: load_variant(name))
        elif ini is not None and name in ini.names:
            self.use(lambda: ini.variant(name))
        elif name:
            self.say(f"unknown variant: {shorten(name, 80)}")

    def variant_path(self, path: str) -> None:
        """`VariantPath`: a variant file, loaded and chosen at once, or a
        Fairy-Stockfish ini file, as that engine takes it: its sections
        become choices of `UCI_Variant` (the variant in play stays)."""
        if not path.lower().endswith(".ini"):
            self.use(lambda: load_variant(path))
            return
        self.finish()
        try:
            ini = self.background(lambda: read_ini_choices(path))
        except ValueError as exc:
            self.say(f"variant refused: {exc}")
            return
        if ini is None:
            self.say(f"VariantPath {quote(path, PATH_CHARS)} not read: the session ends")
            return
        self.ini = ini
        names = " ".join(ini.names)
        self.say(f"{len(ini.names)} variant(s) of {quote(path, PATH_CHARS)} for "
                 f"{VARIANT_OPTION}, each compiled when chosen: "
                 f"{names[:400]}{' ...' if len(names) > 400 else ''}")
        if ini.problems:
            self.say(f"{ini.problems} line(s) of {quote(path, PATH_CHARS)} not read "
                     "(variantkit import-fsf tells why)")

    def use(self, load: Callable[[], Variant]) -> None:
        """Stop the search, load a variant on a thread while input is
        still read, and play it from its start; a refusal is told."""
        self.finish()

        def prepared() -> tuple[Variant, Engine]:
            from variantkit.engine.search import Engine

            variant = load()
            return variant, Engine(variant)

        try:
            loaded = self.background(prepared)
        except ValueError as exc:
            self.say(f"variant refused: {exc}")
            return
        if loaded is None:
            self.say("variant not loaded: the session ends")
            return
        variant, engine = loaded
        if not self.dialect.supports(variant):
            self.say(f"variant {variant.name} has no {self.dialect.name} notation")
            return
        self.install(variant, engine)
        self.set_game(self.game)

    def set_game(self, game: Game) -> None:
        """Play `game` from now on; with UCI_Chess960, castling in it is
        written and read as the king taking its rook."""
        if self.chess960:
            game.position.chess960 = True
        self.game = game

    def position(self, rest: str) -> None:
        """`position startpos|fen F [moves M...]`: a new game; on an illegal
        move, the position before it is kept and the GUI told."""
        words = rest.split()
        at = words.index("moves") if "moves" in words else len(words)
        setup, moves = words[:at], words[at + 1:]
        self.finish()
        try:
            if setup == ["startpos"]:
                game = self.variant.new_game()
            elif len(setup) > 1 and setup[0] == self.dialect.position_word:
                game = self.dialect.game_from(self.variant, " ".join(setup[1:]))
            else:
                self.say(f"malformed position: {shorten(rest, 80)}")
                return
        except REFUSED as exc:
            self.say(f"position refused: {shorten(' '.join(str(exc).split()), 200)}")
            return
        if self.chess960:
            game.position.chess960 = True
        for text in moves:
            if self.ending:   # thousands of moves take seconds: `quit` need not wait
                return
            try:
                game.push(self.dialect.move_in(self.variant, text))
            except (IllegalMoveError, ValueError):
                self.say(f"illegal move {shorten(text, 20)} in position; the moves before it "
                         "kept")
                break
        self.game = game

    def go(self, words: list[str]) -> None:
        """`go` and its limits.  A bare `go` (or `go infinite`, `go ponder`)
        searches until `stop`; any other `go` ends by itself: a word that is
        unknown or a number that is missing is told, and a `go` left with
        no limit then searches one ply, since the GUI meant one and will
        send no `stop`.  `searchmoves M...` restricts the search to those
        moves (one that is not legal is told and left out)."""
        from variantkit.engine.search import Limits

        thinking = self.thinking
        if thinking is not None and thinking.running and not thinking.handed_on.is_set():
            self.say("already searching: go ignored")
            return
        self.finish()  # the last search, its move written, ends its thread
        limits = Limits(multipv=self.multipv)
        ponder = checkmate = malformed = False
        d = self.dialect
        clock = {word: name for name, word in d.clock_words.items()}
        i = 0
        while i < len(words):
            word = words[i]
            following = words[i + 1] if i + 1 < len(words) else ""
            if word in GO_NUMBERS:
                checkmate = checkmate or (word == "mate" and d.checkmate_search)
                if checkmate and word == "mate" and following == "infinite":
                    limits.infinite = True
                    i += 2
                    continue
                try:
                    number = max(0, bounded_int(following))
                except ValueError:
                    self.say(f"go {word}: a number expected")
                    malformed = True
                    i += 1 if following in GO_WORDS else 2
                    continue
                self._set(limits, clock.get(word, word), number, checkmate)
                i += 2
                continue
            if word == "infinite":
                limits.infinite = True
            elif word == "ponder":
                ponder = True
            elif word == "searchmoves":
                chosen = []
                while i + 1 < len(words) and words[i + 1] not in GO_WORDS:
                    i += 1
                    chosen.append(words[i])
                limits.searchmoves = self.search_moves(chosen)
            else:
                self.say(f"go: unknown word {shorten(word, 20)}")
                malformed = True
            i += 1
        if not (limits.depth or limits.nodes or limits.movetime is not None
                or limits.wtime is not None or limits.btime is not None
                or limits.byoyomi or limits.infinite):
            if malformed:
                limits.depth = 1
            else:
                limits.infinite = True  # a bare `go` searches until `stop`
        hold = limits.infinite and not checkmate
        if ponder:
            # Pondering, the clock waits for `ponderhit`; depth and nodes
            # bound the search already.
            self.pondering = limits
            limits, hold = Limits(depth=limits.depth, nodes=limits.nodes, infinite=True,
                                  multipv=limits.multipv, searchmoves=limits.searchmoves), True
        self.thinking = Thinking(self.engine, self.game, limits, self.info,
                                 self.checkmate if checkmate else self.best, hold=hold)

    def search_moves(self, texts: list[str]) -> list[Move] | None:
        """The legal moves of `go searchmoves`; those that are not legal
        are told.  None (every move) when none is."""
        legal = {self.dialect.move_out(self.variant, m): m for m in self.game.legal_moves()}
        chosen = [legal[text] for text in dict.fromkeys(texts) if text in legal]
        refused = [text for text in texts if text not in legal]
        if refused:
            self.say(f"go searchmoves: {len(refused)} move(s) not legal here left out: "
                     f"{shorten(' '.join(refused), 80)}")
        if texts and not chosen:
            self.say("go searchmoves: no legal move named, every move is searched")
        return chosen or None

    @staticmethod
    def _set(limits: Limits, name: str, number: int, checkmate: bool) -> None:
        from variantkit.engine.search import MAX_DEPTH

        if name == "depth":
            limits.depth = min(limits.depth or MAX_DEPTH, max(1, min(number, MAX_DEPTH)))
        elif name == "mate" and not checkmate:   # mate in N moves: 2N-1 plies
            plies = max(1, min(2 * number - 1, MAX_DEPTH))
            limits.depth = min(limits.depth or MAX_DEPTH, plies)
        elif name in ("movetime", "mate"):       # USI's checkmate search: its time
            limits.movetime = number / 1000
        elif name == "nodes":
            limits.nodes = max(1, number)
        elif name == "movestogo":
            limits.movestogo = number or None
        elif name == "byoyomi":   # each move's time once the main time is gone
            limits.byoyomi = number / 1000
        elif name == "wtime":
            limits.wtime = number / 1000
        elif name == "btime":
            limits.btime = number / 1000
        elif name == "winc":
            limits.winc = number / 1000
        else:
            limits.binc = number / 1000

    def info_line(self, info: SearchInfo, final: bool = False) -> str:
        """`info depth D [multipv K] score ... nodes N nps N time MS pv ...`;
        `final` (the search has ended) adds `hashfull`, the table's use in
        thousandths."""
        mate = info.mate_in
        score = f"mate {mate}" if mate is not None else f"cp {info.score}"
        pv = " ".join(self.dialect.move_out(self.variant, m) for m in info.pv)
        line = f" multipv {info.multipv}" if self.multipv > 1 else ""
        engine = self.engine
        full = f" hashfull {engine.table_used * 1000 // max(engine.table_entries, 1)}" \
            if final else ""
        return (f"info depth {info.depth}{line} score {score} nodes {info.nodes} "
                f"nps {round(info.nodes_per_second)}{full} time {round(info.seconds * 1000)} "
                f"pv {pv}")

    def info(self, info: SearchInfo) -> None:
        if info.multipv <= self.multipv:   # a weakened engine looks at more lines
            self.channel.write(self.info_line(info))

    def best(self, move: Move | None) -> None:
        """`bestmove M ponder P`, after a last `info` line that gives the
        search's depth, score, nodes and time as it ended, and its line."""
        if move is None:
            self.channel.write(f"bestmove {self.dialect.no_move}")
            return
        info = self.engine.info
        pv = info.pv
        text = f"bestmove {self.dialect.move_out(self.variant, move)}"
        if len(pv) > 1 and pv[0] == move:
            text += f" ponder {self.dialect.move_out(self.variant, pv[1])}"
        self.channel.write(self.info_line(info, final=True), text)

    def checkmate(self, move: Move | None) -> None:
        """USI's answer to `go mate`: the mating line the search found,
        `nomate` when the side to move has no move, else `timeout` (the
        search proves no absence of a mate)."""
        info = self.engine.info
        if move is None:
            self.channel.write("checkmate nomate")
        elif info.mate_in is not None and info.mate_in > 0 and info.pv:
            self.channel.write("checkmate " + " ".join(
                self.dialect.move_out(self.variant, m) for m in info.pv))
        else:
            self.channel.write("checkmate timeout")

    def finish(self) -> None:
        """Stop a search that runs; its bestmove is written first."""
        super().finish()
        self.pondering = None


def skill_of_elo(elo: int) -> float:
    """The skill level UCI_Elo stands for: that of MEASURED_LEVELS whose
    rating it is, interpolated linearly between two; the weakest measured
    level at ELO_MIN and below, full strength at ELO_MAX and above."""
    below_elo, below_level = MEASURED_LEVELS[0]
    if elo <= below_elo:
        return below_level
    for above_elo, above_level in MEASURED_LEVELS[1:]:
        if elo <= above_elo:
            share = (elo - below_elo) / (above_elo - below_elo)
            return below_level + share * (above_level - below_level)
        below_elo, below_level = above_elo, above_level
    return float(SKILL_LEVELS)


def serve(dialect: Dialect | None = None, source: BinaryIO | None = None,
          sink: TextIO | None = None) -> int:
    """Run one session on standard input and output (or the streams
    given); the exit status."""
    channel = Channel(source or sys.stdin.buffer, sink or sys.stdout)
    return serve_session(UciSession(channel, dialect))


__all__ = ["Dialect", "UciSession", "serve", "skill_of_elo"]
