"""The built-in engine behind UCI (and, through a dialect, USI): reads a
GUI's commands, keeps the variant and position it sets, searches on a
thread while it goes on answering, and writes `info` and `bestmove`.

Any bundled variant is chosen with the `UCI_Variant` option, and any
variant file with `VariantPath` (loaded and chosen at once).  A command
that is unknown or malformed is answered with `info string`, UCI's only
way to tell the GUI, never with a traceback."""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

import variantkit
from variantkit.engine import MAX_DEPTH, Engine, Limits, SearchInfo
from variantkit.errors import IllegalMoveError, quote
from variantkit.game import Game, VariantFace
from variantkit.protocols.channel import Channel, LineTooLong
from variantkit.protocols.host import (
    DEFAULT_VARIANT,
    REFUSED,
    Thinking,
    bounded_int,
    ini_variants,
    load_variant,
)
from variantkit.values import Move

# The option that chooses a bundled variant, in USI as well.
VARIANT_OPTION = "UCI_Variant"
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime")


class Dialect:
    """The words and notations of UCI; USI subclasses it."""

    hello, ok, new_game, name = "uci", "uciok", "ucinewgame", "UCI"
    no_move = "(none)"   # the best move of a game that is over
    position_word = "fen"
    default_variant = DEFAULT_VARIANT
    # The go keywords of White's and Black's clocks and increments.
    clock_words = {"wtime": "wtime", "btime": "btime", "winc": "winc", "binc": "binc"}

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


class UciSession:
    """One GUI's session with the built-in engine."""

    def __init__(self, channel: Channel, dialect: Dialect | None = None) -> None:
        self.channel = channel
        self.dialect = dialect or Dialect()
        self.variant = variantkit.load(self.dialect.default_variant)
        self.engine = Engine(self.variant)
        self.game = self.variant.new_game()
        self.thinking: Thinking | None = None
        self.pondering: Limits | None = None
        # Variants of a Fairy-Stockfish ini file named by VariantPath: their
        # YAML by name, compiled when chosen.
        self.imported: dict[str, str] = {}
        self.ini_path = ""

    def say(self, text: str) -> None:
        self.channel.write(f"info string {text}")

    def run(self) -> None:
        """Answer commands until `quit` or the end of input."""
        while True:
            try:
                line = self.channel.read()
            except LineTooLong as exc:
                self.say(str(exc))
                continue
            if line is None or line == "quit":
                break
            if line:
                self.command(line)
        if self.thinking is not None:
            self.thinking.finish()

    def command(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        rest = rest.strip()
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
            self.say(f"unknown command: {line[:80]}")

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
        if not rest.startswith("name "):
            self.say(f"malformed setoption: {rest[:80]}")
            return
        name, _, value = rest[5:].partition(" value ")
        name, value = name.strip(), value.strip()
        if name in (VARIANT_OPTION, "VariantPath"):
            if not value or value == "<empty>":
                return
            if name == "VariantPath" and value.lower().endswith(".ini"):
                self.load_ini(value)
                return
            if name == VARIANT_OPTION and value not in self.dialect.variants() \
                    and value not in self.imported:
                self.say(f"unknown variant: {value[:80]}")
                return
            self.finish()
            try:
                if name == VARIANT_OPTION and value in self.imported:
                    variant = load_variant(f"{self.ini_path} [{value}]", self.imported[value])
                else:
                    variant = load_variant(value)
            except ValueError as exc:
                self.say(f"variant refused: {exc}")
                return
            if not self.dialect.supports(variant):
                self.say(f"variant {variant.name} has no {self.dialect.name} notation")
                return
            self.variant, self.engine = variant, Engine(variant)
            self.game = variant.new_game()
        elif name not in ("Ponder", "Hash", "Threads", "MultiPV"):
            self.say(f"unknown option: {name[:80]}")

    def load_ini(self, path: str) -> None:
        """`VariantPath` naming a Fairy-Stockfish ini file, as that engine
        takes it: its sections become choices of `UCI_Variant` (the variant
        in play stays), each section that cannot be imported named."""
        try:
            imported, refused = ini_variants(path)
        except ValueError as exc:
            self.say(f"variant refused: {exc}")
            return
        self.imported, self.ini_path = imported, path
        names = " ".join(imported)
        self.say(f"{len(imported)} variant(s) of {quote(path)} for {VARIANT_OPTION}: "
                 f"{names[:400]}{' ...' if len(names) > 400 else ''}")
        if refused:
            names = " ".join(refused)
            self.say(f"{len(refused)} section(s) not imported (variantkit import-fsf tells why): "
                     f"{names[:400]}{' ...' if len(names) > 400 else ''}")

    def position(self, rest: str) -> None:
        """`position startpos|fen F [moves M...]`: a new game; on an illegal
        move, the position before it is kept and the GUI told."""
        setup, _, moves = rest.partition(" moves")
        if moves and not moves.startswith(" "):
            self.say(f"malformed position: {rest[:80]}")
            return
        self.finish()
        word, _, text = setup.strip().partition(" ")
        try:
            if word == "startpos":
                game = self.variant.new_game()
            elif word == self.dialect.position_word and text.strip():
                game = self.dialect.game_from(self.variant, text.strip())
            else:
                self.say(f"malformed position: {rest[:80]}")
                return
        except REFUSED as exc:
            self.say(f"position refused: {' '.join(str(exc).split())[:200]}")
            return
        for text in moves.split():
            try:
                game.push(self.dialect.move_in(self.variant, text))
            except (IllegalMoveError, ValueError):
                self.say(f"illegal move {text[:20]} in position; the moves before it kept")
                break
        self.game = game

    def go(self, words: list[str]) -> None:
        if self.thinking is not None and self.thinking.running:
            self.say("already searching: go ignored")
            return
        limits = Limits()
        ponder = False
        d = self.dialect
        clock = {word: name for name, word in d.clock_words.items()}
        i = 0
        malformed = False
        while i < len(words):
            word = words[i]
            if word in GO_NUMBERS or word in clock or word == "byoyomi":
                i += 1
                try:
                    number = max(0, bounded_int(words[i]))
                except (IndexError, ValueError):
                    self.say(f"go {word}: a number expected")
                    malformed = True
                else:
                    self._set(limits, clock.get(word, word), number)
            elif word == "infinite":
                limits.infinite = True
            elif word == "ponder":
                ponder = True
            elif word != "searchmoves" and "searchmoves" not in words[:i]:
                self.say(f"go: unknown word {word[:20]}")
            i += 1
        if not (limits.depth or limits.nodes or limits.movetime is not None
                or limits.wtime is not None or limits.btime is not None
                or limits.infinite):
            if malformed:
                # The GUI meant a limit and will not send `stop`: answer at
                # once rather than search until a `stop` that never comes.
                limits.depth = 1
            else:
                limits.infinite = True  # a bare `go` searches until `stop`
        if ponder:
            self.pondering = limits
            limits = Limits(infinite=True)
        self.thinking = Thinking(self.engine, self.game, limits, self.info, self.best,
                                 hold=limits.infinite)

    @staticmethod
    def _set(limits: Limits, name: str, number: int) -> None:
        if name == "depth":
            limits.depth = max(1, min(number, MAX_DEPTH))
        elif name == "nodes":
            limits.nodes = max(1, number)
        elif name == "movestogo":
            limits.movestogo = number or None
        elif name == "byoyomi":  # counts as an increment, and as time in hand
            seconds = number / 1000
            limits.winc, limits.binc = limits.winc + seconds, limits.binc + seconds
            limits.wtime = (limits.wtime or 0.0) + seconds
            limits.btime = (limits.btime or 0.0) + seconds
        elif name == "movetime":
            limits.movetime = number / 1000
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

    def finish(self) -> None:
        """Stop a search that runs; its bestmove is written first."""
        if self.thinking is not None:
            self.thinking.finish()
            self.thinking = None
        self.pondering = None


def serve(dialect: Dialect | None = None, source: BinaryIO | None = None,
          sink: TextIO | None = None) -> None:
    """Run one session on standard input and output (or the streams given)."""
    channel = Channel(source or sys.stdin.buffer, sink or sys.stdout)
    UciSession(channel, dialect).run()


__all__ = ["Dialect", "UciSession", "serve"]
