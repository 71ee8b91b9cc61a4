"""Drivers that play moves through an external engine's protocol: start
the program (`uci:PATH`, `xboard:PATH`, `usi:PATH`, a command line split as
a shell would), set up the variant and position, ask for a move within a
time and hand back its text in variantkit's notation, unchecked: the
referee judges it.  Lines are read on a thread, so a silent or
hung engine costs a bounded wait, never a hang."""

from __future__ import annotations

import math
import os
import queue
import shlex
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from variantkit.fsf.exporter import ExportRefused, export_section
from variantkit.game import Game
from variantkit.loader import bundled_dir
from variantkit.protocols.channel import MAX_LINE
from variantkit.protocols.host import DEFAULT_VARIANT
from variantkit.protocols.uci import VARIANT_OPTION, Dialect
from variantkit.protocols.usi import UsiDialect
from variantkit.protocols.xboard import NORMAL
from variantkit.variant import Variant

# Seconds an engine may take to start, to answer isready/ping, to quit.
HANDSHAKE_SECONDS = 10.0
PROTOCOLS = ("uci", "xboard", "usi")
# What `move` answers for an engine that gives up.
RESIGN = "resign"


class EngineFailure(RuntimeError):
    """The engine could not be started, answered out of protocol, or died."""


@dataclass
class Clock:
    """What the referee tells an engine about time before a move: a fixed
    time per move, or both sides' time left and increments (seconds)."""

    movetime: float | None = None
    white: float = 0.0
    black: float = 0.0
    increment: float = 0.0


class Process:
    """An engine program and the lines it writes, read on a thread."""

    def __init__(self, command: str, label: str) -> None:
        self.label = label
        self.lines: queue.Queue[str | None] = queue.Queue()
        try:
            self.process = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except (OSError, ValueError) as exc:
            raise EngineFailure(f"{label}: cannot start: {exc}") from None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        for line in iter(lambda: stream.readline(MAX_LINE), ""):
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        stream = self.process.stdin
        assert stream is not None
        try:
            for line in lines:
                stream.write(line + "\n")
            stream.flush()
        except (OSError, ValueError):
            raise EngineFailure(f"{self.label}: the engine has exited") from None

    def expect(self, prefix: str, seconds: float, *others: str) -> str | None:
        """The first line whose first word is `prefix` or one of `others`
        (any line for "") within `seconds`, None if none came in time; the
        lines before it are dropped."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                raise EngineFailure(f"{self.label}: the engine has exited")
            if not prefix or line.split(" ", 1)[0] in (prefix, *others):
                return line

    def close(self, quit_line: str) -> None:
        try:
            self.send(quit_line)
            self.process.wait(HANDSHAKE_SECONDS)
        except (EngineFailure, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


class ExternalEngine:
    """One external engine for a match; `name` is what PGN records."""

    def __init__(self, spec: str) -> None:
        protocol, _, command = spec.partition(":")
        if protocol not in PROTOCOLS or not command:
            raise EngineFailure(f"engine {spec!r}: write uci:PATH, xboard:PATH or usi:PATH")
        self.protocol, self.name = protocol, command
        self.process = Process(command, spec)
        self.dialect: Dialect = UsiDialect() if protocol == "usi" else Dialect()
        self.variants: list[str] = []
        self.options: set[str] = set()   # a UCI or USI engine's option names
        self.features: dict[str, str] = {}
        self._ini: Path | None = None    # the ini file written to describe a variant
        self._sent = 0  # moves of the game an xboard engine has been told
        if protocol == "xboard":
            self.process.send("xboard", "protover 2")
            deadline = time.monotonic() + HANDSHAKE_SECONDS
            while time.monotonic() < deadline:
                line = self.process.expect("feature", deadline - time.monotonic())
                if line is None:
                    break
                for key, value in _features(line[8:]):
                    self.features[key] = value
                if self.features.get("done") == "1":
                    break
            self.variants = self.features.get("variants", NORMAL).split(",")
            self.name = self.features.get("myname", self.name)
        else:
            self.process.send(self.dialect.hello)
            deadline = time.monotonic() + HANDSHAKE_SECONDS
            while True:
                line = self.process.expect("", deadline - time.monotonic())
                if line is None:
                    raise EngineFailure(f"{spec}: no {self.dialect.ok} in time")
                if line.startswith("option name "):
                    self.options.add(line[12:].partition(" type ")[0])
                if line.startswith(f"option name {VARIANT_OPTION} "):
                    self.variants = line.split(" var ")[1:]
                elif line.startswith("id name "):
                    self.name = line[8:]
                if line == self.dialect.ok:
                    break

    def ready(self) -> None:
        if self.protocol == "xboard":
            self.process.send("ping 1")
            found = self.process.expect("pong", HANDSHAKE_SECONDS)
        else:
            self.process.send("isready")
            found = self.process.expect("readyok", HANDSHAKE_SECONDS)
        if found is None:
            raise EngineFailure(f"{self.protocol}:{self.name}: not ready in time")

    def new_game(self, variant: Variant) -> None:
        """Set up a new game of `variant`: by name where the engine lists it
        and it is the bundled one, else described through `VariantPath`."""
        name = variant.name
        if self.protocol == "xboard":
            if self.variants and name != DEFAULT_VARIANT and name not in self.variants:
                raise EngineFailure(f"{self.protocol}:{self.name} does not play {name}")
            self.process.send("new", "force")
            if name != DEFAULT_VARIANT:
                self.process.send(f"variant {name}")
        else:
            if name in self.variants and is_bundled(variant):
                self.process.send(f"setoption name {VARIANT_OPTION} value {name}")
            elif self.variants:
                self._describe(variant)
            self.process.send(self.dialect.new_game)
        self.ready()
        self._sent = 0

    def _describe(self, variant: Variant) -> None:
        """Tell a UCI engine about a variant it does not know, through its
        `VariantPath` option, as Fairy-Stockfish takes it: variantkit's own
        engine is given the variant's file; another engine an ini section
        exported from it (a variant Fairy-Stockfish's format cannot express
        is refused with the reasons)."""
        name = variant.name
        cannot = f"{self.protocol}:{self.name} does not play {name}"
        if "VariantPath" not in self.options:
            raise EngineFailure(f"{cannot}, and has no VariantPath option to learn it")
        if self.name.startswith("variantkit"):   # it reads the variant's own file
            file = variant.document.file
            if file is None or not Path(file).is_file():
                raise EngineFailure(f"{cannot}, and {name} was read from no file to give it")
            self.process.send(f"setoption name VariantPath value {Path(file).resolve()}")
            return
        try:
            section = export_section(variant)
        except ExportRefused as exc:
            raise EngineFailure(f"{cannot}, and its rules do not fit an ini section: "
                                f"{'; '.join(exc.reasons)[:300]}") from None
        try:
            if self._ini is None:
                handle, path = tempfile.mkstemp(prefix="variantkit-", suffix=".ini")
                os.close(handle)
                self._ini = Path(path)
            self._ini.write_text(section, encoding="utf-8")
        except OSError as exc:
            raise EngineFailure(f"{cannot}, and its ini section cannot be written to a "
                                f"temporary file: {exc.strerror or exc}") from None
        self.process.send(f"setoption name VariantPath value {self._ini}",
                          f"setoption name {VARIANT_OPTION} value {name}")

    def move(self, game: Game, clock: Clock, wait: float) -> str | None:
        """The engine's move in variantkit's notation, RESIGN, or None when
        no move came within `wait` seconds (the engine is then stopped)."""
        if self.protocol == "xboard":
            return self._xboard_move(game, clock, wait)
        d, variant = self.dialect, game.variant
        moves = " ".join(d.move_out(variant, m) for m in game.move_stack)
        start = game.copy()
        while start.plies:
            start.pop()
        position = "startpos" if start.fen() == variant.setup_fen \
            else f"{d.position_word} {d.position_out(start)}"
        self.process.send(f"position {position}" + (f" moves {moves}" if moves else ""))
        if clock.movetime is not None:
            go = f"go movetime {_ms(clock.movetime)}"
        else:
            words = d.clock_words
            inc = _ms(clock.increment)
            go = (f"go {words['wtime']} {_ms(clock.white)} {words['btime']} {_ms(clock.black)} "
                  f"{words['winc']} {inc} {words['binc']} {inc}")
        self.process.send(go)
        line = self.process.expect("bestmove", wait)
        if line is None:
            self.process.send("stop")
            self.process.expect("bestmove", HANDSHAKE_SECONDS)
            return None
        text = line.split()[1] if len(line.split()) > 1 else ""
        if text == d.no_move:
            return RESIGN
        try:
            return d.move_in(variant, text)
        except ValueError:
            return text

    def _xboard_move(self, game: Game, clock: Clock, wait: float) -> str | None:
        prefix = "usermove " if self.features.get("usermove") == "1" else ""
        for move in game.move_stack[self._sent:]:
            self.process.send(f"{prefix}{move}")
        if clock.movetime is not None:  # one move a session, that move's time
            self.process.send(f"level 1 0:{max(1, math.ceil(clock.movetime))} 0",
                              f"time {round(clock.movetime * 100)}",
                              f"otim {round(clock.movetime * 100)}")
        else:
            own, other = (clock.white, clock.black) if game.position.stm == 0 \
                else (clock.black, clock.white)
            self.process.send(f"time {round(own * 100)}", f"otim {round(other * 100)}")
        self.process.send("go")
        line = self.process.expect("move", wait, RESIGN)
        self.process.send("force")
        if line is None:
            self.process.send("?")
            return None
        if line == RESIGN:
            return RESIGN
        self._sent = game.plies + 1
        return line.split()[1] if len(line.split()) > 1 else ""

    def set_clock(self, base: float, increment: float) -> None:
        """Tell an xboard engine the game's time control (UCI and USI get
        the clocks with each move)."""
        if self.protocol == "xboard":
            minutes, seconds = divmod(round(base), 60)
            self.process.send(f"level 0 {minutes}:{seconds:02d} {increment:g}")

    def close(self) -> None:
        self.process.close("quit")
        if self._ini is not None:
            self._ini.unlink(missing_ok=True)


def is_bundled(variant: Variant) -> bool:
    """Whether `variant` was read from variantkit's bundled files, which an
    engine that lists it by name knows."""
    file = variant.document.file
    return file is not None and Path(file).resolve().parent == bundled_dir().resolve()


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def _features(text: str) -> list[tuple[str, str]]:
    """`a=1 b="x y"` as pairs."""
    try:
        words = shlex.split(text)
    except ValueError:
        return []
    return [(k, v) for k, _, v in (w.partition("=") for w in words)]
