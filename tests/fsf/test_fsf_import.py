"""`variantkit import-fsf` and `variantkit.fsf.import_ini`: Fairy-Stockfish ini
sections become variant files that play exactly as Fairy-Stockfish plays them.

The ini files in tests/data/fsf/ were written for these tests; together they
set every key the importer supports (`test_every_supported_key_is_exercised`).
pyffish reads the same text (`load_variant_config`), and every section that
imports is compared with it as the bundled variants are (tests/fsf_oracle.py):
the perft tree's move sets at every node, and seeded random games.  Sections
the language cannot express, misspelt keys and hostile input are reported
with their line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyffish
import pytest
from click.testing import CliRunner
from fsf_oracle import Oracle

import variantkit
from variantkit.cli import cli
from variantkit.fsf import IniError, import_ini, keys
from variantkit.fsf.ini import MAX_CHAIN, MAX_INI_CHARS, MAX_SECTIONS

# Not run again on the pure build (tests/conftest.py): the importer writes YAML and
# runs no compiled code of its own; the catalogue tests hold the generator it
# feeds to pyffish on both builds.
PURE_PASS = False
DATA = Path(__file__).parent.parent / "data" / "fsf"
GOOD = ("rules.ini", "drops.ini", "plain.ini", "flips.ini", "pieces.ini", "boards.ini",
        "captures.ini", "promotions.ini", "fidelity.ini")
TEXTS = {name: (DATA / name).read_text(encoding="utf-8") for name in GOOD + ("bad.ini",)}
for _name in GOOD:
    pyffish.load_variant_config(TEXTS[_name])
IMPORTED = {name: import_ini(TEXTS[name], name) for name in GOOD}
SECTIONS = [(file, section) for file in GOOD for section in IMPORTED[file]]


class ImportedOracle(Oracle):
    """One imported section against pyffish reading the same ini text."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.variant = variantkit.load_text(text, f"{name}.yaml")
        self.start_fen = pyffish.get_fen(name, pyffish.start_fen(name), [])


def imported(file: str, section: str) -> str:
    text = IMPORTED[file][section]
    assert isinstance(text, str), f"[{section}] did not import: {text}"
    return text


def depth_for(oracle: ImportedOracle) -> int:
    """3 plies on small boards, 2 on chess's and larger ones, with pieces
    in hand or over 30 first moves (knights shooting arrows on 6x6: 25 s at
    depth 3): a few seconds a section (the oracle run goes one deeper)."""
    grid = oracle.variant.document.data["board"]["grid"]
    small = grid["files"] * grid["ranks"] <= 36 and "hands" not in oracle.variant.document.data
    return 3 if small and len(oracle.variant.new_game().legal_moves()) <= 30 else 2


@pytest.mark.parametrize(("file", "section"), SECTIONS)
def test_section_imports_and_its_perft_tree_equals_pyffish(file: str, section: str) -> None:
    oracle = ImportedOracle(section, imported(file, section))
    oracle.walk(depth_for(oracle))


@pytest.mark.parametrize(("file", "section"), SECTIONS)
def test_section_random_games_equal_pyffish(file: str, section: str) -> None:
    ImportedOracle(section, imported(file, section)).random_games(games=2, max_plies=60, seed=1)


@pytest.mark.oracle
@pytest.mark.parametrize(("file", "section"), SECTIONS)
def test_section_deep_perft_and_many_games_equal_pyffish(file: str, section: str) -> None:
    oracle = ImportedOracle(section, imported(file, section))
    oracle.walk(depth_for(oracle) + 1)
    oracle.random_games(games=10, max_plies=300, seed=2)


def test_every_supported_key_is_exercised() -> None:
    used = {m.group(1) for name in GOOD
            for m in re.finditer(r"^(\w+)\s*=", TEXTS[name], re.MULTILINE)}
    assert keys.SUPPORTED - used == set()
    testable = set(keys.PIECE_TYPES) - keys.SPECIAL_TYPES - {"pawn", "queen", "knight",
                                                             "bishop", "rook"}
    assert testable - used == set()


def test_a_child_of_a_bundled_variant_inherits_it_and_says_where_it_came_from() -> None:
    text = imported("drops.ini", "vk-house")
    assert text.startswith("# Imported from drops.ini, section [vk-house]")
    assert "\ninherits: crazyhouse\n" in text
    assert text.rstrip().endswith("must-capture: true")


def test_betza_is_kept_where_the_language_has_it() -> None:
    text = imported("rules.ini", "vk-leapers")
    assert "betza: NNmW" in text
    # `e` (en passant) and `i` (from the double-step ranks) become modifiers.
    berolina = imported("rules.ini", "vk-berolina")
    assert "en-passant: capture" in berolina and "from-region" in berolina


def test_a_section_inheriting_a_section_of_the_file_is_written_whole() -> None:
    text = imported("rules.ini", "vk-child-of-small")
    assert "section [vk-child-of-small] <- [vk-small]" in text
    assert "\ninherits: chess\n" in text


def test_a_key_the_language_cannot_express_is_reported_with_its_line() -> None:
    result = import_ini(TEXTS["bad.ini"], "bad.ini")
    stones = result["vk-blast-stones"]
    assert isinstance(stones, list)
    assert [(p.line, p.message) for p in stones] == \
        [(9, "petrifyBlastPieces = true: not supported")]
    flip = result["vk-flip"]
    assert isinstance(flip, list) and flip[0].line == 12


def test_a_castling_whose_king_moves_one_cell_is_written_onto_its_rook() -> None:
    # The king would step from e1 to f1: its own cells read as its step.
    text = imported("rules.ini", "vk-short-castle")
    assert "written: king-onto-rook" in text
    moves = {str(m) for m in variantkit.load_text(text, "x.yaml").new_game().legal_moves()}
    assert {"e1h1", "e1a1", "e1f1", "e1d1"} <= moves


def test_per_side_pawn_types_on_a_piece_both_sides_own_are_refused() -> None:
    # Both sides start with the chess pawn: a rule for White's alone has no form.
    result = import_ini("[one-sided:chess]\nnMoveRuleTypesBlack = n\n")["one-sided"]
    assert isinstance(result, list) and "differ on a piece both sides can have" \
        in result[0].message


def test_misspelt_keys_are_warnings_with_their_line_and_a_suggestion() -> None:
    result = import_ini(TEXTS["bad.ini"], "bad.ini")
    found = {(p.line, p.message) for p in result.warnings}
    assert (4, "mustCaptures = true: unknown key, which Fairy-Stockfish ignores "
               "(did you mean mustCapture?)") in found
    assert any(line == 5 and "stalemateValu" in message for line, message in found)
    # The section still imports, without the keys Fairy-Stockfish ignores.
    text = result["vk-misspelt"]
    assert isinstance(text, str) and "must-capture" not in text


PAWN_PASS = """
[vk-pawn-pass:antichess]
passOnStalemate = true
startFen = 8/8/8/4p3/4P3/8/8/8 w - - 7 20
"""


def test_a_pass_from_a_pawn_resets_the_move_clock_as_in_pyffish() -> None:
    # Fairy-Stockfish's pass is a move of the piece it is written from.
    pyffish.load_variant_config(PAWN_PASS)
    text = import_ini(PAWN_PASS, "pass.ini")["vk-pawn-pass"]
    assert isinstance(text, str) and "when-no-move" in text
    game = variantkit.load_text(text, "vk-pawn-pass.yaml").new_game()
    game.push("e4e4")
    start = pyffish.start_fen("vk-pawn-pass")
    assert game.fen() == pyffish.get_fen("vk-pawn-pass", start, ["e4e4"])
    assert game.fen().endswith(" 0 20")


def test_pyffish_ignores_a_misspelt_key_as_the_import_does() -> None:
    pyffish.load_variant_config(TEXTS["bad.ini"])
    fen = pyffish.start_fen("vk-misspelt")
    after = pyffish.get_fen("vk-misspelt", fen, ["e2e4", "d7d5"])
    # mustCaptures is ignored: a quiet move is legal beside the capture.
    assert "a2a3" in pyffish.legal_moves("vk-misspelt", after, [])


def test_broken_chains_and_duplicates_are_located() -> None:
    result = import_ini(TEXTS["bad.ini"], "bad.ini")
    orphan = result["vk-orphan"]
    assert isinstance(orphan, list) and "'no-such-parent' is not a bundled variant" \
        in orphan[0].message
    later = result["vk-later"]
    assert isinstance(later, list) and later[0].line == 17 and "defined below" \
        in later[0].message
    duplicate = [p for p in result.errors if p.rule == "ini-duplicate"]
    assert [p.line for p in duplicate] == [24]
    assert any(p.line == 22 and "not a 'key = value' line" in p.message
               for p in result.warnings)


def test_hostile_input_gets_clear_errors() -> None:
    with pytest.raises(IniError, match="longer than"):
        import_ini("#" * (MAX_INI_CHARS + 1))
    with pytest.raises(IniError, match="not UTF-8"):
        import_ini(b"[a]\nkey = \xff\xfe\n")
    with pytest.raises(IniError, match="NUL"):
        import_ini("[a]\nkey = x\x00\n")
    deep = "[s0:chess]\n" + "".join(f"[s{i}:s{i - 1}]\n" for i in range(1, MAX_CHAIN + 5))
    last = import_ini(deep, sections=[f"s{MAX_CHAIN + 4}"])[f"s{MAX_CHAIN + 4}"]
    assert isinstance(last, list) and f"more than {MAX_CHAIN} sections" in last[0].message
    many = "".join(f"[m{i}:chess]\n" for i in range(MAX_SECTIONS + 1))
    result = import_ini(many, sections=["m0"])
    assert any(p.rule == "ini-too-large" for p in result.errors)
    loop = import_ini("[a:b]\n[b:a]\n")
    assert all(isinstance(v, list) for v in loop.values())


def run(*args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(cli, list(args))
    return outcome.exit_code, outcome.output


def test_cli_writes_one_file_per_section_and_lists_the_rest(tmp_path: Path) -> None:
    code, output = run("import-fsf", str(DATA / "bad.ini"), "--out", str(tmp_path))
    assert code == 0
    assert (tmp_path / "vk-misspelt.yaml").is_file()
    assert not (tmp_path / "vk-blast-stones.yaml").exists()
    assert "bad.ini:9: petrifyBlastPieces = true: not supported " \
        "([vk-blast-stones] not imported)" in output
    assert "bad.ini:4: warning: mustCaptures = true: unknown key" in output
    variantkit.load(str(tmp_path / "vk-misspelt.yaml"))


def test_cli_fails_only_when_nothing_imports(tmp_path: Path) -> None:
    code, output = run("import-fsf", str(DATA / "bad.ini"), "vk-blast-stones", "vk-flip",
                       "--out", str(tmp_path))
    assert code == 1 and "no section could be imported" in output
    code, _ = run("import-fsf", str(DATA / "rules.ini"), "vk-small", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "vk-small.yaml").is_file()


def test_cli_never_replaces_a_file_unless_forced(tmp_path: Path) -> None:
    (tmp_path / "vk-small.yaml").write_text("mine", encoding="utf-8")
    _, output = run("import-fsf", str(DATA / "rules.ini"), "vk-small", "--out", str(tmp_path))
    assert "exists already" in output
    assert (tmp_path / "vk-small.yaml").read_text(encoding="utf-8") == "mine"
    run("import-fsf", str(DATA / "rules.ini"), "vk-small", "--out", str(tmp_path), "--force")
    assert (tmp_path / "vk-small.yaml").read_text(encoding="utf-8") != "mine"


def test_cli_reports_an_unreadable_file(tmp_path: Path) -> None:
    code, output = run("import-fsf", str(tmp_path / "missing.ini"), "--out", str(tmp_path))
    assert code == 2 and "cannot read" in output
