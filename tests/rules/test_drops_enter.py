"""`hands: {drops-enter: [...]}`: a dropped piece enters the board at an
empty edge cell and travels along its line, coming to rest before the first
piece in its way or, with `through`, on the line's last empty cell.  The
importer's `enclosingDrop = anyside` section (tests/data/fsf/boards.ini) is
compared with pyffish; here, hand-made positions and the rule's errors."""

from __future__ import annotations

import pytest

import variantkit
from variantkit import VariantError

# Not run again on the pure build (tests/conftest.py): the boards.ini section
# runs the rule against pyffish on both builds.
PURE_PASS = False

YAML = """\
variantkit: 1
name: entering
board:
  grid: {files: 5, ranks: 4}
royals: {per-side: any}
hands:
  drops-enter: %s
pieces:
  stone: {letter: P, moves: []}
setup: 5/5/5/5[PPPPPPpppppp] w - - 0 1
"""


def drops(entries: str, placement: str) -> set[str]:
    variant = variantkit.load_text(YAML % entries, "entering.yaml")
    fen = f"{placement}[PPPPPPpppppp] w - - 0 1"
    return {str(m)[2:] for m in variant.new_game(fen).legal_moves()}


def test_a_drop_moving_north_stops_before_the_first_piece() -> None:
    # Files a, b, d, e are empty: the top cell; on c, below the stone on c3.
    assert drops("[{moving: n}]", "5/2p2/5/5") == {"a4", "b4", "c2", "d4", "e4"}
    # An occupied edge cell lets no drop enter its line.
    assert "c4" not in drops("[{moving: n}]", "5/5/5/2p2")


def test_a_drop_moving_through_rests_on_the_last_empty_cell() -> None:
    # Entering at c4, moving south over the stone on c2, down to c1.
    assert drops("[{moving: s, through: true}]", "5/5/2p2/5") == \
        {"a1", "b1", "c1", "d1", "e1"}
    assert drops("[{moving: s, through: true}]", "5/5/5/2p2") >= {"c2"}
    assert drops("[{moving: s}]", "5/5/2p2/5") == {"a1", "b1", "c3", "d1", "e1"}


def test_entries_add_up() -> None:
    both = drops("[{moving: n}, {moving: w}]", "5/5/5/5")
    assert both == {"a4", "b4", "c4", "d4", "e4", "a1", "a2", "a3"}


def test_a_direction_that_is_not_one_line_is_located() -> None:
    with pytest.raises(VariantError) as error:
        variantkit.load_text(YAML % "[{moving: orthogonal}]", "entering.yaml")
    [problem] = [p for p in error.value.problems if p.severity == "error"]
    assert problem.path == ("hands", "drops-enter", 0, "moving")
    assert "one direction" in problem.message


def test_at_most_eight_entries() -> None:
    with pytest.raises(VariantError, match="drops-enter"):
        variantkit.load_text(YAML % ("[" + ", ".join(["{moving: n}"] * 9) + "]"),
                             "entering.yaml")
