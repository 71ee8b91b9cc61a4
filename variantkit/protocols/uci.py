"""The built-in engine behind UCI (and, through a dialect, USI): reads a
GUI's commands, keeps the variant and position it sets, searches on a
thread while it goes on answering, and writes `info` and `bestmove`.

Any bundled variant is chosen with the `UCI_Variant` option, and any
variant file with `VariantPath` (loaded and chosen at once; a
Fairy-Stockfish ini file adds its sections to `UCI_Variant`'s choices,
each compiled when chosen).  A variant loads while input is still read:
`isready` is answered once it is loaded, `quit` at once.  A command that
is unknown or malformed is answered with `info string`, UCI's only way to
tell the GUI, never with a traceback."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import BinaryIO, TextIO

import variantkit
from variantkit.engine import MAX_DEPTH, Engine, Limits, SearchInfo
from variantkit.errors import IllegalMoveError, quote, shorten
from variantkit.game import Game
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
from variantkit.values import Move
from variantkit.variant import Variant

# The option that chooses a bundled variant, in USI as well.
VARIANT_OPTION = "UCI_Variant"
# The go words followed by a number.  `mate N` asks for a mate in N moves:
# a search of 2N-1 plies (UCI; USI's own meaning is in its dialect).
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime",
              "mate", "byoyomi")
GO_WORDS = (*GO_NUMBERS, "infinite", "ponder", "searchmoves")
# Options a GUI may set that change nothing here.
IGNORED_OPTIONS = ("Ponder", "Hash", "Threads", "MultiPV", "USI_Ponder", "USI_Hash")
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

    def supports(self, variant: Variant) -> bool:
        return True

    def variants(self) -> list[str]:
        return variantkit.variants()

    def position_out(self, game: Game) -> str:
        return game.fen()

    def move_out(self, variant: Variant, move: Move) -> str:
        return str(move)

    def move_in(self, variant: Variant, text: str) -> str:
        return text

    def game_from(self, variant: Variant, text: str) -> Game:
        return variant.new_game(text)


class UciSession(Host):
    """One GUI's session with the built-in engine."""

    def __init__(self, channel: Channel, dialect: Dialect | None = None) -> None:
        super().__init__(channel)
        self.dialect = dialect or Dialect()
        self.variant = variantkit.load(self.dialect.default_variant)
        self.engine = Engine(self.variant)
        self.game = self.variant.new_game()
        self.pondering: Limits | None = None
        # The Fairy-Stockfish ini file VariantPath named last, if any.
        self.ini: IniChoices | None = None

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
            self.channel.write("readyok")
        elif word == "setoption":
            self.set_option(rest)
        elif word == d.new_game:
            self.finish()
            self.engine.new_game()
            self.game = self.variant.new_game()
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
        names = " ".join(f"var {name}" for name in self.dialect.variants())
        variant_option = f"option name {VARIANT_OPTION} type combo"
        self.channel.write(
            f"id name variantkit {variantkit.__version__}", "id author the variantkit developers",
            f"{variant_option} default {self.variant.name} {names}",
            "option name VariantPath type string default <empty>",
            "option name Ponder type check default false",
            self.dialect.ok)

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
        elif name not in IGNORED_OPTIONS:
            self.say(f"unknown option: {shorten(name, 80)}")

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
        self.variant, self.engine = variant, engine
        self.game = variant.new_game()

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
        send no `stop`."""
        thinking = self.thinking
        if thinking is not None and thinking.running and not thinking.handed_on.is_set():
            self.say("already searching: go ignored")
            return
        self.finish()  # the last search, its move written, ends its thread
        limits = Limits()
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
                self.say("go searchmoves: not supported, every move is searched")
                while i + 1 < len(words) and words[i + 1] not in GO_WORDS:
                    i += 1
            else:
                self.say(f"go: unknown word {shorten(word, 20)}")
                malformed = True
            i += 1
        if not (limits.depth or limits.nodes or limits.movetime is not None
                or limits.wtime is not None or limits.btime is not None
                or limits.infinite):
            if malformed:
                limits.depth = 1
            else:
                limits.infinite = True  # a bare `go` searches until `stop`
        hold = limits.infinite and not checkmate
        if ponder:
            # Pondering, the clock waits for `ponderhit`; depth and nodes
            # bound the search already.
            self.pondering = limits
            limits, hold = Limits(depth=limits.depth, nodes=limits.nodes, infinite=True), True
        self.thinking = Thinking(self.engine, self.game, limits, self.info,
                                 self.checkmate if checkmate else self.best, hold=hold)

    @staticmethod
    def _set(limits: Limits, name: str, number: int, checkmate: bool) -> None:
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
        elif name == "byoyomi":  # counts as an increment, and as time in hand
            seconds = number / 1000
            limits.winc, limits.binc = limits.winc + seconds, limits.binc + seconds
            limits.wtime = (limits.wtime or 0.0) + seconds
            limits.btime = (limits.btime or 0.0) + seconds
        elif name == "wtime":
            limits.wtime = number / 1000 + (limits.wtime or 0.0)
        elif name == "btime":
            limits.btime = number / 1000 + (limits.btime or 0.0)
        elif name == "winc":
            limits.winc += number / 1000
        else:
            limits.binc += number / 1000

    def info(self, info: SearchInfo) -> None:
        mate = info.mate_in
        score = f"mate {mate}" if mate is not None else f"cp {info.score}"
        pv = " ".join(self.dialect.move_out(self.variant, m) for m in info.pv)
        self.channel.write(
            f"info depth {info.depth} score {score} nodes {info.nodes} "
            f"nps {round(info.nodes_per_second)} time {round(info.seconds * 1000)} pv {pv}")

    def best(self, move: Move | None) -> None:
        if move is None:
            self.channel.write(f"bestmove {self.dialect.no_move}")
            return
        pv = self.engine.info.pv
        text = f"bestmove {self.dialect.move_out(self.variant, move)}"
        if len(pv) > 1 and pv[0] == move:
            text += f" ponder {self.dialect.move_out(self.variant, pv[1])}"
        self.channel.write(text)

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


def serve(dialect: Dialect | None = None, source: BinaryIO | None = None,
          sink: TextIO | None = None) -> int:
    """Run one session on standard input and output (or the streams
    given); the exit status."""
    channel = Channel(source or sys.stdin.buffer, sink or sys.stdout)
    return serve_session(UciSession(channel, dialect))


__all__ = ["Dialect", "UciSession", "serve"]
