"""Drivers that play moves through an external engine's protocol: start
the program (`uci:PATH`, `xboard:PATH`, `usi:PATH`, a command line split as
a shell would), set up the variant and position, ask for a move within a
time and hand back its text in variantkit's notation, unchecked: the
referee judges it.  A CECP engine may also announce a result (`1/2-1/2
{draw by repetition}`), handed back as a `Claim` for the referee to judge.

The engine is untrusted.  Its lines are read as bytes on a thread (text
that is not UTF-8 becomes replacement characters), each at most
MAX_ENGINE_LINE bytes, at most MAX_QUEUED_LINES of them waiting; its
handshake is bounded in time, lines and characters; writing to it and
waiting for it are bounded in time, so a silent, hung or flooding engine
costs a bounded wait and bounded memory, never a hang.  It runs in a
session of its own, and closing it ends its whole process group (its
children too): `quit`, then SIGTERM, then SIGKILL, each after a bounded
wait."""

from __future__ import annotations

import contextlib
import functools
import math
import os
import queue
import select
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from variantkit.fsf.exporter import ExportRefused, export_section
from variantkit.game import Game
from variantkit.loader import bundled_names, load_document
from variantkit.protocols.host import DEFAULT_VARIANT
from variantkit.protocols.uci import VARIANT_OPTION, Dialect
from variantkit.protocols.usi import UsiDialect
from variantkit.protocols.xboard import NORMAL, cecp_cells, cecp_move, variantkit_move
from variantkit.public_types import Move
from variantkit.variant import Variant

# Seconds an engine may take to start, to answer isready/ping or stop, and
# to take in what the referee writes to it.
HANDSHAKE_SECONDS = 10.0
# Seconds an engine may take to end after `quit`, then after SIGTERM.
QUIT_SECONDS = 2.0
TERM_SECONDS = 1.0
# Bytes of one line an engine writes: an option listing a few thousand
# variants fits; a longer line disqualifies the engine.
MAX_ENGINE_LINE = 32_768
# Lines read but not yet looked at: past them the engine waits to write.
MAX_QUEUED_LINES = 256
# What an engine may write before its handshake's end (`uciok`, `usiok`,
# CECP's `feature done=1`); more disqualifies it.
MAX_HANDSHAKE_LINES = 1_000
MAX_HANDSHAKE_CHARS = 1_000_000
# Characters of an engine's name kept (printed, written in PGN).
MAX_NAME = 80
# How often a wait looks whether the engine itself has ended while
# something it started still holds its output open.
POLL_SECONDS = 0.25
PROTOCOLS = ("uci", "xboard", "usi")
# What `move` answers for an engine that gives up.
RESIGN = "resign"
# The results a CECP engine announces.
RESULTS = ("1-0", "0-1", "1/2-1/2")
# Characters of a claim's comment kept.
MAX_CLAIM = 120


class EngineFailure(RuntimeError):
    """The engine could not be started, answered out of protocol, or died:
    it loses the game in play."""


class MatchRefused(RuntimeError):
    """The match cannot be played as asked: the engine does not play the
    variant and cannot be told it, or its protocol cannot write the
    variant or a move of the game."""


class UnreadableMove(ValueError):
    """The engine's move is no move of its protocol: an illegal move."""


@dataclass
class Claim:
    """A result an engine announced instead of a move or right after its
    move (CECP's `1/2-1/2 {draw by repetition}`): the result and its
    comment, for the referee to judge."""

    token: str
    reason: str


def read_claim(line: str) -> Claim:
    """The claim of a result line: its token and its comment (braces
    dropped, at most MAX_CLAIM printable characters)."""
    token, _, rest = line.partition(" ")
    return Claim(token, shown_name(rest.strip().strip("{}"))[:MAX_CLAIM])


@dataclass
class Clock:
    """What the referee tells an engine about time before a move: a fixed
    time per move, or both sides' time left and increments (seconds)."""

    movetime: float | None = None
    white: float = 0.0
    black: float = 0.0
    increment: float = 0.0


class Process:
    """An engine program in a session of its own, and the lines it writes,
    read on a thread.  Once it has failed, every later use fails at once
    with the same reason."""

    def __init__(self, command: str, label: str) -> None:
        self.label = label
        self.failure: EngineFailure | None = None
        self.lines: queue.Queue[str | EngineFailure] = queue.Queue(MAX_QUEUED_LINES)
        self._closing = threading.Event()
        try:
            words = shlex.split(command)
            if not words:
                raise ValueError("no program named")
            self.process = subprocess.Popen(
                words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, start_new_session=True)
        except (OSError, ValueError) as exc:
            raise EngineFailure(f"{label}: cannot start: {exc}") from None
        assert self.process.stdin is not None
        # Written with a deadline: an engine that stops reading must not
        # block the referee on a full pipe.
        os.set_blocking(self.process.stdin.fileno(), False)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        end = EngineFailure(f"{self.label}: the engine has exited (or closed its output)")
        try:
            while True:
                raw = stream.readline(MAX_ENGINE_LINE + 1)
                if not raw:
                    break
                if len(raw) > MAX_ENGINE_LINE and not raw.endswith(b"\n"):
                    end = EngineFailure(f"{self.label}: the engine wrote a line longer than "
                                        f"{MAX_ENGINE_LINE} bytes")
                    break
                self._put(raw.decode("utf-8", errors="replace").strip())
        except (OSError, ValueError):
            pass  # the pipe was closed under the reader: the engine is gone
        self._put(end)
        stream.close()   # read by this thread alone: its end is this thread's to close

    def _put(self, item: str | EngineFailure) -> None:
        """Queue a line; once the engine is being closed, drop it, so that a
        full queue never keeps the reader (or the engine writing) waiting."""
        while not self._closing.is_set():
            try:
                self.lines.put(item, timeout=POLL_SECONDS)
                return
            except queue.Full:
                continue

    def fail(self, message: str) -> EngineFailure:
        """Record that the engine failed, for every later use."""
        self.failure = EngineFailure(f"{self.label}: {message}")
        return self.failure

    def send(self, *lines: str) -> None:
        """Write lines, within HANDSHAKE_SECONDS."""
        if self.failure is not None:
            raise self.failure
        stdin = self.process.stdin
        assert stdin is not None
        data = memoryview("".join(line + "\n" for line in lines).encode("utf-8", "replace"))
        deadline = time.monotonic() + HANDSHAKE_SECONDS
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self.fail(f"the engine has not read its input for {HANDSHAKE_SECONDS:g} s")
            try:
                if not select.select([], [stdin], [], left)[1]:
                    continue
                data = data[os.write(stdin.fileno(), data):]
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                raise self.fail("the engine has exited") from None

    def expect(self, prefix: str, seconds: float, *others: str) -> str | None:
        """The first line whose first word is `prefix` or one of `others`
        (any line for "") within `seconds`, None if none came in time; the
        lines before it are dropped."""
        if self.failure is not None:
            raise self.failure
        deadline = time.monotonic() + seconds
        ended_at: float | None = None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=min(left, POLL_SECONDS))
            except queue.Empty:
                # The engine has ended, but a process it started keeps its
                # output open: no line will come.  (A moment is left for
                # the lines it wrote before it ended.)
                if self.process.poll() is None:
                    continue
                ended_at = ended_at or time.monotonic()
                if time.monotonic() - ended_at > POLL_SECONDS:
                    raise self.fail("the engine has exited") from None
                continue
            if isinstance(line, EngineFailure):
                self.failure = line
                raise line
            if not prefix or line.split(" ", 1)[0] in (prefix, *others):
                return line

    def close(self, quit_line: str) -> None:
        """Ask the engine to quit (unless it has failed: it is out of step);
        end its process group if it has not within QUIT_SECONDS, and in any
        case whatever it started that is left."""
        self._closing.set()
        try:
            if self.failure is None:
                self.send(quit_line)
                self.process.wait(QUIT_SECONDS)
        except (EngineFailure, subprocess.TimeoutExpired):
            pass
        finally:
            self._end()

    def _end(self) -> None:
        """SIGTERM, SIGKILL after TERM_SECONDS, to the engine's process group."""
        try:
            if self.process.poll() is None:
                self._signal(signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(TERM_SECONDS)
        finally:
            self._signal(signal.SIGKILL)   # its children too, even once it has quit
            self.process.wait()
            assert self.process.stdin is not None
            with contextlib.suppress(OSError):   # nothing is left to write
                self.process.stdin.close()

    def _signal(self, number: int) -> None:
        # The group is the engine's own session (start_new_session); the
        # engine alone too, in case it left its group.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, number)
        self.process.send_signal(number)


class ExternalEngine:
    """One external engine for a match; `name` is what PGN records."""

    def __init__(self, spec: str, variant_name: str | None = None) -> None:
        protocol, _, command = spec.partition(":")
        if protocol not in PROTOCOLS or not command:
            raise EngineFailure(f"engine {spec!r}: write uci:PATH, xboard:PATH or usi:PATH")
        self.protocol, self.name = protocol, shown_name(command)
        self.dialect: Dialect = UsiDialect() if protocol == "usi" else Dialect()
        self.variants: list[str] = []
        self.options: set[str] = set()   # the names of the engine's options
        self.features: dict[str, str] = {}
        self._ini: Path | None = None    # the file written to describe a variant
        # The name the engine is told every game by, where it lists the
        # game under another name than variantkit's (see new_game).
        self.variant_name = variant_name
        self._sent = 0  # moves of the game an xboard engine has been told
        # The game whose moves were last written in the engine's notation,
        # and those texts, so that each move is written once.
        self._written: tuple[Game | None, list[tuple[Move, str]]] = (None, [])
        self.process = Process(command, spec)
        try:
            if protocol == "xboard":
                self._xboard_handshake()
            else:
                self._uci_handshake()
        except BaseException:   # a failure or Ctrl-C: the engine must not stay behind
            self.process.close("quit")
            raise

    def _greeting(self, end: str) -> Iterator[str]:
        """The engine's lines until the caller stops at `end`, for at most
        HANDSHAKE_SECONDS, MAX_HANDSHAKE_LINES and MAX_HANDSHAKE_CHARS."""
        deadline = time.monotonic() + HANDSHAKE_SECONDS
        lines = chars = 0
        while (line := self.process.expect("", deadline - time.monotonic())) is not None:
            lines, chars = lines + 1, chars + len(line) + 1
            if lines > MAX_HANDSHAKE_LINES or chars > MAX_HANDSHAKE_CHARS:
                raise self.process.fail(
                    f"the engine wrote more than {MAX_HANDSHAKE_LINES} lines or "
                    f"{MAX_HANDSHAKE_CHARS} characters before {end}")
            yield line

    def _uci_handshake(self) -> None:
        ok = self.dialect.ok
        self.process.send(self.dialect.hello)
        for line in self._greeting(ok):
            if line.startswith("option name "):
                self.options.add(line[12:].partition(" type ")[0])
            if line.startswith(f"option name {VARIANT_OPTION} "):
                self.variants = line.split(" var ")[1:]
            elif line.startswith("id name "):
                self.name = shown_name(line[8:]) or self.name
            if line == ok:
                return
        raise self.process.fail(f"no {ok} in time")

    def _xboard_handshake(self) -> None:
        self.process.send("xboard", "protover 2")
        for line in self._greeting("feature done=1"):
            if not line.startswith("feature "):
                continue
            for key, value in _features(line[8:]):
                if key == "option":   # `option="NAME -TYPE ..."`, set by `option NAME=VALUE`
                    self.options.add(value.partition(" -")[0].strip())
                else:
                    self.features[key] = value
            if self.features.get("done") == "1":
                break
        self.variants = self.features.get("variants", NORMAL).split(",")
        self.name = shown_name(self.features.get("myname", "")) or self.name

    def ready(self) -> None:
        if self.protocol == "xboard":
            self.process.send("ping 1")
            found = self.process.expect("pong", HANDSHAKE_SECONDS)
        else:
            self.process.send("isready")
            found = self.process.expect("readyok", HANDSHAKE_SECONDS)
        if found is None:
            raise self.process.fail("not ready in time")

    def new_game(self, variant: Variant) -> None:
        """Set up a new game of `variant`: by `variant_name` where the
        caller gave one (the engine must list it), else by the variant's
        name where it is the bundled variant of that name and the engine
        plays it, else described through the engine's `VariantPath`
        option."""
        name, d = variant.name, self.dialect
        if self.protocol != "xboard" and not d.supports(variant):
            raise MatchRefused(f"{name} cannot be played over {d.name}: its cells are not "
                               "named by a file letter and a rank number up to 26")
        by_name = is_bundled(variant) and (name in self.variants or name == d.default_variant)
        if self.variant_name is not None:
            name, by_name = self.variant_name, True
            if name not in self.variants and name != d.default_variant:
                listed = ", ".join(self.variants[:40]) or "none"
                raise MatchRefused(f"{self.protocol}:{self.name} lists no variant named "
                                   f"{shown_name(name)!r} (it lists {listed})")
        if self.protocol == "xboard":
            self.process.send("new", "force")
            if not by_name:
                self.process.send(f"variant {self._describe(variant)}")
            elif name != DEFAULT_VARIANT:
                self.process.send(f"variant {name}")
            if self.variant_name is not None:
                self._xboard_start(variant)
        else:
            if not by_name:
                self._describe(variant)
            elif name in self.variants:
                self.process.send(f"setoption name {VARIANT_OPTION} value {name}")
            self.process.send(d.new_game)
        self.ready()
        self._sent = 0

    def _xboard_start(self, variant: Variant) -> None:
        """Tell a CECP engine the start position of a game it is told by
        a name of its own: the file may start from another array than the
        engine's game of that name (XBoard shuffles Superchess's array for
        Fairy-Max, which starts courier from an array of its own).  By
        `setboard` where the engine offers it, else in CECP's edit mode:
        `edit`, `#` (an empty board), a letter and cell for each White
        piece, `c`, each Black piece, `.`; an engine infers castling rights
        from kings and rooks on their cells there, and White moves first."""
        start = variant.new_game()
        if self.features.get("setboard") == "1":
            self.process.send(f"setboard {start.fen()}")
            return
        cannot = f"{self.protocol}:{self.name} takes no setboard, and edit mode cannot tell it"
        if start.turn != "white" or start.hand("white") or start.hand("black"):
            raise MatchRefused(f"{cannot} {variant.name}'s start: Black to move or pieces "
                               "in hand")
        placed: dict[bool, list[str]] = {True: [], False: []}
        for cell in variant.board.names:
            letter = start.piece_at(cell)
            if letter is None:
                continue
            if len(letter) != 1:
                raise MatchRefused(f"{cannot} {variant.name}'s piece {letter!r}")
            placed[letter.isupper()].append(f"{letter.upper()}{cecp_cells(variant, cell)}")
        self.process.send("edit", "#", *placed[True], "c", *placed[False], ".")

    def _describe(self, variant: Variant) -> str:
        """Tell the engine about a variant it does not know by that name,
        through its `VariantPath` option, as Fairy-Stockfish takes it; the
        name it is then chosen by.  variantkit's own engine is given the
        variant's file; another engine an ini section exported from it, under
        a name the engine does not already give a variant (a variant
        Fairy-Stockfish's format cannot express is refused with the
        reasons)."""
        name = variant.name
        cannot = f"{self.protocol}:{self.name} does not play {name}"
        if name in self.variants or name == self.dialect.default_variant:
            # known by that name, but these are other rules (see new_game)
            cannot += " as the file describes it (not the bundled variant of that name)"
        if "VariantPath" not in self.options or (
                self.protocol != "xboard" and VARIANT_OPTION not in self.options):
            raise MatchRefused(f"{cannot}, and has no VariantPath option to learn it")
        if self.name.startswith("variantkit") and self.protocol != "xboard":
            file = variant.document.file   # its UCI and USI sessions read the variant's own file
            if file is None or not Path(file).is_file():
                raise MatchRefused(f"{cannot}, and {name} was read from no file to give it")
            self._set_option("VariantPath", str(Path(file).resolve()), cannot)
            return name
        taken = {*self.variants, self.dialect.default_variant, NORMAL}
        section = next(s for s in [name, *(f"{name[:48]}-{n}" for n in range(1, len(taken) + 2))]
                       if s not in taken)
        try:
            text = export_section(variant, section)
        except ExportRefused as exc:
            raise MatchRefused(f"{cannot}, and its rules do not fit an ini section: "
                               f"{'; '.join(exc.reasons)[:300]}") from None
        try:
            if self._ini is None:
                handle, path = tempfile.mkstemp(prefix="variantkit-", suffix=".ini")
                os.close(handle)
                self._ini = Path(path)
            self._ini.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise MatchRefused(f"{cannot}, and its ini section cannot be written to a "
                               f"temporary file: {exc.strerror or exc}") from None
        self._set_option("VariantPath", str(self._ini), cannot)
        if self.protocol != "xboard":
            self._set_option(VARIANT_OPTION, section, cannot)
        return section

    def set_option(self, option: str, value: str) -> None:
        """Set one of the engine's own options (a UCI or USI `setoption`,
        a CECP `option`), such as Stockfish's `UCI_Elo`, once the engine
        is ready: MatchRefused where the engine does not offer it, so that
        a misspelt option never leaves the engine at its default."""
        if option not in self.options:
            raise MatchRefused(f"{self.protocol}:{self.name} has no option {option!r} "
                               f"(it offers {', '.join(sorted(self.options)) or 'none'})")
        self._set_option(option, value, f"{self.protocol}:{self.name} cannot set {option}")
        self.ready()

    def _set_option(self, option: str, value: str, cannot: str) -> None:
        if any(end in value for end in "\r\n"):   # it would end the line early
            raise MatchRefused(f"{cannot}: its {option} {value[:80]!r} has a line break")
        self.process.send(f"option {option}={value}" if self.protocol == "xboard"
                          else f"setoption name {option} value {value}")

    def move(self, game: Game, clock: Clock, wait: float) -> str | Claim | None:
        """The engine's move in variantkit's notation, RESIGN, a Claim
        (CECP) or None when no move came within `wait` seconds (the engine
        is then stopped); UnreadableMove for a text that is no move of the
        protocol."""
        if self.protocol == "xboard":
            return self._xboard_move(game, clock, wait)
        d, variant = self.dialect, game.variant
        moves = " ".join(self._texts(game))
        start = game.copy()
        while start.plies:
            start.pop()
        # `startpos` is the engine's own start of the game it was told:
        # under a name of its own (`variant_name`) that may be another array.
        position = "startpos" if start.fen() == variant.setup_fen and self.variant_name is None \
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
            if self.process.expect("bestmove", HANDSHAKE_SECONDS) is None:
                self.process.fail("no bestmove after stop")   # out of step for good
            return None
        text = _move_word(line)
        if text == d.no_move:
            return RESIGN
        try:
            return d.move_in(variant, text)
        except ValueError:
            raise UnreadableMove(f"{text[:40]!r} (no {d.name} move)") from None

    def _texts(self, game: Game) -> list[str]:
        """The moves of `game` in the engine's notation.  Each must read back
        as the same move: a move the notation cannot write whole (a part
        dropped) would tell the engine another game, so the match is
        refused."""
        seen, written = self._written
        stack = game.move_stack
        if seen is not game or len(written) > len(stack) \
                or (written and written[-1][0] != stack[len(written) - 1]):
            written = []
        for move in stack[len(written):]:
            text = self.dialect.move_out(game.variant, move)
            try:
                back = self.dialect.move_in(game.variant, text)
            except ValueError:
                back = None
            if back != str(move):
                raise MatchRefused(f"{self.dialect.name} cannot write the move {move} of "
                                   f"{game.variant.name}: it comes out as {text!r}")
            written.append((move, text))
        self._written = (game, written)
        return [text for _, text in written]

    def _xboard_move(self, game: Game, clock: Clock, wait: float) -> str | Claim | None:
        prefix = "usermove " if self.features.get("usermove") == "1" else ""
        for move in game.move_stack[self._sent:]:
            self.process.send(f"{prefix}{cecp_move(game.variant, move)}")
        if clock.movetime is not None:  # one move a session, that move's time
            self.process.send(f"level 1 0:{max(1, math.ceil(clock.movetime))} 0",
                              f"time {round(clock.movetime * 100)}",
                              f"otim {round(clock.movetime * 100)}")
        else:
            own, other = (clock.white, clock.black) if game.position.stm == 0 \
                else (clock.black, clock.white)
            self.process.send(f"time {round(own * 100)}", f"otim {round(other * 100)}")
        self.process.send("go")
        line = self.process.expect("move", wait, RESIGN, *RESULTS)
        self.process.send("force")
        if line is None:
            self.process.send("?")
            return None
        if line == RESIGN:
            return RESIGN
        if line.split(" ", 1)[0] in RESULTS:
            return read_claim(line)
        self._sent = game.plies + 1
        return variantkit_move(game.variant, _move_word(line))

    def claim_after(self, wait: float) -> Claim | None:
        """A result a CECP engine announces within `wait` seconds after its
        move (None for UCI and USI engines, which cannot claim)."""
        if self.protocol != "xboard":
            return None
        line = self.process.expect(RESULTS[0], wait, *RESULTS[1:])
        return read_claim(line) if line is not None else None

    def set_clock(self, base: float, increment: float) -> None:
        """Tell an xboard engine the game's time control (UCI and USI get
        the clocks with each move)."""
        if self.protocol == "xboard":
            minutes, seconds = divmod(round(base), 60)
            self.process.send(f"level 0 {minutes}:{seconds:02d} {increment:g}")

    def close(self) -> None:
        """End the engine (see Process.close) and remove the file written
        for it."""
        try:
            self.process.close("quit")
        finally:
            if self._ini is not None:
                self._ini.unlink(missing_ok=True)


def is_bundled(variant: Variant) -> bool:
    """Whether `variant` is exactly the bundled variant of its name (read
    from its file, or from a text of it), which an engine that lists that
    name knows; a file that takes a bundled name for other rules is not."""
    name = variant.name
    return name in bundled_names() and variant.document.data == _bundled_data(name)


@functools.lru_cache(maxsize=8)
def _bundled_data(name: str) -> dict[str, Any]:
    return load_document(name).data


def shown_name(text: str) -> str:
    """An engine's name as printed and written in PGN: its printable
    characters, at most MAX_NAME of them."""
    return "".join(char for char in text if char.isprintable()).strip()[:MAX_NAME]


def _move_word(line: str) -> str:
    """The move of a `bestmove M` or `move M` line; UnreadableMove where
    the engine wrote bytes that are not UTF-8 (replacement characters)."""
    words = line.split()
    text = words[1] if len(words) > 1 else ""
    if "\ufffd" in text:
        raise UnreadableMove(f"{text[:40]!r} (bytes that are not UTF-8)")
    return text


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def _features(text: str) -> list[tuple[str, str]]:
    """`a=1 b="x y"` as pairs."""
    try:
        words = shlex.split(text)
    except ValueError:
        return []
    return [(k, v) for k, _, v in (w.partition("=") for w in words)]
