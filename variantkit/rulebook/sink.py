"""Where rule compilation reports: the located problems of one declaration,
kept in the order they are found, and the look-up every rule family makes
through it (piece names to piece types, an unknown name being a problem)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from variantkit.errors import DeclarationError, Problem, Severity, YamlPath
from variantkit.loader import Document
from variantkit.pieces import PieceSet

T = TypeVar("T")


class Sink:
    """The problems found while compiling one declaration."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.problems: list[Problem] = []

    def report(self, path: YamlPath, message: str, rule: str, severity: Severity = "error",
            key: bool = False) -> None:
        """Report a problem at the node at `path` (its key with `key`)."""
        self.problems.append(self.document.problem(path, message, rule, severity, key))

    def located(self, path: YamlPath, build: Callable[[], T]) -> T | None:
        """Run a build step; a bad value becomes a problem at `path` (once)."""
        try:
            return build()
        except DeclarationError as exc:
            problem = self.document.problem(path + exc.where, exc.message, exc.rule)
            if problem not in self.problems:
                self.problems.append(problem)
            return None

    def kinds(self, pieces: PieceSet, path: YamlPath, names: list[str]) -> list[int]:
        """The piece types of `names`, in order; an unknown name is a
        problem at its index and is left out."""
        out = []
        for i, name in enumerate(names):
            kind = pieces.by_name.get(name)
            if kind is None:
                self.report((*path, i), f"unknown piece '{name}'", "unknown-piece")
                continue
            out.append(kind.index)
        return out
