"""The bundled catalogue, thinned for tests that exercise a face (drawing,
PGN, the engine) rather than rules: one variant per kind of board, since the
Fairy-Stockfish catalogue adds games, not new drawings or notations.  The
rules of every variant are tested in full by tests/fsf/test_fsf_catalogue.py.

It is thinned for the pure-Python build too (`on_both_builds`): a test over
every variant runs on the compiled build for each of them, and in `make
test`'s second pass, on the pure build, for a sample that declares every
rule the catalogue uses; `make oracle` runs the rest on the pure build
(marker `pure_in_oracle`)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

import pytest

import variantkit
from variantkit.cli.inspect import board_label
from variantkit.loader import load_document


@cache
def one_per_board() -> list[str]:
    """The first bundled variant (by name) of each board, plus chess."""
    chosen: dict[str, str] = {}
    for name in variantkit.variants():
        chosen.setdefault(board_label(load_document(name).data["board"]), name)
    return sorted(set(chosen.values()) | {"chess"})


# Keys that describe a game rather than rule it.
NOT_RULES = frozenset({"name", "title", "description", "rules-text", "look", "setup",
                       "inherits", "notation", "aliases", "pieces"})


@cache
def one_per_rule() -> frozenset[str]:
    """The first bundled variant (by name) that declares each rule key, and
    each key of a rule's mapping (`castling.free`), each kind of board, and
    every variant of the project's own boards."""
    chosen: dict[str, str] = {}
    for name in variantkit.variants():
        data = load_document(name).data
        chosen.setdefault(board_label(data["board"]), name)
        for key, value in data.items():
            if key in NOT_RULES or key == "board":
                continue
            chosen.setdefault(key, name)
            if isinstance(value, dict):
                for part in value:
                    chosen.setdefault(f"{key}.{part}", name)
    from fsf_oracle import fsf_variants  # pyffish, for the tests that use it only
    own = set(variantkit.variants()) - set(fsf_variants())
    return frozenset(chosen.values()) | frozenset(one_per_board()) | own


def on_both_builds(names: Iterable[str]) -> list[Any]:  # pytest.param's values
    """`names` as test parameters, the bundled ones outside `one_per_rule`
    marked to run on the pure build under `make oracle` only."""
    later = set(variantkit.variants()) - one_per_rule()
    return [pytest.param(name, marks=pytest.mark.pure_in_oracle) if name in later
            else pytest.param(name) for name in names]
