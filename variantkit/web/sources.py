"""Where the playground's variants come from, and the one door for YAML text.

A page names its variant by a *source*: a bundled variant
(`{"bundled": "chess"}`), an example file (`{"example": "glinski"}`) or YAML
text typed into the editor (`{"yaml": "..."}`).  Bundled and example files
are the package's own and load as usual; typed text is untrusted and goes
through `load_yaml_text` alone: the loader's text entry, which allows only
bundled parents in `inherits`, with a budget for the work of compiling.

Everything here runs in a playground worker process (see `workers`), never
in the server itself: compiling a huge board or an alias bomb must not stall
the server, and there it is bounded in time and memory.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from variantkit.errors import Problem, VariantError, quote
from variantkit.limits import Budget
from variantkit.loader import bundled_dir, bundled_names, examples_dir
from variantkit.variant import Variant, load, load_text

# Seconds to compile typed YAML before the loader gives up with a problem;
# the worker's own time limit (`workers.TASK_SECONDS`) is the backstop.
LOAD_SECONDS = 4.0
# Units of work (`limits.Budget`) typed YAML may take to compile: four times
# the largest bundled variant.  The deadline alone is not enough: a rider's
# attack tables are built in one piece once its lines are charged, and on a
# board of 1,000 cells each unit costs several microseconds, so a 100x10 disk
# with chess pieces (1.2 million units) would run past the worker's limit
# before the deadline is looked at again.  Refused by units, it is refused
# while its lines are charged, in well under a second.
LOAD_UNITS = 200_000
# The editor's file, as named in problems (it has no file of its own).
EDITOR_FILE = "editor"
CACHED_VARIANTS = 8



def example_names() -> list[str]:
    """Names of the example variant files, sorted."""
    return sorted(p.stem for p in examples_dir().glob("*.yaml"))


def catalogue() -> list[dict[str, str]]:
    """Every variant the page offers: the bundled ones, then the examples."""
    return [{"kind": "bundled", "name": n} for n in bundled_names()] + \
        [{"kind": "example", "name": n} for n in example_names()]


def source_file(source: Any) -> Path:
    """The file of a bundled or example source; a VariantError for any
    other name, so that a request can never name a path."""
    kind, name = source_key(source)
    if kind == "yaml":
        raise RequestError("typed YAML has no file")
    names, folder = (bundled_names(), bundled_dir()) if kind == "bundled" else \
        (example_names(), examples_dir())
    if name not in names:
        raise VariantError([Problem(f"no {kind} variant named {quote(name)} "
                                    f"(there are: {', '.join(names)})", "file-not-found", name)])
    return folder / f"{name}.yaml"


def source_text(source: Any) -> str:
    """The YAML text of a source, for the editor."""
    kind, value = source_key(source)
    return value if kind == "yaml" else source_file(source).read_text(encoding="utf-8")


def load_yaml_text(text: str) -> Variant:
    """Compile untrusted YAML text: it may inherit only a bundled variant, and
    its size and the work of compiling it are bounded (`variantkit.limits`).
    Problems name the file `editor`."""
    return load_text(text, EDITOR_FILE, budget=Budget(LOAD_UNITS, seconds=LOAD_SECONDS))


class Variants:
    """Compiled variants by source, the most recently used few kept."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[str, str], Variant] = OrderedDict()

    def get(self, source: Any) -> Variant:
        key = source_key(source)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        variant = load_yaml_text(key[1]) if key[0] == "yaml" else load(source_file(source))
        self._cache[key] = variant
        if len(self._cache) > CACHED_VARIANTS:
            self._cache.popitem(last=False)
        return variant


class RequestError(ValueError):
    """A request the page would never send: a bad shape, an unknown field."""


def source_key(source: Any) -> tuple[str, str]:
    """(kind, name or text) of a source as a request gives it."""
    if isinstance(source, dict) and len(source) == 1:
        ((kind, value),) = source.items()
        if kind in ("bundled", "example", "yaml") and isinstance(value, str):
            return kind, value
    raise RequestError("a source is one of {bundled: NAME}, {example: NAME} or {yaml: TEXT}")
