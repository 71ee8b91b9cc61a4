"""The package's shape: the pipeline's stages import only earlier ones, so
no import circle exists, and no module imports another's private names.

Imports are read from the sources (the syntax tree), function-level ones
and those under `if TYPE_CHECKING:` included: a type named from a later
stage ties the stages together as much as a call does.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent.parent / "variantkit"
# The pipeline's stages, first to last, each as the modules (or packages)
# it holds (docs/architecture.md draws it).  A module imports only modules
# of its own stage or of earlier ones.
STAGES: list[tuple[str, ...]] = [
    # the plain values, errors and limits every stage shares; which build runs
    ("variantkit.errors", "variantkit.limits", "variantkit.public_types", "variantkit.compiled"),
    ("variantkit.loader",),
    ("variantkit.board",),
    ("variantkit.betza", "variantkit.pieces"),
    ("variantkit.tables", "variantkit.castling_moves"),
    ("variantkit.rulebook",),
    ("variantkit.rules",),
    ("variantkit.lint",),
    ("variantkit.core",),
    ("variantkit.outcome",),
    ("variantkit.notation",),
    ("variantkit.drawing",),
    ("variantkit.game",),
    ("variantkit.variant",),
    # the faces
    ("variantkit.engine", "variantkit.pair", "variantkit.pgn",
     "variantkit.fsf", "variantkit.protocols", "variantkit.analysis", "variantkit.cli",
     "variantkit.web", "variantkit.compat", "variantkit.__main__"),
]
CORE = ["variantkit.core.moves", "variantkit.core.position", "variantkit.core.general",
        "variantkit.core.conditions", "variantkit.core.flips", "variantkit.core.transfer",
        "variantkit.core.observation", "variantkit.core.remote",
        "variantkit.core.two_steps", "variantkit.core.swaps", "variantkit.core.take_make",
        "variantkit.core.turns"]
# What the position core may use: itself and the stages before it.
CORE_AND_BEFORE = tuple(prefix for stage in STAGES[:STAGES.index(("variantkit.core",)) + 1]
                        for prefix in stage)
# Modules that draw or write to a terminal: loading a variant needs none.
DRAWING = ("variantkit.drawing.svg", "variantkit.drawing.terminal", "rich")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The variantkit modules a module imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            names = []
        found.update(name for name in names if name in modules)
    return found


def import_graph() -> nx.DiGraph:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(paths)
    for name, path in paths.items():
        for target in imports(path, set(paths)):
            # A package's __init__ importing its own submodules is no circle.
            if target != name and not target.startswith(name + ".") \
                    and not name.startswith(target + "."):
                graph.add_edge(name, target)
    return graph


def stage_of(module: str) -> int | None:
    """The index of the stage that holds `module` (None for the package's
    own `__init__`, the door to every stage)."""
    for index, stage in enumerate(STAGES):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in stage):
            return index
    return None


def test_no_import_circle() -> None:
    cycles = list(nx.simple_cycles(import_graph()))
    assert cycles == [], f"import circles: {cycles[:5]}"


def test_every_module_has_its_stage() -> None:
    unplaced = [m for m in import_graph() if m != "variantkit" and stage_of(m) is None]
    assert unplaced == []


def test_imports_point_down() -> None:
    """No module imports one of a later stage, even for a type hint."""
    upward = [f"{source} -> {target}" for source, target in import_graph().edges
              if source != "variantkit" and (stage_of(target) or 0) > (stage_of(source) or 0)]
    assert upward == []


def test_the_core_list_is_every_core_module() -> None:
    modules = {module_name(path) for path in (PACKAGE / "core").glob("*.py")}
    assert set(CORE) == modules - {"variantkit.core"}


@pytest.mark.parametrize("module", CORE)
def test_core_imports_no_later_stage(module: str) -> None:
    later = {m for m in nx.descendants(import_graph(), module)
             if not m.startswith(CORE_AND_BEFORE)}
    assert later == set(), f"{module} reaches {sorted(later)}"


def test_the_graph_sees_imports() -> None:
    """The reader itself: the facade imports the core and the notation, the
    core names its rules in type hints only, the game draws on demand."""
    graph = import_graph()
    assert graph.has_edge("variantkit.game", "variantkit.core.position")
    assert graph.has_edge("variantkit.game", "variantkit.notation.fen")
    assert graph.has_edge("variantkit.core.position", "variantkit.rules")   # TYPE_CHECKING
    assert graph.has_edge("variantkit.game", "variantkit.drawing.svg")   # inside a method


def test_loading_a_variant_loads_no_drawing() -> None:
    """`import variantkit.variant` (in a new process) loads no drawing or
    terminal module: a game draws itself only when asked."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, variantkit.variant\n"
                               "print('\\n'.join(sorted(sys.modules)))"],
        capture_output=True, text=True, timeout=60, check=True)
    loaded = done.stdout.split()
    assert "variantkit.variant" in loaded
    assert [m for m in loaded if m.startswith(DRAWING)] == []


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
