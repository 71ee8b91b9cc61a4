"""Tests of the first pipeline stage: reading, inheriting and shape-checking variant files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from variantkit.errors import Problem, VariantError
from variantkit.loader import (
    Document,
    bundled_dir,
    bundled_names,
    load_document,
    resolve,
    schema_path,
)

HEADER = "variantkit: 1\nname: tiny\nsetup: 8/8/8/8/8/8/8/8 w - - 0 1\n"
BOARD = "board:\n  grid: {files: 8, ranks: 8}\n"
PIECES = "pieces:\n  king:\n    letter: K\n    moves:\n      - step: all\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(target: str | Path) -> list[Problem]:
    with pytest.raises(VariantError) as caught:
        load_document(target)
    return caught.value.problems


def only_problem(target: str | Path) -> Problem:
    problems = problems_of(target)
    assert len(problems) == 1, problems
    return problems[0]


# --- bundled files and the schema ------------------------------------------------


def test_bundled_names_are_the_variant_files() -> None:
    names = bundled_names()
    assert {"chess", "trice"} <= set(names)
    assert names == sorted(names)
    assert resolve("chess") == bundled_dir() / "chess.yaml"


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_variant_loads(name: str) -> None:
    doc = load_document(name)
    assert doc.data["variantkit"] == 1
    assert doc.file == str(bundled_dir() / f"{name}.yaml")
    assert "inherits" not in doc.data


def test_schema_is_valid_and_describes_every_property() -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] and schema["title"]

    undescribed: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" or "properties" in node:
                assert node.get("additionalProperties") is not True, where
                if "additionalProperties" not in node:
                    undescribed.append(f"{where} (additionalProperties missing)")
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    undescribed.append(f"{where}.{name}")
            for key, sub in node.items():
                walk(sub, f"{where}.{key}")
        elif isinstance(node, list):
            for index, sub in enumerate(node):
                walk(sub, f"{where}[{index}]")

    walk(schema, "#")
    assert undescribed == []


def test_trice_inherits_chess() -> None:
    trice = load_document("trice")
    chess = load_document("chess")
    pieces = trice.data["pieces"]
    assert set(chess.data["pieces"]) < set(pieces)
    assert pieces["chancellor"]["letter"] == "C"
    assert pieces["pawn"] == chess.data["pieces"]["pawn"]
    # Lists replace the parent's: four castlings, all of Trice's.
    assert [c["king"] for c in trice.data["castling"]][:2] == [["f1", "i1"], ["f1", "c1"]]
    assert len(trice.data["castling"]) == 4
    # Mappings merge key by key.
    assert trice.data["board"]["grid"] == {"files": 10, "ranks": 8}
    assert trice.data["board"]["regions"] == chess.data["board"]["regions"]
    assert trice.data["promotion"]["pieces"] == ["pawn"]
    assert trice.data["promotion"]["choices"][1] == "chancellor"
    assert trice.data["end"]["checkmate"] == "loss"
    assert trice.data["name"] == "trice"
    # Inherited nodes are located in chess.yaml, the child's own in trice.yaml.
    chess_file = str(bundled_dir() / "chess.yaml")
    trice_file = str(bundled_dir() / "trice.yaml")
    assert trice.locate(("pieces", "pawn"))[0] == chess_file
    assert trice.locate(("pieces", "pawn")) == chess.locate(("pieces", "pawn"))
    assert trice.locate(("pieces", "chancellor"))[0] == trice_file
    assert trice.locate(("castling", 0))[0] == trice_file


def test_inherits_a_path_relative_to_the_child(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    write(sub, "base.yaml", HEADER + BOARD + PIECES + "end: {checkmate: loss, stalemate: draw}\n")
    child = write(
        tmp_path,
        "child.yaml",
        "variantkit: 1\ninherits: sub/base.yaml\nname: child\nend:\n  stalemate: win\n",
    )
    doc = load_document(child)
    assert doc.data["name"] == "child"
    assert doc.data["end"] == {"checkmate": "loss", "stalemate": "win"}
    assert doc.locate(("end", "checkmate")) == (str(sub / "base.yaml"), 11, 18)
    assert doc.locate(("end", "stalemate")) == (str(child), 5, 14)


def test_inherits_an_example_from_anywhere(tmp_path: Path) -> None:
    # A file outside the repository builds on a shipped example; a file of
    # that name in the child's own folder comes first.
    child = write(tmp_path, "mine.yaml",
                  "variantkit: 1\ninherits: examples/omega.yaml\nname: mine\n")
    doc = load_document(child)
    assert doc.data["name"] == "mine"
    assert doc.data["board"]["graph"]["rows"][0].startswith("w4")
    assert doc.locate(("board",))[0].endswith("omega.yaml")
    own = tmp_path / "examples"
    own.mkdir()
    write(own, "omega.yaml", HEADER + BOARD + PIECES)
    assert "grid" in load_document(child).data["board"]
    problem = only_problem(write(tmp_path, "bad.yaml",
                                 "variantkit: 1\ninherits: examples/nowhere\n"))
    assert (problem.rule, problem.line) == ("inherit-not-found", 2)


# --- locations -------------------------------------------------------------------


def test_locate_scalars_containers_and_list_items(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", HEADER + BOARD + PIECES)
    doc = load_document(path)
    assert doc.file == str(path)
    assert doc.locate(("name",)) == (str(path), 2, 7)  # a scalar: its value
    assert doc.locate(("board", "grid", "files")) == (str(path), 5, 17)
    assert doc.locate(("pieces", "king")) == (str(path), 7, 3)  # a mapping: its key
    assert doc.locate(("pieces", "king", "moves", 0)) == (str(path), 10, 9)  # a list item
    assert doc.locate(("pieces", "king", "moves", 0, "step")) == (str(path), 10, 15)
    assert doc.locate(("name",), key=True) == (str(path), 2, 1)
    # Unwritten paths fall back to the nearest written ancestor.
    assert doc.locate(("pieces", "king", "royal")) == (str(path), 7, 3)
    assert doc.locate(()) == (str(path), 1, 1)


def test_problem_is_located(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "v.yaml", HEADER + BOARD + PIECES))
    problem = doc.problem(("pieces", "king", "letter"), "bad letter", "some-rule", "warning")
    assert (problem.file, problem.line, problem.column) == (doc.file, 8, 13)
    assert problem.path == ("pieces", "king", "letter")
    assert problem.severity == "warning"
    assert str(problem) == f"{doc.file}:8:13: [warning] bad letter (some-rule)"


def test_document_can_be_built_without_marks() -> None:
    assert Document({"name": "x"}, "x.yaml").locate(("name",)) == ("x.yaml", None, None)


# --- malformed files -------------------------------------------------------------


def test_malformed_yaml_reports_the_parser_position(tmp_path: Path) -> None:
    path = write(
        tmp_path, "v.yaml", "variantkit: 1\nname: x\nboard:\n  grid:\n    files: 8\n   ranks: 8\n"
    )
    problem = only_problem(path)
    assert problem.rule == "yaml-syntax"
    assert (problem.line, problem.column) == (6, 4)
    assert problem.message == (
        "invalid YAML: expected the end of an indented block, but found an indented 'key: value' "
        "(while parsing a block mapping at line 4, column 3)"
    )


def test_unclosed_flow_mapping(tmp_path: Path) -> None:
    problem = only_problem(write(tmp_path, "v.yaml", "variantkit: 1\nboard: {grid: 1\npieces: 2\n"))
    assert problem.rule == "yaml-syntax"
    assert problem.line == 3


def test_duplicate_key_is_reported_at_the_second(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", HEADER + BOARD + PIECES + "  king:\n    letter: Q\n")
    problem = only_problem(path)
    assert problem.rule == "duplicate-key"
    assert (problem.line, problem.column) == (11, 3)
    assert problem.message == "duplicate key 'king' in pieces"


@pytest.mark.parametrize(
    "text, got", [("- a\n- b\n", "['a', 'b']"), ("", "an empty file"), ("42\n", "42")]
)
def test_top_level_must_be_a_mapping(tmp_path: Path, text: str, got: str) -> None:
    problem = only_problem(write(tmp_path, "v.yaml", text))
    assert problem.rule == "not-a-mapping"
    assert problem.message.endswith(f"got {got}")


def test_missing_file_and_unknown_name() -> None:
    problem = only_problem("no/such/variant.yaml")
    assert (problem.rule, problem.message) == (
        "file-not-found",
        "no such file: no/such/variant.yaml",
    )
    problem = only_problem("no-such-variant")
    assert problem.rule == "file-not-found"
    assert "variantkit list" in problem.message
    assert "did you mean chess" in only_problem("chesss").message


def test_unreadable_file(tmp_path: Path) -> None:
    assert only_problem(tmp_path).rule == "file-unreadable"
    binary = tmp_path / "v.yaml"
    binary.write_bytes(b"variantkit: 1\nname: \xff\xfe\n")
    problem = only_problem(binary)
    assert (problem.rule, problem.line, problem.column) == ("bad-encoding", 2, 7)
    assert problem.message == "byte 0xff is not UTF-8 text: save the file as UTF-8"


def test_format_version(tmp_path: Path) -> None:
    problem = only_problem(write(tmp_path, "v.yaml", "variantkit: 2\nname: x\n"))
    assert problem.rule == "format-version"
    assert (problem.line, problem.column) == (1, 13)
    assert (
        problem.message
        == "variantkit: 2 is not a format version this program reads (it reads version 1)"
    )
    problem = only_problem(write(tmp_path, "w.yaml", "name: x\n" + BOARD))
    assert problem.rule == "format-version"
    assert "missing 'variantkit: 1'" in problem.message


def test_inherit_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "variantkit: 1\ninherits: b.yaml\n")
    write(tmp_path, "b.yaml", "variantkit: 1\nname: b\ninherits: a.yaml\n")
    problem = only_problem(tmp_path / "a.yaml")
    assert problem.rule == "inherit-cycle"
    assert problem.message == "inheritance cycle: a.yaml -> b.yaml -> a.yaml"
    assert (problem.file, problem.line, problem.column) == (str(tmp_path / "b.yaml"), 3, 11)


def test_missing_parent(tmp_path: Path) -> None:
    problem = only_problem(write(tmp_path, "v.yaml", "variantkit: 1\ninherits: nowhere.yaml\n"))
    assert problem.rule == "inherit-not-found"
    assert problem.line == 2


# --- schema errors -----------------------------------------------------------------


def test_unknown_key_suggests_the_nearest(tmp_path: Path) -> None:
    text = HEADER + BOARD + PIECES + "  knight:\n    letter: N\n    moves: []\n    valeu: 3\n"
    problem = only_problem(write(tmp_path, "v.yaml", text))
    assert problem.rule == "unknown-key"
    assert problem.message == "unknown key 'valeu' in pieces.knight (did you mean 'value'?)"
    assert (problem.line, problem.column) == (14, 5)
    assert problem.path == ("pieces", "knight", "valeu")


def test_unknown_top_level_key_without_a_close_match(tmp_path: Path) -> None:
    problem = only_problem(write(tmp_path, "v.yaml", HEADER + BOARD + PIECES + "zzz: 1\n"))
    assert problem.rule == "unknown-key"
    assert problem.message.startswith(
        "unknown key 'zzz' at the top level (allowed: board, capture-effects, castling,"
    )


def test_every_schema_error_is_reported_in_file_order(tmp_path: Path) -> None:
    text = (
        "variantkit: 1\n"  # 1
        "name: bad\n"  # 2
        "board:\n"  # 3
        "  grid: {files: eight, ranks: 8}\n"  # 4
        "  regions:\n"  # 5
        "    back: {rank: [1]}\n"  # 6
        "pieces:\n"  # 7
        "  pawn:\n"  # 8
        "    letter: p\n"  # 9
        "    moves:\n"  # 10
        "      - step: forward\n"  # 11
        "        ride: n\n"  # 12
        "      - ride: n\n"  # 13
        "        range: 0\n"  # 14
        "      - leap: [1, 2]\n"  # 15
        "        en-passant: targte\n"  # 16
        "end: {repetition: 1}\n"  # 17
    )
    problems = problems_of(write(tmp_path, "v.yaml", text))
    found = [(p.line, p.column, p.rule, p.message) for p in problems]
    assert found == [
        (1, 1, "schema", "missing required key 'setup'"),
        (4, 17, "schema", "board.grid.files: expected an integer >= 1, got 'eight'"),
        (6, 12, "unknown-key", "unknown key 'rank' in board.regions.back (did you mean 'ranks'?)"),
        (9, 13, "schema", "pieces.pawn.letter: expected a single uppercase letter, "
                          "or '+' and one, or one and '~' (a promoted form), got 'p'"),
        (
            11,
            9,
            "schema",
            (
                "pieces.pawn.moves[0]: expected exactly one of the keys "
                "'step', 'ride', 'leap', 'jump', 'suborn', 'hop', 'path', 'two-step', "
                "found 'step' and 'ride'"
            ),
        ),
        (14, 16, "schema", "pieces.pawn.moves[1].range: expected an integer >= 1, got 0"),
        (
            16,
            21,
            "schema",
            (
                "pieces.pawn.moves[2].en-passant: expected one of 'target', 'capture', "
                "got 'targte' (did you mean 'target'?)"
            ),
        ),
        (17, 19, "schema", "end.repetition: expected an integer >= 2 or null, got 1"),
    ]


def test_bad_piece_name_is_located_at_the_name(tmp_path: Path) -> None:
    text = HEADER + BOARD + PIECES + "  Knight:\n    letter: N\n    moves: [{leap: [1, 2]}]\n"
    problem = only_problem(write(tmp_path, "v.yaml", text))
    assert (problem.line, problem.column, problem.rule) == (11, 3, "schema")
    assert "'Knight'" in problem.message


def test_missing_required_keys_after_merge(tmp_path: Path) -> None:
    # The parent lacks `setup`; the child supplies it, so the merge is valid
    # though the parent alone is not.
    write(tmp_path, "base.yaml", "variantkit: 1\nname: base\n" + BOARD + PIECES)
    child = write(
        tmp_path,
        "child.yaml",
        "variantkit: 1\ninherits: base.yaml\nsetup: 8/8/8/8/8/8/8/8 w - - 0 1\n",
    )
    assert load_document(child).data["name"] == "base"
    problem = only_problem(tmp_path / "base.yaml")
    assert problem.message == "missing required key 'setup'"


def test_several_missing_keys_make_one_problem(tmp_path: Path) -> None:
    problem = only_problem(write(tmp_path, "v.yaml", "variantkit: 1\nname: x\n"))
    assert (problem.line, problem.column) == (1, 1)
    assert problem.message == "missing required keys 'board', 'pieces' and 'setup'"


def test_a_move_that_is_not_a_mapping(tmp_path: Path) -> None:
    text = HEADER + BOARD + "pieces:\n  king:\n    letter: K\n    moves:\n      - step all\n"
    problem = only_problem(write(tmp_path, "v.yaml", text))
    assert problem.message == "pieces.king.moves[0]: expected a mapping, got 'step all'"


def test_the_whole_vocabulary_validates(tmp_path: Path) -> None:
    text = """\
variantkit: 1
name: everything
board:
  polar:
    sectors: abcdefgh
    rings: [outer, middle, inner]
    centre: z
    cell-name: "{sector}{ring}"
    through-centre: {orthogonal: straight, diagonal: opposite-then-same-sense}
  regions:
    home: [a1, b1]
    ring_1: {sectors: [a, b], rings: [outer], centre: false}
    Mixed-2: {cells: [z], files: [a, 2], ranks: [1], planes: [A]}
sides:
  white: {forward: up}
  black: {forward: down}
pieces:
  diplomat:
    letter: D
    royal: false
    value: 2.5
    description: Suborns.
    moves:
      - suborn: {}
      - suborn: {pieces: [diplomat]}
      - step: [n, [1, 0], [0, 1, 1]]
        may-give-check: false
        closer-to: enemy-royal-start
      - ride: all
        range: 3
        from-region: home
        to-region: ring_1
      - leap: [[1, 2, 1], [2, 1]]
        plane-shift: {planes: [1, 2], path: shifted}
      - leap: [0, 1]
        plane-shift: {planes: 1, path: landing}
setup: 8/8 w - - 0 1
promotion:
  pieces: [diplomat]
  regions: {white: home, black: [a3, b3]}
  choices: [diplomat]
end:
  checkmate: win
  stalemate: loss
  repetition: null
  move-rule: null
  draw-timing: on-occurrence
  insufficient-material: [D v D, {only: [diplomat]}]
"""
    doc = load_document(write(tmp_path, "v.yaml", text))
    assert doc.data["board"]["polar"]["centre"] == "z"
    assert doc.data["pieces"]["diplomat"]["moves"][0] == {"suborn": {}}


def test_a_child_replaces_the_parents_alternative_keys(tmp_path: Path) -> None:
    """Writing `betza` replaces an inherited `moves`, and one board topology
    replaces another, instead of leaving both in the merged declaration."""
    path = tmp_path / "child.yaml"
    path.write_text(
        "variantkit: 1\nname: child\ninherits: chess\n"
        "board:\n  polar: {sectors: abcdefgh, rings: ['1'], centre: null}\n"
        "pieces:\n  rook: {letter: R, betza: R}\n", encoding="utf-8")
    data = load_document(str(path)).data
    assert "grid" not in data["board"] and "polar" in data["board"]
    assert data["board"]["regions"]["rank-1"] == {"ranks": [1]}  # the rest still merges
    assert data["pieces"]["rook"] == {"letter": "R", "value": 5, "glyph": "rook", "betza": "R"}
