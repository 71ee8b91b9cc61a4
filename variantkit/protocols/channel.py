"""Bounded line input and locked line output for a protocol session: a
GUI's line longer than MAX_LINE characters is cut and reported, never
read whole; lines written from the search thread and the command thread
never interleave; and a GUI that closes the engine's output ends the
session quietly instead of raising in whichever thread wrote last."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import BinaryIO, TextIO

# Characters in one protocol line: a `position ... moves` line of a game of
# a few thousand plies fits; a longer line is refused, not read whole.
MAX_LINE = 100_000


class LineTooLong(ValueError):
    """A line went past MAX_LINE characters; its rest was skipped."""


def command_words(line: str) -> tuple[str, str]:
    """A command's first word and the rest of its line: the protocols
    separate words by any run of white space (spaces, tabs)."""
    parts = line.split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1].strip() if len(parts) > 1 else ""


class Channel:
    """One protocol session's input and output streams."""

    def __init__(self, source: BinaryIO, sink: TextIO) -> None:
        self._source = source
        self._sink = sink
        self._lock = threading.Lock()
        # Set once a write failed (the GUI closed the engine's output, most
        # often): nothing more is written, and `failure` says why.
        self.closed = threading.Event()
        self.failure: OSError | ValueError | None = None
        self._on_close: list[Callable[[], None]] = []

    def read(self) -> str | None:
        """The next line without its end, None at the end of input.  Raises
        LineTooLong for a line past MAX_LINE (read up to its end, dropped)."""
        raw = self._source.readline(MAX_LINE + 1)
        if not raw:
            return None
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while True:  # skip the rest of the line, a bounded piece at a time
                rest = self._source.readline(MAX_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
            raise LineTooLong(f"line longer than {MAX_LINE} characters ignored")
        return raw.decode("utf-8", errors="replace").strip()

    def when_closed(self, callback: Callable[[], None]) -> None:
        """Call `callback` (once) when a write fails."""
        self._on_close.append(callback)

    def write(self, *lines: str) -> None:
        """Write lines at once, flushed.  A failed write (a closed pipe, a
        full disk) closes the channel: any thread may write, and none
        should die of a GUI that went away."""
        with self._lock:
            if self.closed.is_set():
                return
            try:
                for line in lines:
                    self._sink.write(line + "\n")
                self._sink.flush()
            except (OSError, ValueError) as exc:  # ValueError: a stream already closed
                self.failure = exc
                self.closed.set()
                callbacks = list(self._on_close)
            else:
                return
        for callback in callbacks:
            callback()
