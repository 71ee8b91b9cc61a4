"""Every YAML example in README.md and docs/ is run: the docs cannot drift
from the code.

The convention (stated in docs/reference/index.md, "Examples in these
pages"): a ```yaml block is a whole variant file that must validate without
errors, unless the line before its fence is one of these HTML comments:

- `<!-- check: on BASE -->`: a fragment, laid over the bundled variant BASE
  (`inherits: BASE`); the result must validate;
- `<!-- check: moves on BASE -->`: a list of moves, given to a new piece
  laid over BASE; the result must validate;
- `<!-- check: board -->`: a `board:` mapping; with a king for each side on
  its first and last cell it must validate;
- `<!-- check: part NAME -->`: one part of a file written over several
  blocks; the parts named NAME, joined in page order, must validate, and
  when NAME is a bundled variant they must be that file, key for key;
- `<!-- check: mistake RULE -->` (or `... mistake RULE on BASE`): a
  deliberate mistake, which must be reported with the rule id RULE;
- `<!-- check: not a variant -->`: text in YAML syntax that is no variant
  (two alternatives of one key side by side); never run.

In docs/validation.md every block is a deliberate mistake whose rule is the
heading of its section, so that page needs no markers.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml

import variantkit
from variantkit import VariantError

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
VALIDATION = ROOT / "docs" / "validation.md"
MARKER = re.compile(r"^<!-- check: (.*) -->$")
FENCE = re.compile(r"^```yaml\s*$")


class Block(NamedTuple):
    page: Path
    line: int        # of the opening fence, 1-based
    text: str
    marker: str      # what follows `check:`, or "" for a whole file
    section: str     # the heading above the block
    output: str      # the plain ``` block right after it, if any

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    section = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#") and not line.startswith("#!"):
            section = line.lstrip("#").strip()
        if line.startswith("```") and not FENCE.match(line):
            # Skip other fenced blocks whole: a '#' line in them is no heading.
            end = next(j for j in range(index + 1, len(lines)) if lines[j].startswith("```"))
            index = end + 1
            continue
        if FENCE.match(line):
            end = next(j for j in range(index + 1, len(lines)) if lines[j].startswith("```"))
            before = next((lines[j] for j in range(index - 1, -1, -1) if lines[j].strip()), "")
            match = MARKER.match(before.strip())
            after = next((j for j in range(end + 1, len(lines)) if lines[j].strip()), None)
            output = ""
            if after is not None and lines[after] == "```":
                close = next(j for j in range(after + 1, len(lines)) if lines[j].startswith("```"))
                output = "\n".join(lines[after + 1:close])
            found.append(Block(page, index + 1, "\n".join(lines[index + 1:end]) + "\n",
                               match.group(1).strip() if match else "", section, output))
            index = end + 1
            continue
        index += 1
    return found


ALL = [block for page in PAGES for block in blocks(page)]


def problems(text: str) -> list[variantkit.errors.Problem]:
    """Every problem loading `text` reports, warnings included."""
    try:
        return list(variantkit.load_text(text, source="block.yaml").problems)
    except VariantError as exc:
        return list(exc.problems)


def over(base: str, text: str) -> str:
    """`text` laid over the bundled `base`; a block that names its parent
    itself must name `base`."""
    if re.search(r"^inherits:", text, re.M):
        assert re.search(rf"^inherits: {base}\b", text, re.M), text
        return f"variantkit: 1\nname: doc-example\n{text}"
    return f"variantkit: 1\nname: doc-example\ninherits: {base}\n{text}"


def with_piece(base: str, moves: str) -> str:
    """A new piece with the `moves` list, laid over `base`, by a letter
    `base` does not use."""
    taken = set(variantkit.load(base).rules.letter_codes)
    letter = next(c for c in "ZYXWVUTSJIHGFEDCBA" if c not in taken)
    indented = "".join(f"      {line}\n" for line in moves.splitlines())
    return over(base, f"pieces:\n  doc-piece:\n    letter: {letter}\n    moves:\n{indented}")


def with_kings(board_text: str) -> str:
    """A `board:` block made a whole file: a king on its first and last
    cell, as the board's own position-string rows write them."""
    from variantkit.board.build import build_board
    spec = yaml.safe_load(board_text)["board"]
    layout = build_board({k: v for k, v in spec.items() if k != "regions"}).layout
    first, last = layout[0][0][0], layout[-1][-1][-1]

    def row(cells: list[int]) -> str:
        text, empty = "", 0
        for cell in cells:
            letter = "K" if cell == first else "k" if cell == last else ""
            if letter:
                text += (str(empty) if empty else "") + letter
                empty = 0
            else:
                empty += 1
        return text + (str(empty) if empty else "")

    placement = "|".join("/".join(row(r) for r in group) for group in layout)
    return (f"variantkit: 1\nname: doc-board\n{board_text}pieces:\n"
            f"  king: {{letter: K, royal: true, moves: [{{step: all}}]}}\n"
            f"setup: {placement} w - - 0 1\n")


def errors(text: str) -> list[str]:
    return [str(p) for p in problems(text) if p.severity == "error"]


def test_markers_are_known() -> None:
    known = re.compile(r"^((moves )?on \S+|board|part \S+|mistake \S+( on \S+)?|not a variant)$")
    for block in ALL:
        if block.marker:
            assert known.match(block.marker), f"{block.name}: unknown marker {block.marker!r}"


WHOLE = [b for b in ALL if not b.marker and b.page != VALIDATION]


@pytest.mark.parametrize("block", WHOLE, ids=lambda b: b.name)
def test_whole_files_validate(block: Block) -> None:
    assert errors(block.text) == [], block.name


FRAGMENTS = [b for b in ALL if b.marker.startswith("on ")]


@pytest.mark.parametrize("block", FRAGMENTS, ids=lambda b: b.name)
def test_fragments_validate_over_their_base(block: Block) -> None:
    assert errors(over(block.marker.split()[1], block.text)) == [], block.name


MOVES = [b for b in ALL if b.marker.startswith("moves on ")]


@pytest.mark.parametrize("block", MOVES, ids=lambda b: b.name)
def test_move_lists_validate_on_a_piece(block: Block) -> None:
    assert errors(with_piece(block.marker.split()[2], block.text)) == [], block.name


BOARDS = [b for b in ALL if b.marker == "board"]


@pytest.mark.parametrize("block", BOARDS, ids=lambda b: b.name)
def test_boards_validate_with_two_kings(block: Block) -> None:
    assert errors(with_kings(block.text)) == [], block.name


def parts() -> dict[str, list[Block]]:
    grouped: dict[str, list[Block]] = defaultdict(list)
    for block in ALL:
        if block.marker.startswith("part "):
            grouped[block.marker.split()[1]].append(block)
    return grouped


@pytest.mark.parametrize("name", sorted(parts()))
def test_parts_join_into_a_file(name: str) -> None:
    text = "".join(b.text for b in parts()[name])
    assert errors(text) == []
    if name in variantkit.variants():
        bundled = (ROOT / "variants" / f"{name}.yaml").read_text(encoding="utf-8")
        assert yaml.safe_load(text) == yaml.safe_load(bundled)


def mistakes() -> list[tuple[Block, str, str | None]]:
    """Each deliberate mistake elsewhere than docs/validation.md, with the
    rule it must trip and its base."""
    found = []
    for block in ALL:
        if block.marker.startswith("mistake "):
            words = block.marker.split()
            found.append((block, words[1], words[3] if len(words) == 4 else None))
    return found


@pytest.mark.parametrize("case", mistakes(), ids=lambda c: c[0].name)
def test_mistakes_are_reported(case: tuple[Block, str, str | None]) -> None:
    block, rule, base = case
    text = block.text if base is None else over(base, block.text)
    reported = {p.rule for p in problems(text)}
    assert rule in reported, f"{block.name}: expected {rule}, got {sorted(reported)}"


VALIDATION_EXAMPLES = [b for b in ALL if b.page == VALIDATION]
REPORTED = re.compile(r"^v\.yaml:[0-9:]* ?\[(error|warning)\] .*\)$")


@pytest.mark.parametrize("block", VALIDATION_EXAMPLES, ids=lambda b: b.name)
def test_validation_examples_print_what_the_page_shows(block: Block, tmp_path: Path) -> None:
    """Each example of docs/validation.md, saved as v.yaml, reports exactly
    the problem lines printed under it, and one of them has the rule of its
    section."""
    (tmp_path / "v.yaml").write_text(block.text, encoding="utf-8")
    try:
        found = variantkit.load(tmp_path / "v.yaml").problems
    except VariantError as exc:
        found = exc.problems
    shown = [line for line in block.output.splitlines() if REPORTED.match(line)]
    assert shown, f"{block.name}: no output block under the example"
    printed = [str(p).replace(str(tmp_path / "v.yaml"), "v.yaml") for p in found]
    assert printed == shown, block.name
    rules = {p.rule for p in found}
    assert block.section in rules or "schema" in rules, block.name


def test_the_collection_finds_the_examples() -> None:
    """The parser sees the blocks: a change of fence style would otherwise
    empty every list above and pass in silence."""
    assert len(ALL) - len(VALIDATION_EXAMPLES) >= 50 and len(VALIDATION_EXAMPLES) >= 60
    assert WHOLE and FRAGMENTS and MOVES and BOARDS and "losalamos" in parts()
