"""Compiles variantkit's hot modules with mypyc when it can.

Everything else about the package is in pyproject.toml.  The modules to
compile are listed once, in variantkit/compiled.py.  Without a C compiler or
the Python headers, or with VARIANTKIT_PURE=1 set at install time, the
package installs as pure Python after a one-line message.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, PlatformError

ROOT = Path(__file__).resolve().parent
# The setup commands that build extensions (pip runs setup.py for its
# metadata first, with none of them).
BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _build_module() -> Any:
    """variantkit/compiled.py, read without importing variantkit (whose
    dependencies are not installed while it is being built)."""
    path = ROOT / "variantkit" / "compiled.py"
    spec = importlib.util.spec_from_file_location("variantkit_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _say(message: str) -> None:
    print(f"variantkit: {message}; installing the pure-Python build", file=sys.stderr)


class _OptionalBuildExt(build_ext):
    """Builds the compiled modules, or leaves the pure-Python ones alone when
    the C compiler fails (missing, or no Python headers)."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, CompileError, PlatformError, OSError) as error:
            # A half-built set would not import: remove what was built.
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            _say(f"the C compiler failed ({_first_line(error)})")


def _first_line(error: BaseException) -> str:
    """The start of an error's message, short enough for one line."""
    text = str(error).strip()
    line = text.splitlines()[0] if text else type(error).__name__
    return line if len(line) <= 80 else line[:77] + "..."


def _extensions() -> list[Any]:
    if not BUILDING.intersection(sys.argv[1:]):
        return []  # metadata only: no need to run mypyc
    build = _build_module()
    if build.pure_requested():
        _say(f"{build.PURE_VARIABLE} is set")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc (part of mypy) is not installed")
        return []
    sources = [str(build.source_path(module).relative_to(ROOT))
               for module in build.COMPILED_MODULES]
    # While the package builds, its dependencies may not be installed yet:
    # their values are then Any, which pyproject.toml's strict mypy checks
    # refuse (`make lint` runs those checks with them installed).
    lenient = ["--allow-subclassing-any", "--no-warn-return-any"]
    try:
        # One shared library, variantkit__mypyc.*.so beside the package, holds them all.
        return mypycify([*lenient, *sources], group_name="variantkit",
                        opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    except (SystemExit, Exception) as error:  # mypyc reports a type error by exiting
        _say(f"mypyc could not compile {', '.join(sources)} ({_first_line(error)})")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": _OptionalBuildExt})
