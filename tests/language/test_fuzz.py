"""Fuzzing the variant reader: seeded random damage to the bundled files must
always end in located problems, never in a traceback.

Each case takes one bundled file and applies one mutation (delete a line,
duplicate a line, replace a value with an odd one, insert junk characters).
`variantkit validate` must exit 0, 1 or 2 with no traceback, and
`variantkit.load` may raise only `VariantError`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import variantkit
from variantkit.cli import cli
from variantkit.errors import VariantError

VARIANTS = Path(__file__).resolve().parent.parent.parent / "variants"
FILES = sorted(VARIANTS.glob("*.yaml"))
# A fixed budget spread over the bundled files in make test, so that a
# larger catalogue fuzzes more kinds of declaration without slowing it
# (ten cases a file, 1,240 in all, cost it about 55 s); make oracle runs at
# least ten a file.
CASES_PER_FILE = max(3, 480 // len(FILES))
ORACLE_CASES_PER_FILE = max(10, CASES_PER_FILE)
SEEDS = [seed if seed < CASES_PER_FILE else pytest.param(seed, marks=pytest.mark.oracle)
         for seed in range(ORACLE_CASES_PER_FILE)]
ODD_VALUES = ["-1", "[]", "{}", "null", "'x'", "z9", "99", "[1, 2, 3]", "0", "true",
              "''", "[[]]", "{a: 1}", "1.5", "-", "~", "'K v'"]
JUNK = [":", "{", "}", "[", "]", "- ", "#", "&a", "*a", "!!", "\t", "'", '"', "|", ">",
        "\x00", "é", "  ", "\n", "%"]
VALUE = re.compile(r"^(\s*(?:- )?[A-Za-z0-9_-]+:\s*)(\S.*)$")


def delete_line(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    return lines[:i] + lines[i + 1:]


def duplicate_line(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    return lines[:i + 1] + lines[i:]


def odd_value(lines: list[str], rng: random.Random) -> list[str]:
    """The value of a `key: value` line replaced (flow mappings included)."""
    candidates = [i for i, line in enumerate(lines) if VALUE.match(line)]
    i = rng.choice(candidates)
    match = VALUE.match(lines[i])
    assert match is not None
    return lines[:i] + [match[1] + rng.choice(ODD_VALUES)] + lines[i + 1:]


def junk(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    at = rng.randint(0, len(lines[i]))
    return lines[:i] + [lines[i][:at] + rng.choice(JUNK) + lines[i][at:]] + lines[i + 1:]


MUTATIONS: list[Callable[[list[str], random.Random], list[str]]] = [
    delete_line, duplicate_line, odd_value, junk]


def mutated(file: Path, seed: int) -> str:
    rng = random.Random(seed)
    # `inherits: chess` names the bundled, undamaged parent wherever the
    # case is written.
    lines = file.read_text(encoding="utf-8").splitlines()
    return "\n".join(rng.choice(MUTATIONS)(lines, rng)) + "\n"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("file", FILES, ids=[f.stem for f in FILES])
def test_damaged_file_is_reported_without_a_traceback(tmp_path: Path, file: Path,
                                                      seed: int) -> None:
    path = tmp_path / file.name
    path.write_text(mutated(file, seed), encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    try:
        variantkit.load(str(path))
    except VariantError as exc:
        assert exc.problems
        assert result.exit_code != 0
    else:
        assert result.exit_code == 0
