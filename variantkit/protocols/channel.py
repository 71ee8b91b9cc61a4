"""Bounded line input and locked line output for a protocol session: a
GUI's line longer than MAX_LINE characters is cut and reported, never
read whole, and lines written from the search thread and the command
thread never interleave."""

from __future__ import annotations

import threading
from typing import BinaryIO, TextIO

# Characters in one protocol line: a `position ... moves` line of a game of
# a few thousand plies fits; a longer line is refused, not read whole.
MAX_LINE = 100_000


class LineTooLong(ValueError):
    """A line went past MAX_LINE characters; its rest was skipped."""


class Channel:
    """One protocol session's input and output streams."""

    def __init__(self, source: BinaryIO, sink: TextIO) -> None:
        self._source = source
        self._sink = sink
        self._lock = threading.Lock()

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

    def write(self, *lines: str) -> None:
        """Write lines at once, flushed."""
        with self._lock:
            for line in lines:
                self._sink.write(line + "\n")
            self._sink.flush()
