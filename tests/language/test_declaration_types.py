"""The typed declarations say what the schema admits, so neither can drift
from the other: every top-level key of the schema is a key of
`VariantDeclaration` and back, and a family's part typed as a `TypedDict`
has exactly the keys of its object in the schema."""

from __future__ import annotations

import json
import typing
from typing import Any

from variantkit.betza import MoveDeclaration, PieceDeclaration
from variantkit.loader import schema_path
from variantkit.rulebook.declaration import VariantDeclaration

SCHEMA = json.loads(schema_path().read_text(encoding="utf-8"))


def resolved(node: dict[str, Any]) -> dict[str, Any]:
    """A schema node with its `$ref` followed."""
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].split("/")[-1]]
    return node


def test_every_top_level_key_is_typed() -> None:
    assert set(VariantDeclaration.__annotations__) == set(SCHEMA["properties"])


def test_each_typed_part_has_the_keys_of_its_schema_object() -> None:
    checked = []
    for key, hint in typing.get_type_hints(VariantDeclaration).items():
        node = resolved(SCHEMA["properties"][key])
        if typing.get_origin(hint) is list:
            (hint,) = typing.get_args(hint)
            node = resolved(node.get("items", {}))
        if not typing.is_typeddict(hint) or "properties" not in node:
            continue
        assert set(hint.__annotations__) == set(node["properties"]), key
        checked.append(key)
    # The families typed so (a test that compared nothing would pass).
    assert len(checked) >= 10, checked


def test_a_piece_and_a_move_are_typed_with_the_schemas_keys() -> None:
    for hint, name in ((PieceDeclaration, "piece"), (MoveDeclaration, "move")):
        assert set(hint.__annotations__) == set(SCHEMA["$defs"][name]["properties"]), name
