"""Hosting the built-in engine in a protocol session: the variant and game
a GUI has set up, and one search at a time on its own thread, stopped on
request, its move handed back through a callback."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import variantkit
from variantkit.engine import Engine, Limits, SearchInfo, time_budget
from variantkit.errors import DeclarationError, InvalidFenError, VariantError, quote
from variantkit.fsf import IniError, import_ini
from variantkit.fsf.ini import MAX_INI_CHARS
from variantkit.game import Game
from variantkit.limits import read_named_file
from variantkit.values import Move
from variantkit.variant import Variant, load_text

# The variant a session starts with.
DEFAULT_VARIANT = "chess"
# Numbers a GUI sends are clamped into this range (milliseconds, nodes).
MAX_NUMBER = 10**12
# What a variant file or a position string may raise when it is refused.
REFUSED = (VariantError, DeclarationError, InvalidFenError, OSError, ValueError)


def load_variant(name_or_path: str, text: str | None = None) -> Variant:
    """A bundled variant by name, a variant file by path, or with `text`,
    that variant YAML (`name_or_path` naming it in problems); raises
    ValueError with the located problems when it is refused."""
    try:
        return variantkit.load(name_or_path) if text is None else load_text(text, name_or_path)
    except REFUSED as exc:
        raise ValueError(" ".join(str(exc).split())) from None


def ini_variants(path: str) -> tuple[dict[str, str], list[str]]:
    """The sections of a Fairy-Stockfish ini file that import, as variant
    YAML by name, and the names of those that do not; raises ValueError for
    a file that cannot be read or is refused whole."""
    try:
        result = import_ini(read_named_file(path, MAX_INI_CHARS), Path(path).name)
    except OSError as exc:
        raise ValueError(f"cannot read {quote(path)}: {exc.strerror or exc}") from None
    except IniError as exc:
        raise ValueError(" ".join(str(exc).split())) from None
    imported = {name: text for name, text in result.items() if isinstance(text, str)}
    return imported, [name for name in result if name not in imported]


def bounded_int(text: str) -> int:
    """A number a GUI sent, clamped to +-MAX_NUMBER; ValueError if none."""
    return max(-MAX_NUMBER, min(int(text), MAX_NUMBER))


class Thinking:
    """One search on its own thread.  With `hold` (an infinite or pondering
    search) its move is handed on only once released, as the protocols
    want no move before `stop` or `ponderhit`."""

    def __init__(self, engine: Engine, game: Game, limits: Limits,
                 on_info: Callable[[SearchInfo], None],
                 on_done: Callable[[Move | None], None], hold: bool) -> None:
        self.stop = threading.Event()
        self._release = threading.Event()
        if not hold:
            self._release.set()
        self._timer: threading.Timer | None = None
        self._engine, self._game, self._limits = engine, game, limits
        self._on_info, self._on_done = on_info, on_done
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        move: Move | None = None
        if self._game.legal_moves():
            move = self._engine.search(self._game, self._limits, self.stop, self._on_info)
        self._release.wait()
        self._on_done(move)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def ponderhit(self, limits: Limits) -> None:
        """The move pondered on was played: search on within `limits`'
        time for the side to move, then hand the move on."""
        budget = time_budget(limits, self._game.position.stm)
        if budget is not None:
            self._timer = threading.Timer(budget[0], self.stop.set)
            self._timer.daemon = True
            self._timer.start()
        self._release.set()

    def finish(self) -> None:
        """Stop now and wait until the move is handed on."""
        self.stop.set()
        self._release.set()
        self._thread.join()
        if self._timer is not None:
            self._timer.cancel()

    def wait(self) -> None:
        """Wait until the move is handed on, without stopping the search."""
        self._thread.join()
