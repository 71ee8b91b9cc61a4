"""Which build of variantkit runs: the compiled one or the pure-Python one.

The hot modules listed in `COMPILED_MODULES` are compiled with mypyc (it
ships with mypy) by `setup.py` when a C compiler is present; the same typed
sources run as plain Python otherwise.  Setting the environment variable
`VARIANTKIT_PURE=1` makes `import variantkit` load those modules from their
`.py` sources even when compiled ones are installed (see docs/build.md).

This module uses the standard library only and imports no other variantkit
module: `setup.py` reads the module list from it before variantkit is
installed, and `variantkit/__init__.py` calls `choose_build()` before any
compiled module is imported.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Collection, Sequence
from pathlib import Path
from types import ModuleType

# The modules compiled with mypyc: the move generator, what its hot loop
# calls, and the rules record it is built from.  The list lives here only;
# setup.py and `variantkit info` read it.
COMPILED_MODULES = (
    "variantkit.core.moves",
    "variantkit.core.position",
    "variantkit.core.general",
    "variantkit.core.remote",
    "variantkit.core.turns",
    "variantkit.core.flips",
    "variantkit.core.transfer",
    "variantkit.core.two_steps",
    "variantkit.core.take_make",
    "variantkit.core.conditions",
    "variantkit.core.observation",
    "variantkit.core.swaps",
    "variantkit.tables",
    "variantkit.castling_moves",
    "variantkit.pieces",
    "variantkit.rules",
    "variantkit.engine.evaluation",
    "variantkit.engine.search",
)
# The module whose loader tells which build runs.
MOVE_GENERATOR = "variantkit.core.position"
PURE_VARIABLE = "VARIANTKIT_PURE"
PACKAGE_DIR = Path(__file__).resolve().parent


def source_path(module: str) -> Path:
    """The `.py` source of one of variantkit's modules."""
    parts = module.split(".")[1:]
    return PACKAGE_DIR.joinpath(*parts[:-1], parts[-1] + ".py")


def pure_requested() -> bool:
    """Whether `VARIANTKIT_PURE` asks for the pure-Python build (any value
    but empty, 0, false, no or off)."""
    value = os.environ.get(PURE_VARIABLE, "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


def extension_of(module: str) -> Path | None:
    """The compiled extension installed for `module`, if there is one."""
    source = source_path(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.is_file():
            return candidate
    return None


def stale(module: str) -> bool:
    """Whether `module`'s source was edited after its extension was built
    (an editable install that was not rebuilt): running the old compiled
    code would silently ignore the edit.  One second of slack keeps a wheel,
    whose files are all written at install time, from counting as stale."""
    extension = extension_of(module)
    source = source_path(module)
    if extension is None or not source.is_file():
        return False
    return source.stat().st_mtime > extension.stat().st_mtime + 1.0


def leftover_extensions(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """Modules with a compiled extension that `COMPILED_MODULES` no longer
    lists, left in an editable checkout by an older build: their sources
    have moved on, so they always load from source."""
    found = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for extension in package_dir.rglob("*" + suffix):
            parts = extension.relative_to(package_dir.parent).parts
            module = ".".join((*parts[:-1], extension.name[:-len(suffix)]))
            if module not in COMPILED_MODULES and source_path(module).is_file():
                found.append(module)
    return found


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the named modules from their `.py` sources."""

    def __init__(self, modules: Collection[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def choose_build() -> None:
    """Makes the compiled modules load from source when the pure build is
    requested or the compiled one is older than its sources, and leftovers
    of an older build always.  Must run before any of `COMPILED_MODULES` is
    imported."""
    if any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        return
    outdated = [module for module in COMPILED_MODULES if stale(module)]
    if outdated:
        warnings.warn(f"variantkit: the compiled build is older than {source_path(outdated[0])}; "
                      "running the pure-Python sources (rebuild with `pip install -e .`)",
                      RuntimeWarning, stacklevel=3)
    from_source = leftover_extensions()
    if outdated or pure_requested():
        from_source += COMPILED_MODULES
    if from_source:
        sys.meta_path.insert(0, _SourceFinder(from_source))


def pure_reason() -> str:
    """Why the pure-Python build runs (when `build()` says "pure")."""
    if pure_requested():
        return f"{PURE_VARIABLE} is set"
    if any(stale(module) for module in COMPILED_MODULES):
        return "the compiled modules are older than their sources: reinstall to rebuild"
    if any(extension_of(module) is None for module in COMPILED_MODULES):
        return ("no compiled modules are installed: the install found no C compiler, or mypyc "
                "refused a module (`pip install -v -e .` prints which)")
    return "the compiled modules did not load"


def running_build() -> str:
    """"compiled" when the move generator runs from a compiled extension,
    "pure" when it runs from Python source."""
    module = sys.modules.get(MOVE_GENERATOR)
    spec = getattr(module, "__spec__", None)
    loader = getattr(spec, "loader", None)
    return "compiled" if isinstance(loader, importlib.machinery.ExtensionFileLoader) else "pure"


if __name__ == "__main__":
    # `python variantkit/compiled.py`: the compiled sources, for the Makefile.
    print(" ".join(str(source_path(module).relative_to(PACKAGE_DIR.parent))
                   for module in COMPILED_MODULES))
