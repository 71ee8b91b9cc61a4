"""The package keeps its own house rule: no module reaches into the
underscore-private names another module defines (the core offers a public
internal API instead), and none imports another module's private names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "variantkit"
MODULES = sorted(PACKAGE.rglob("*.py"))
# Named-tuple methods are public API despite their underscore.
NAMED_TUPLE_API = {"_replace", "_asdict", "_fields", "_make"}


def _own_private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: its methods and `self._x` fields."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls"):
            names.add(node.attr)
    return names


def _private_reaches(tree: ast.AST) -> list[str]:
    own = _own_private_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__") and node.attr not in NAMED_TUPLE_API \
                and node.attr not in own:
            found.append(f"line {node.lineno}: .{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module and \
                node.module.startswith("variantkit"):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
    return found


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_reaches_into_private_names(module: Path) -> None:
    assert _private_reaches(ast.parse(module.read_text(encoding="utf-8"))) == []


def test_the_check_finds_a_reach() -> None:
    assert sorted(_private_reaches(ast.parse("game._legal()\nfrom variantkit.x import _y\n"))) == [
        "line 1: ._legal", "line 2: import _y"]
