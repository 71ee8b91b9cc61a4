"""The package's shape: the pipeline's stages import only earlier ones, so
no import circle exists, and no module imports another's private names.

Imports are read from the sources (the syntax tree), function-level ones
included; those under `if TYPE_CHECKING:` are left out, since they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "variantkit"
# What the position core may use: itself, the stages before it (board,
# pieces), the rule tables it reads and the plain values and limits every
# stage shares.
CORE_AND_BEFORE = ("variantkit.core", "variantkit.pieces", "variantkit.betza", "variantkit.board",
                   "variantkit.tables", "variantkit.values", "variantkit.errors",
                   "variantkit.limits")
CORE = ["variantkit.core.moves", "variantkit.core.position", "variantkit.core.general",
        "variantkit.core.conditions"]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_block(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """The variantkit modules a module imports when it runs."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _type_checking_block(node):
            return
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            names = []
        found.update(name for name in names if name in modules)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return found


def import_graph() -> nx.DiGraph:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(paths)
    for name, path in paths.items():
        for target in runtime_imports(path, set(paths)):
            # A package's __init__ importing its own submodules is no circle.
            if target != name and not target.startswith(name + ".") \
                    and not name.startswith(target + "."):
                graph.add_edge(name, target)
    return graph


def test_no_import_circle() -> None:
    cycles = list(nx.simple_cycles(import_graph()))
    assert cycles == [], f"import circles: {cycles[:5]}"


@pytest.mark.parametrize("module", CORE)
def test_core_imports_no_later_stage(module: str) -> None:
    later = {m for m in nx.descendants(import_graph(), module)
             if not m.startswith(CORE_AND_BEFORE)}
    assert later == set(), f"{module} reaches {sorted(later)}"


@pytest.mark.parametrize("module", CORE)
def test_core_reads_its_tables_from_below(module: str) -> None:
    """Even for type hints, the core takes the tables it reads from a module
    below it: of the later stages it names only `Variant`, the assembly it
    is handed (a type-only import, never run)."""
    path = PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")
    names = {f"{node.module}.{alias.name}" for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.ImportFrom) and node.module
             and node.module.startswith("variantkit.")
             and not node.module.startswith(CORE_AND_BEFORE) for alias in node.names}
    assert names <= {"variantkit.variant.Variant"}, f"{module} imports {sorted(names)}"


def test_the_graph_sees_imports() -> None:
    """The reader itself: the facade imports the core and the notation."""
    graph = import_graph()
    assert graph.has_edge("variantkit.game", "variantkit.core.position")
    assert graph.has_edge("variantkit.game", "variantkit.notation")


def test_no_private_names_across_modules() -> None:
    """No `from variantkit.x import _name`: a module's private names stay its own."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    reaches = []
    for name, path in paths.items():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in paths:
                reaches += [f"{name}: from {node.module} import {a.name}"
                            for a in node.names if a.name.startswith("_")
                            and not a.name.startswith("__")]
    assert reaches == []
