"""A variant travels as YAML text (to a cluster's workers): the text is
self-contained and compiles to the same game as the file."""

from __future__ import annotations

import pytest

import variantkit
from variantkit.errors import VariantError
from variantkit.loader import document_text, load_document, load_document_text
from variantkit.variant import Variant

NAMES = [*variantkit.variants(), "examples/glinski.yaml", "examples/omega.yaml"]


@pytest.mark.parametrize("name", NAMES)
def test_text_compiles_to_the_same_game(name: str) -> None:
    document = load_document(name)
    text = document_text(document)
    assert "inherits" not in load_document_text(text).data
    original, copy = Variant(document).new_game(), Variant(load_document_text(text)).new_game()
    assert copy.fen() == original.fen()
    assert variantkit.perft(copy, 2) == variantkit.perft(original, 2)


def test_text_may_inherit_a_bundled_variant() -> None:
    doc = load_document_text("variantkit: 1\nname: mine\ninherits: chess\n")
    assert doc.data["name"] == "mine" and "king" in doc.data["pieces"]


@pytest.mark.parametrize("parent", ["../variants/chess.yaml", "/etc/passwd", "nosuch"])
def test_text_may_not_inherit_a_file(parent: str) -> None:
    with pytest.raises(VariantError) as caught:
        load_document_text(f"variantkit: 1\nname: mine\ninherits: {parent}\n", "sent.yaml")
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.rule) == ("sent.yaml", 3, "inherit-not-found")


def test_text_is_checked_like_a_file() -> None:
    with pytest.raises(VariantError) as caught:
        load_document_text("variantkit: 1\nname: [\n", "sent.yaml")
    assert caught.value.problems[0].rule == "yaml-syntax"
