"""Hosting the built-in engine in a protocol session: the command loop the
protocols share, the variant and game a GUI has set up, and one search at
a time on its own thread, stopped on request, its move handed back
through a callback.

Input is read on a thread of its own, so that `quit`, the end of input
and CECP's `?` are seen at once even while a command is still being
carried out (a variant file compiling, a `ping` waiting for the move in
progress); the commands themselves are carried out in order.

A session answers its GUI's first command at once: the library's heavy
modules (the search, the variant compiler, the ini importer) are imported
when first needed, and the default variant is loaded when first used (a
position, a search, `isready`), not as the session starts."""

from __future__ import annotations

import queue
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import variantkit
from variantkit.errors import (
    DeclarationError,
    InvalidFenError,
    Problem,
    VariantError,
    quote,
    shorten,
)
from variantkit.limits import Budget, read_named_file
from variantkit.protocols.channel import Channel, LineTooLong, command_words
from variantkit.public_types import Move

if TYPE_CHECKING:
    from variantkit.engine.search import Engine, Limits, SearchInfo
    from variantkit.game import Game
    from variantkit.variant import Variant

# The variant a session starts with.
DEFAULT_VARIANT = "chess"
# Numbers a GUI sends are clamped into this range (milliseconds, nodes).
MAX_NUMBER = 10**12
# A number with a fraction as a GUI writes one (CECP's `st 0.5`), and the
# digits of it read.
DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?")
DECIMAL_DIGITS = 20
# What a variant file or a position string may raise when it is refused.
REFUSED = (VariantError, DeclarationError, InvalidFenError, OSError, ValueError)
# A number as a GUI writes one.
NUMBER = re.compile(r"([+-]?)([0-9]+)")
# Characters of a path a GUI named shown in an answer.
PATH_CHARS = 300
# Seconds compiling one variant a GUI names (a VariantPath file, an ini
# section chosen) may take: a match referee waits 10 s for `readyok`.
LOAD_SECONDS = 10.0
# Lines read ahead while a command is still being carried out.  A GUI
# waits for `readyok` or `pong` and sends a few; past these counts a
# line is dropped and reported, so that memory stays bounded and `quit`
# is still read.
MAX_PENDING_LINES = 1_000
MAX_PENDING_CHARS = 2_000_000
# How often a command that waits (for a variant, for the move in
# progress) looks whether the session is ending.
POLL_SECONDS = 0.05
# Exit status of a session whose output could not be written for another
# reason than the GUI closing it (a full disk); a session ended by `quit`,
# the end of input or the GUI closing the engine's output exits with 0.
EXIT_WRITE_FAILED = 1

# Problems found before a file shows itself a variant file (a YAML mapping
# naming `variantkit: 1`): their messages may quote any file's text
# (/etc/passwd's first line), so an answer gives their place and what
# was expected instead.  A located `too-large` is a value of such a file.
NOT_YET_A_VARIANT = {
    "not-a-mapping": "not a variant file: a YAML mapping starting 'variantkit: 1' expected",
    "format-version": "not a variant file of this format: 'variantkit: 1' expected",
    "yaml-syntax": "not valid YAML",
    "too-large": "a value over the limits of variant files",
}

T = TypeVar("T")


def refusal(problems: list[Problem], path: str) -> str:
    """Why a variant file was refused, on one line: each problem located,
    its message left out where it may quote a file that is no variant
    file (`variantkit check PATH` then tells the whole)."""
    parts = []
    hidden = False
    for problem in problems[:3]:
        generic = NOT_YET_A_VARIANT.get(problem.rule)
        if generic is not None and (problem.rule != "too-large" or problem.line is not None):
            hidden = True
            parts.append(f"{problem.location()}: {generic} ({problem.rule})")
        else:
            parts.append(" ".join(str(problem).split()))
    if len(problems) > 3:
        parts.append(f"and {len(problems) - 3} more")
    if hidden:
        parts.append(f"`variantkit check {path}` tells more")
    return shorten("; ".join(parts), 600)


def load_variant(name_or_path: str, text: str | None = None) -> Variant:
    """A bundled variant by name, a variant file by path, or with `text`,
    that variant YAML (`name_or_path` naming it in problems), compiled
    within LOAD_SECONDS; raises ValueError saying why it is refused."""
    from variantkit.variant import load_text

    budget = Budget(seconds=LOAD_SECONDS, source=name_or_path)
    try:
        if text is None:
            return variantkit.load(name_or_path, budget=budget)
        return load_text(text, name_or_path, budget=budget)
    except VariantError as exc:
        raise ValueError(refusal(exc.problems, name_or_path)) from None
    except REFUSED as exc:
        raise ValueError(shorten(" ".join(str(exc).split()), 300)) from None


@dataclass
class IniChoices:
    """A Fairy-Stockfish ini file named by VariantPath: its text and the
    names of its sections, each imported and compiled only when chosen."""

    path: str
    text: str
    names: list[str]
    problems: int   # lines and sections the ini reader refused

    def variant(self, name: str) -> Variant:
        """Section `name` imported and compiled, each within LOAD_SECONDS;
        ValueError when refused."""
        from variantkit.fsf import IniError, import_ini

        budget = Budget(seconds=LOAD_SECONDS, source=self.path)
        try:
            result = import_ini(self.text, self.path, sections=[name], budget=budget)
        except IniError as exc:
            raise ValueError(shorten(" ".join(str(exc).split()), 300)) from None
        text = result.get(name)
        if not isinstance(text, str):
            first = text[0] if text else Problem("no such section", "fsf-no-section", self.path)
            raise ValueError(shorten(f"{first.location()}: [{name}] does not import: "
                                     f"{' '.join(first.message.split())} ({first.rule}); "
                                     f"`variantkit import-fsf {self.path}` tells more", 600))
        return load_variant(f"{self.path} [{name}]", text)


def read_ini_choices(path: str) -> IniChoices:
    """The sections of the ini file at `path`, read but not imported;
    ValueError for a file that cannot be read or is refused whole."""
    from variantkit.fsf.ini import MAX_INI_CHARS, IniError, read_ini

    try:
        data = read_named_file(path, MAX_INI_CHARS)
        ini = read_ini(data, path)
    except OSError as exc:
        raise ValueError(f"cannot read {quote(path, PATH_CHARS)}: {exc.strerror or exc}") \
            from None
    except IniError as exc:
        raise ValueError(shorten(" ".join(str(exc).split()), 300)) from None
    if not ini.sections:
        raise ValueError(f"{quote(path, PATH_CHARS)} has no [section]: not a Fairy-Stockfish "
                         "ini file")
    # The reader took the text as UTF-8 under its size limit.
    return IniChoices(path, data.decode("utf-8"), list(ini.sections), len(ini.problems))


def bounded_int(text: str) -> int:
    """A number a GUI sent (ASCII digits, a sign), clamped to
    +-MAX_NUMBER; ValueError if none."""
    match = NUMBER.fullmatch(text)
    if match is None:
        raise ValueError(f"not a number: {quote(text)}")
    # Digits past the clamp are not converted: a line may hold 100,000.
    size = int(match[2]) if len(match[2]) <= 20 else MAX_NUMBER
    return (-1 if match[1] == "-" else 1) * min(size, MAX_NUMBER)


def bounded_float(text: str) -> float:
    """A number a GUI sent with or without a fraction (`0.3`, `.5`, `20`),
    clamped to +-MAX_NUMBER; ValueError if none.  Only ASCII digits are
    read, each part converted from at most DECIMAL_DIGITS of them."""
    match = DECIMAL.fullmatch(text)
    if match is None or not (match[2] or match[3]):
        raise ValueError(f"not a number: {quote(text)}")
    whole = int(match[2]) if match[2] and len(match[2]) <= DECIMAL_DIGITS else \
        MAX_NUMBER if match[2] else 0
    fraction = match[3][:DECIMAL_DIGITS] if match[3] else ""
    size = min(whole + (int(fraction) / 10 ** len(fraction) if fraction else 0.0), MAX_NUMBER)
    return -size if match[1] == "-" else size


class Thinking:
    """One search on its own thread.  With `hold` (an infinite or pondering
    search) its move is handed on only once released, as the protocols
    want no move before `stop` or `ponderhit`."""

    def __init__(self, engine: Engine, game: Game, limits: Limits,
                 on_info: Callable[[SearchInfo], None],
                 on_done: Callable[[Move | None], None], hold: bool) -> None:
        self.stop = threading.Event()
        self._release = threading.Event()
        # Set as the move is handed on: a GUI that has read it may send its
        # next `go` before this thread has quite ended.
        self.handed_on = threading.Event()
        if not hold:
            self._release.set()
        self._timer: threading.Timer | None = None
        self._started = time.monotonic()
        self._engine, self._game, self._limits = engine, game, limits
        self._on_info, self._on_done = on_info, on_done
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        move: Move | None = None
        if self._game.legal_moves():
            move = self._engine.search(self._game, self._limits, self.stop, self._on_info)
        self._release.wait()
        self.handed_on.set()
        self._on_done(move)

    @property
    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.monotonic() - self._started

    @property
    def running(self) -> bool:
        """Whether the thread runs (the move may be on its way out)."""
        return self._thread.is_alive()

    def ponderhit(self, limits: Limits) -> None:
        """The move pondered on was played: search on within `limits`'
        time for the side to move (its depth and nodes bound the search
        already), then hand the move on, at once if the search is over."""
        from variantkit.engine.search import time_budget

        budget = time_budget(limits, self._game.position.stm)
        if budget is not None:
            self._timer = threading.Timer(budget[0], self.stop.set)
            self._timer.daemon = True
            self._timer.start()
        self._release.set()

    def interrupt(self) -> None:
        """Stop now and hand the move on, without waiting for it."""
        self.stop.set()
        self._release.set()

    def finish(self) -> None:
        """Stop now and wait until the move is handed on."""
        self.interrupt()
        self._thread.join()
        if self._timer is not None:
            self._timer.cancel()

    def wait(self, seconds: float | None = None) -> bool:
        """Wait until the move is handed on (at most `seconds`), without
        stopping the search; whether it was."""
        self._thread.join(seconds)
        return not self._thread.is_alive()


class Host:
    """What the UCI, USI and CECP sessions share: the command loop, the
    search in progress, and work that runs while input is still read.
    A protocol says how to carry out a command (`command`), what to do at
    once on reading a line (`at_once`), and how to report a line it
    refused unread (`refuse_line`)."""

    def __init__(self, channel: Channel, default_variant: str = DEFAULT_VARIANT) -> None:
        self.channel = channel
        self.thinking: Thinking | None = None
        # The variant in play, its engine and game; None until first used,
        # then `wanted` is loaded (see `prepare`).
        self.wanted = default_variant
        self._variant: Variant | None = None
        self._engine: Engine | None = None
        self._game: Game | None = None
        # What the GUI set for every engine of the session: the table's
        # size in entries (None: the engine's own) and the skill level
        # (None: full strength).
        self.table_entries: int | None = None
        self.skill: float | None = None
        self._pending: queue.Queue[str | LineTooLong | None] = queue.Queue()
        self._pending_lines = self._pending_chars = 0
        self._count_lock = threading.Lock()
        self._ending = threading.Event()
        # Set when work was abandoned as the session ended: the commands
        # after it would apply to the wrong variant, and are dropped.
        self._cut_short = False
        channel.when_closed(self._end_now)

    # -- the variant, engine and game in play ----------------------------------------
    def prepare(self) -> None:
        """Load the variant the session wants where none is loaded yet
        (the default one, or the one `select` named)."""
        if self._variant is None:
            self.install(load_variant(self.wanted))

    def select(self, name: str) -> None:
        """Play bundled variant `name` from now on, loaded when first used."""
        self.wanted = name
        self._variant = self._engine = self._game = None

    def install(self, variant: Variant, engine: Engine | None = None) -> None:
        """Play `variant` (with `engine`, else a new one) from its start."""
        from variantkit.engine.search import Engine

        self._variant, self._engine = variant, engine or Engine(variant)
        self.wanted = variant.name
        self.tune(self._engine)
        self._game = variant.new_game()

    def tune(self, engine: Engine) -> None:
        """Give `engine` the table size and skill the GUI set."""
        from variantkit.engine.search import SKILL_MAX, TT_LIMIT

        engine.table_entries = self.table_entries or TT_LIMIT
        engine.skill = SKILL_MAX if self.skill is None else self.skill

    @property
    def variant(self) -> Variant:
        self.prepare()
        assert self._variant is not None
        return self._variant

    @property
    def engine(self) -> Engine:
        self.prepare()
        assert self._engine is not None
        return self._engine

    @property
    def game(self) -> Game:
        self.prepare()
        assert self._game is not None
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game

    # -- what each protocol says -------------------------------------------------
    def command(self, line: str) -> None:
        raise NotImplementedError

    def at_once(self, word: str) -> None:
        """Called on the reading thread as a line is read, before the
        commands read earlier are carried out."""

    def refuse_line(self, reason: str, detail: str) -> None:
        """Report a line not carried out: too long, or too many waiting."""
        raise NotImplementedError

    # -- the loop ----------------------------------------------------------------
    def run(self) -> int:
        """Carry out commands until `quit`, the end of input or the GUI
        closing the output; the exit status."""
        threading.Thread(target=self._read, daemon=True).start()
        while True:
            item = self._pending.get()
            if item is None or self.channel.closed.is_set() or self._cut_short:
                break
            with self._count_lock:
                self._pending_lines -= 1
                self._pending_chars -= len(item) if isinstance(item, str) else 0
            if isinstance(item, LineTooLong):
                self.refuse_line("line too long", str(item))
            else:
                self.command(item)
        self.finish()
        return self.exit_status()

    def _read(self) -> None:
        while True:
            try:
                line = self.channel.read()
            except LineTooLong as exc:
                self._queue(exc, 0)
                continue
            except (OSError, ValueError):
                line = None  # input that cannot be read ends as its end would
            if line is None or command_words(line)[0] == "quit":
                self._end_now()
                return
            if line:
                self.at_once(command_words(line)[0])
                self._queue(line, len(line))

    def _queue(self, item: str | LineTooLong, size: int) -> None:
        with self._count_lock:
            full = self._pending_lines >= MAX_PENDING_LINES \
                or self._pending_chars + size > MAX_PENDING_CHARS
            if not full:
                self._pending_lines += 1
                self._pending_chars += size
        if full:
            line = f": {shorten(item, 80)}" if isinstance(item, str) else ""
            self.refuse_line("busy", f"{MAX_PENDING_LINES} lines or {MAX_PENDING_CHARS} "
                             f"characters wait already, line ignored{line}")
        else:
            self._pending.put(item)

    def _end_now(self) -> None:
        """`quit`, the end of input or a closed output: stop the search in
        progress and end the loop once the commands before are done."""
        self._ending.set()
        thinking = self.thinking
        if thinking is not None:
            thinking.interrupt()
        self._pending.put(None)

    @property
    def ending(self) -> bool:
        return self._ending.is_set()

    def background(self, work: Callable[[], T]) -> T | None:
        """`work()` on a thread of its own, waited for while input is still
        read; None, without waiting further, once the session ends (the
        thread is left to the process's exit, and the commands after this
        one are dropped).  Its exception is raised here."""
        if self.ending:
            self._cut_short = True
            return None
        outcome: list[T] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                outcome.append(work())
            except BaseException as exc:  # handed to the waiting thread
                failure.append(exc)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        while thread.is_alive():
            if self._ending.wait(POLL_SECONDS):
                self._cut_short = True
                return None
        if failure:
            raise failure[0]
        return outcome[0]

    def wait_for_search(self) -> None:
        """Wait until the search in progress has handed its move on (or
        the session ends)."""
        thinking = self.thinking
        while thinking is not None and not thinking.wait(POLL_SECONDS) and not self.ending:
            pass

    def finish(self) -> None:
        """Stop a search that runs; its move is handed on first."""
        if self.thinking is not None:
            self.thinking.finish()
            self.thinking = None

    def exit_status(self) -> int:
        """0, or EXIT_WRITE_FAILED when the output failed otherwise than
        by the GUI closing it."""
        failure = self.channel.failure
        if failure is None or isinstance(failure, BrokenPipeError | ConnectionResetError
                                         | ValueError):
            return 0
        return EXIT_WRITE_FAILED


def serve_session(session: Host) -> int:
    """Run `session` to its end; the exit status, a failed output
    reported on standard error."""
    status = session.run()
    if status:
        failure = session.channel.failure
        reason = failure.strerror if isinstance(failure, OSError) and failure.strerror \
            else failure
        print(f"error: cannot write to the GUI: {reason}", file=sys.stderr)
    return status
