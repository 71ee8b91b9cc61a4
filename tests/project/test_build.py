"""The two builds (docs/build.md): the compiled one runs wherever a C
compiler is present, `VARIANTKIT_PURE=1` runs the pure-Python sources, the
library and the command line say which runs, and the public entry points
raise the project's own errors for bad input in both (this module runs on
both builds in `make test`)."""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import variantkit
from variantkit import Engine, IllegalMoveError, InvalidFenError, VariantError, compiled

pytestmark = pytest.mark.pure_build


def _compiler_present() -> bool:
    """Whether setup.py could compile here: a C compiler and Python.h."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.is_file()


def _is_extension(name: str) -> bool:
    loader = sys.modules[name].__spec__.loader  # type: ignore[union-attr]
    return isinstance(loader, importlib.machinery.ExtensionFileLoader)


def test_the_expected_build_runs() -> None:
    loaded = [name for name in compiled.COMPILED_MODULES if name in sys.modules]
    assert loaded == list(compiled.COMPILED_MODULES)
    if compiled.pure_requested() or not _compiler_present():
        assert variantkit.BUILD == "pure"
        assert not any(_is_extension(name) for name in loaded)
    else:
        assert variantkit.BUILD == "compiled", compiled.pure_reason()
        assert all(_is_extension(name) for name in loaded)


def _run(*args: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_VARIABLE}
    if pure:
        env[compiled.PURE_VARIABLE] = "1"
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout


def test_the_variable_selects_the_sources_in_a_new_process() -> None:
    script = ("import sys, variantkit; "
              "print(variantkit.BUILD, sys.modules['variantkit.core.position'].__file__)")
    build_name, path = _run("-c", script, pure=True).split()
    assert build_name == "pure" and path.endswith("position.py")
    build_name, path = _run("-c", script, pure=False).split()
    assert build_name == ("pure" if not _compiler_present() else "compiled")
    assert path.endswith("position.py") == (build_name == "pure")


def test_version_and_info_say_which_build_runs() -> None:
    version = _run("-m", "variantkit", "--version", pure=True)
    assert version.strip() == f"variantkit, version {variantkit.__version__} (pure build)"
    info = _run("-m", "variantkit", "info", pure=True).splitlines()
    assert info[0] == f"variantkit {variantkit.__version__}"
    assert info[1] == "build: pure Python (VARIANTKIT_PURE is set)"
    assert info[3] == "compiled modules: " + ", ".join(compiled.COMPILED_MODULES)
    assert "docs/build.md" in info[4]
    assert (Path(__file__).resolve().parent.parent.parent / "docs" / "build.md").is_file()


@pytest.mark.parametrize(("value", "pure"), [("1", True), ("yes", True), ("", False),
                                             ("0", False), ("off", False), ("False", False)])
def test_the_values_of_the_variable(monkeypatch: pytest.MonkeyPatch, value: str,
                                    pure: bool) -> None:
    monkeypatch.setenv(compiled.PURE_VARIABLE, value)
    assert compiled.pure_requested() is pure


def test_the_compiled_modules_have_sources() -> None:
    for name in compiled.COMPILED_MODULES:
        assert compiled.source_path(name).is_file(), name


# --- the public entry points keep the project's errors ------------------------------------------

def case(what: str, call: Callable[[Any, Any], object], error: type[Exception],
         message: str) -> Any:
    """One bad input: `call(variant, game)` raises `error` matching `message`."""
    return pytest.param(call, error, message, id=what)


BAD_INPUT = [
    case("push an int", lambda v, g: g.push(42), IllegalMoveError, "a move is a Move"),
    case("push None", lambda v, g: g.push(None), IllegalMoveError, "a move is a Move"),
    case("push bytes", lambda v, g: g.push(b"e2e4"), IllegalMoveError, "a move is a Move"),
    case("push an illegal move", lambda v, g: g.push("e2e5"), IllegalMoveError, "illegal move"),
    case("push a malformed Move",
         lambda v, g: g.push(variantkit.Move("e2", "e4", promotion="qq")),
         IllegalMoveError, "a move is a Move"),
    case("san of an int", lambda v, g: g.san(42), IllegalMoveError, "a move is a Move"),
    case("parse_san of an int", lambda v, g: g.parse_san(42), IllegalMoveError, "SAN"),
    case("push_san None", lambda v, g: g.push_san(None), IllegalMoveError, "SAN"),
    case("push_san nonsense", lambda v, g: g.push_san("Zz9"), IllegalMoveError, "not a move"),
    case("a position string of an int", lambda v, g: v.new_game(42), InvalidFenError, "text"),
    case("a bad position string", lambda v, g: v.new_game("x"), InvalidFenError, "placement"),
    case("an unknown variant", lambda v, g: variantkit.load("no-such-game"), VariantError,
         "no bundled variant"),
    case("a variant name of an int",
         lambda v, g: variantkit.load(42),  # type: ignore[arg-type]
         VariantError, "no bundled variant"),
    case("a broken variant text", lambda v, g: variantkit.load_text("board: ["), VariantError,
         "yaml-syntax"),
    case("perft to depth 'x'",
         lambda v, g: variantkit.perft(g, "x"),  # type: ignore[arg-type]
         TypeError, "perft depth"),
    case("perft to depth -1", lambda v, g: variantkit.perft(g, -1), ValueError, "perft depth"),
    case("an unknown cell", lambda v, g: g.piece_at("z9"), ValueError, "unknown cell"),
    case("pop with no moves", lambda v, g: g.pop(), IndexError, "no moves"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_INPUT)
def test_bad_input_raises_the_projects_error(call: Callable[[Any, Any], object],
                                            error: type[Exception], message: str) -> None:
    chess = variantkit.load("chess")
    game = chess.new_game()
    with pytest.raises(error, match=message):
        call(chess, game)
    assert game.plies == 0 and game.fen() == chess.new_game().fen()


def test_the_engine_still_plays_after_bad_input() -> None:
    chess = variantkit.load("chess")
    game = chess.new_game()
    with pytest.raises(IllegalMoveError):
        game.push(42)  # type: ignore[arg-type]
    assert str(Engine(chess).best_move(game, depth=1)) in {str(m) for m in game.legal_moves}


def test_an_extension_the_list_no_longer_names_is_a_leftover(tmp_path: Path) -> None:
    """A module compiled by an older build (here `game`, compiled before the
    facade left the list) loads from source; a listed one does not count."""
    package = tmp_path / "variantkit"
    (package / "core").mkdir(parents=True)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / f"game{suffix}").touch()
    (package / "core" / f"position{suffix}").touch()
    assert compiled.leftover_extensions(package) == ["variantkit.game"]
