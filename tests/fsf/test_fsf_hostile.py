"""Hostile input to `variantkit import-fsf`, `export-fsf` and the ini
importer as a library: every failure is a located problem or a clean
`error:` from the command, in bounded time, and nothing is written where
the user did not ask.

- digits other than 0-9 (`W²`, Arabic-Indic `٣`) are no numbers;
- Betza strings made to make a pattern backtrack are read in linear time;
- outputs are never written through a symbolic link nor onto the input;
- a file name or a description holding line breaks of any kind stays
  inside its comment (YAML's and the ini's);
- every bundled variant that exports imports back, into the same game
  (coregal's pseudo-royal queens checked against pyffish too);
- the whole import of one file has a budget, however many sections;
- a sweep of random and crafted texts through `import_ini` and the command.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pyffish
import pytest
import yaml

import variantkit
import variantkit.fsf
from variantkit.errors import Problem
from variantkit.fsf import IMPORT_UNITS, ExportRefused, IniError, export_ini, import_ini, keys
from variantkit.fsf.importer import ATOM
from variantkit.fsf.ini import MAX_BETZA_CHARS, MAX_SECTIONS, SECTION_UNITS
from variantkit.limits import Budget

# Not run again on the pure build (tests/conftest.py): what is tested here is
# the importer's and the commands' own code.
PURE_PASS = False
# Seconds a command may take before the test fails rather than hangs.
COMMAND_TIMEOUT = 60
# Line breaks of every kind `str.splitlines` splits at.
LINE_BREAKS = ("\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
               "\u2029")


def command(*words: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real `variantkit` command in a process of its own."""
    return subprocess.run([sys.executable, "-m", "variantkit", *words], capture_output=True,
                          text=True, timeout=COMMAND_TIMEOUT, cwd=cwd, check=False)


def problems_of(text: str, section: str = "a") -> list[str]:
    """The problems that keep `section` out, as `line: message`."""
    outcome = import_ini(text, "t.ini")[section]
    assert isinstance(outcome, list), f"[{section}] imported:\n{outcome}"
    return [f"{p.line}: {p.message}" for p in outcome]


# -- digits are 0 to 9 -------------------------------------------------------------

@pytest.mark.parametrize(("line", "expected"), [
    ("customPiece1 = a:W²", "2: customPiece1 = W²: betza 'W²': '²': a range is one of the "
                            "digits 0 to 9"),
    ("customPiece1 = a:N⁹", "2: customPiece1 = N⁹: betza 'N⁹': '⁹'"),
    ("customPiece1 = a:W٣", "2: customPiece1 = W٣: betza 'W٣': '٣'"),   # int() reads this one
    ("maxRank = \u0661\u0660", "2: maxRank = \u0661\u0660: not a number"),
    ("maxRank = " + "9" * 100, "2: maxRank = 999"),
    ("promotionRegionWhite = *٨", "2: promotionRegionWhite = *٨: '*٨' is not a square"),
    ("promotionLimit = q:²", "2: promotionLimit q:²: not a letter and a count"),
    ("promotionLimit = q:x", "2: promotionLimit q:x: not a letter and a count"),
    ("startFen = " + "9" * 5000 + "/8/8/8/8/8/8/8 w KQkq - 0 1",
     "2: startFen: 999999"),
])
def test_only_digits_0_to_9_are_numbers(line: str, expected: str) -> None:
    found = problems_of(f"[a:chess]\n{line}\n")
    assert len(found) == 1 and found[0].startswith(expected), found


def test_a_check_count_too_long_for_a_number() -> None:
    # (more digits than Python turns into an int by default)
    found = problems_of(f"[a]\nking = k\nstartFen = 4k3/8/8/8/8/8/8/4K3 w {'9' * 5000}+3 0 1\n"
                        "checkCounting = true\n")
    assert found[0].startswith("3: startFen: 9999") and "checks: not a number" in found[0]


def test_a_key_with_another_scripts_digit_is_unknown() -> None:
    # Fairy-Stockfish has no customPiece1٣: it ignores the key, and warns here.
    result = import_ini("[a:chess]\ncustomPiece1٣ = a:W\n", "t.ini")
    assert isinstance(result["a"], str) and "custom-piece" not in result["a"]
    assert [w.rule for w in result.warnings] == ["fsf-unknown-key"]


# -- Betza strings that would make a pattern backtrack --------------------------------

ADVERSARIAL_BETZA = [
    "W" * 20 + "f" * 9975, "f" * 9999 + "W", "fb" * 4999 + "N", "p" * 9999, "W" * 9999,
    "i" * 5000 + "m" * 4999, "fmWfceF" * 1400, "²" * 9999, "hl" * 4999 + "2",
]


@pytest.mark.parametrize("betza", ADVERSARIAL_BETZA, ids=lambda b: f"{b[:6]}x{len(b)}")
def test_adversarial_betza_is_refused_at_once(betza: str) -> None:
    text = "[a:chess]\n" + "".join(f"customPiece{i} = {chr(96 + i)}:{betza[:9970]}\n"
                                   for i in range(1, 21))
    started = time.process_time()
    found = problems_of(text)
    assert time.process_time() - started < 2
    assert found[0].startswith("2: customPiece1 = ") and \
        f"a Betza string of more than {MAX_BETZA_CHARS} characters" in found[0]


@pytest.mark.parametrize("betza", ADVERSARIAL_BETZA, ids=lambda b: f"{b[:6]}x{len(b)}")
def test_the_betza_pattern_reads_in_linear_time(betza: str) -> None:
    # Ten times the longest line: quadratic time would take minutes.
    started = time.process_time()
    ATOM.findall(betza * 10)
    assert time.process_time() - started < 1


def test_a_betza_string_as_long_as_the_limit_is_read() -> None:
    betza = "fmW" + "f" * (MAX_BETZA_CHARS - 4) + "W"      # ffff...W: a step forward
    text = import_ini(f"[a:chess]\ncustomPiece1 = a:{betza}\n", "t.ini")["a"]
    assert isinstance(text, str) and f"betza: {betza}" in text


# -- outputs: never through a link, never onto the input -------------------------------

INI = "[alpha:chess]\nmustCapture = true\n[beta:chess]\n"


@pytest.fixture
def ini_file(tmp_path: Path) -> Path:
    path = tmp_path / "alpha.ini"
    path.write_text(INI, encoding="utf-8")
    return path


@pytest.mark.parametrize("force", [False, True])
def test_import_never_writes_through_a_dangling_link(tmp_path: Path, ini_file: Path,
                                                     force: bool) -> None:
    out, outside = tmp_path / "OUT", tmp_path / "outside" / "planted.yaml"
    out.mkdir()
    outside.parent.mkdir()
    (out / "alpha.yaml").symlink_to(outside)
    result = command("import-fsf", str(ini_file), "--out", str(out), *(["--force"] * force))
    assert result.returncode == 0, result.stderr
    assert not outside.exists()
    assert "alpha.yaml: a symbolic link: outputs are never written through one ([alpha] " \
           "not written)" in result.stderr
    assert (out / "beta.yaml").is_file() and "imported 1 of 2" in result.stdout


def test_import_never_writes_onto_the_file_it_reads(tmp_path: Path, ini_file: Path) -> None:
    (tmp_path / "alpha.yaml").symlink_to(ini_file)
    result = command("import-fsf", str(ini_file), "--out", str(tmp_path), "--force")
    assert "a symbolic link" in result.stderr
    (tmp_path / "alpha.yaml").unlink()
    os.link(ini_file, tmp_path / "alpha.yaml")      # the same file under the output's name
    result = command("import-fsf", str(ini_file), "--out", str(tmp_path), "--force")
    assert "alpha.yaml: the file being read ([alpha] not written)" in result.stderr
    assert ini_file.read_text(encoding="utf-8") == INI


def test_import_writes_no_fifo(tmp_path: Path, ini_file: Path) -> None:
    out = tmp_path / "OUT"
    out.mkdir()
    os.mkfifo(out / "alpha.yaml")
    result = command("import-fsf", str(ini_file), "--out", str(out), "--force")
    assert "alpha.yaml: not a regular file ([alpha] not written)" in result.stderr


@pytest.mark.parametrize("force", [False, True])
def test_export_never_writes_through_a_link(tmp_path: Path, force: bool) -> None:
    outside = tmp_path / "outside.ini"
    (tmp_path / "out.ini").symlink_to(outside)
    result = command("export-fsf", "chess", "-o", str(tmp_path / "out.ini"),
                     *(["--force"] * force))
    assert result.returncode == 1 and not outside.exists()
    assert "Traceback" not in result.stderr
    assert "\nerror: cannot write " in "\n" + result.stderr
    assert "a symbolic link: outputs are never written through one" in result.stderr


def test_export_writes_a_new_file_and_replaces_only_with_force(tmp_path: Path) -> None:
    target = tmp_path / "chess.ini"
    assert command("export-fsf", "chess", "-o", str(target)).returncode == 0
    assert "[chess]" in target.read_text(encoding="utf-8")
    again = command("export-fsf", "chess", "-o", str(target))
    assert again.returncode == 1 and "exists already" in again.stderr
    assert command("export-fsf", "chess", "-o", str(target), "--force").returncode == 0


# -- text from outside stays inside its comment ---------------------------------------

@pytest.mark.parametrize("brk", LINE_BREAKS, ids=repr)
def test_a_file_name_with_line_breaks_stays_in_the_comment(brk: str) -> None:
    source = f"x{brk}must-capture: true{brk}#.ini"
    text = import_ini("[alpha:chess]\n", source)["alpha"]
    assert isinstance(text, str)
    assert "must-capture" not in yaml.safe_load(text)
    assert text.splitlines()[0].startswith("# Imported from x")
    assert all(line.isprintable() for line in text.splitlines())


def test_the_command_keeps_a_file_name_in_the_comment(tmp_path: Path) -> None:
    ini = tmp_path / "x\nmust-capture: true\n#.ini"
    ini.write_text("[alpha:chess]\n", encoding="utf-8")
    result = command("import-fsf", str(ini), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "out" / "alpha.yaml").read_text(encoding="utf-8")
    assert "must-capture" not in yaml.safe_load(written)
    assert command("validate", str(tmp_path / "out" / "alpha.yaml")).returncode == 0


def described(tmp_path: Path, description: str) -> Path:
    """A copy of chess with `description`, written as YAML writes it."""
    path = tmp_path / "described.yaml"
    path.write_text(yaml.safe_dump({"variantkit": 1, "name": "described", "inherits": "chess",
                                    "description": description}), encoding="utf-8")
    return path


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=repr)
def test_a_description_with_line_breaks_stays_in_the_exported_comment(
        tmp_path: Path, brk: str) -> None:
    path = described(tmp_path, f"harmless{brk}[inj]{brk}mustCapture = true{brk}")
    result = command("export-fsf", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("[")] == ["[described]"]
    assert all(line.startswith("#") or " = " in line for line in lines if line != "[described]")
    assert lines[0] == "# described: harmless [inj] mustCapture = true"
    back = import_ini(result.stdout, "described.ini")
    assert list(back) == ["described"] and not back.errors and not back.warnings
    assert "must-capture" not in str(back["described"])


# -- one budget for the whole file ----------------------------------------------------

def chess_sections(count: int) -> str:
    """`count` small sections of two lines each, `[s0:chess]` first."""
    return "".join(f"[s{i}:chess]\nmustCapture = true\n" for i in range(count))


def imported_names(result: dict[str, object]) -> list[str]:
    return [name for name, outcome in result.items() if isinstance(outcome, str)]


def test_the_budget_bounds_the_whole_file_and_says_where_it_ran_out() -> None:
    result = import_ini(chess_sections(20), "t.ini", budget=Budget(100_000))
    done = imported_names(result)
    assert 0 < len(done) < 20 and done == [f"s{i}" for i in range(len(done))]
    stop = f"s{len(done)}"
    [summary] = [p for p in result.errors if p.rule == "fsf-budget"]
    assert summary.message == (f"the import's budget (100,000 units of work) ran out at [{stop}]: "
                               f"{len(done)} sections imported before it, it and the "
                               f"{19 - len(done)} after it not imported")
    assert summary.line == 2 * len(done) + 1
    for name in list(result)[len(done):]:
        problems = result[name]
        assert isinstance(problems, list) and [p.rule for p in problems] == ["fsf-budget"]
        assert f"ran out at [{stop}] (line {summary.line})" in problems[0].message \
            or problems[0].message == "not imported: the import's budget ran out here"


def test_a_deadline_bounds_the_import_too() -> None:
    result = import_ini(chess_sections(3), "t.ini", budget=Budget(10**9, seconds=0))
    assert not imported_names(result)
    assert [p.message for p in result.errors] == [
        "the import's budget (0 s) ran out at [s0]: 0 sections imported before it, it and the "
        "2 after it not imported"]


def big_section(name: str) -> str:
    """A 26x39 board with three riders: half a million units to compile."""
    return (f"[{name}]\nmaxFile = z\nmaxRank = 39\nstartFen = {'/'.join(['26'] * 39)} w - - 0 1\n"
            "customPiece1 = a:QQ\ncustomPiece2 = b:NN\ncustomPiece3 = c:RB\n")


def test_the_budget_stops_a_compile_midway() -> None:
    started = time.process_time()
    result = import_ini(big_section("big") + big_section("bigger"), "t.ini",
                        budget=Budget(100_000))
    assert time.process_time() - started < 10    # the whole compile takes seconds more
    assert result["big"] == [Problem("not imported: the import's budget ran out here",
                                     "fsf-budget", "t.ini", 1)]
    assert "ran out at [big] (line 1)" in str(result["bigger"])


def test_the_default_budget_is_the_documented_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    assert variantkit.fsf.IMPORT_UNITS == IMPORT_UNITS >= 4 * SECTION_UNITS
    monkeypatch.setattr(variantkit.fsf, "IMPORT_UNITS", 3 * SECTION_UNITS)
    result = import_ini(chess_sections(10), "t.ini")
    assert 0 < len(imported_names(result)) < 3
    assert f"({3 * SECTION_UNITS:,} units of work)" in result.errors[-1].message


def test_ten_thousand_one_line_sections_end_in_bounded_time() -> None:
    text = "".join(f"[s{i}:chess]\n" for i in range(10_000))
    started = time.process_time()
    result = import_ini(text, "t.ini", budget=Budget(20 * SECTION_UNITS))
    assert time.process_time() - started < 20
    assert len(result) == MAX_SECTIONS and 0 < len(imported_names(result)) < 20
    assert [p.rule for p in result.errors] == ["ini-too-large", "fsf-budget"]


def test_the_command_reports_the_budget(tmp_path: Path) -> None:
    """The real command, its budget made small as a caller may make it."""
    ini = tmp_path / "many.ini"
    ini.write_text(chess_sections(8), encoding="utf-8")
    script = ("import sys, variantkit.fsf as fsf\nfsf.IMPORT_UNITS = int(sys.argv[1])\n"
              "from variantkit.cli import cli\ncli(sys.argv[2:])\n")
    for units, status in ((4 * SECTION_UNITS, 0), (SECTION_UNITS // 2, 1)):
        done = subprocess.run([sys.executable, "-c", script, str(units), "import-fsf", str(ini),
                               "--out", str(tmp_path / f"out{units}")], capture_output=True,
                              text=True, timeout=COMMAND_TIMEOUT, check=False)
        assert done.returncode == status, done.stderr
        assert "many.ini:" in done.stderr and "the import's budget" in done.stderr
        assert "Traceback" not in done.stderr
    assert done.stderr.rstrip().endswith("error: no section could be imported")


# -- every export imports back ---------------------------------------------------------

VARIANTS_DIR = Path(__file__).parent.parent.parent / "variants"
BUNDLED = sorted(path.stem for path in VARIANTS_DIR.glob("*.yaml"))
# First moves beyond which a tree is compared to one ply.
WIDE_START = 200


def same_tree(first: variantkit.Game, second: variantkit.Game, depth: int, path: str) -> int:
    """Walk both games' trees side by side, comparing the legal moves at
    every node; the number of leaves."""
    moves = sorted(str(m) for m in first.legal_moves())
    assert moves == sorted(str(m) for m in second.legal_moves()), f"moves differ after {path}"
    if depth == 1:
        return len(moves)
    leaves = 0
    for move in moves:
        first.push(move)
        second.push(move)
        leaves += same_tree(first, second, depth - 1, f"{path} {move}")
        first.pop()
        second.pop()
    return leaves


@pytest.mark.parametrize("name", BUNDLED)
def test_every_export_imports_back_into_the_same_game(name: str) -> None:
    variant = variantkit.load(name)
    try:
        text = export_ini(variant, "back")
    except ExportRefused as refused:
        assert refused.reasons and all(reason.strip() for reason in refused.reasons)
        return
    result = import_ini(text, f"{name}.ini")
    assert not result.errors and not result.warnings, result.errors + result.warnings
    back = result["back"]
    assert isinstance(back, str), f"{name}: the export does not import back: {back}"
    again = variantkit.load_text(back, "back.yaml")
    # (a game with a wall after each move has thousands of first moves:
    # the first ply alone, compared whole)
    depth = 2 if len(variant.new_game().legal_moves()) <= WIDE_START else 1
    assert same_tree(variant.new_game(), again.new_game(), depth, "the start") > 0


# Positions where a side holds two queens, or promotes to a second one,
# with a queen attacked: coregal keeps every queen out of check.
COREGAL_POSITIONS = ("r3k3/1P6/8/8/8/8/8/Q3K3 w - - 0 1", "r3k3/1P6/8/8/8/8/8/QQ2K3 w - - 0 1",
                     "4k3/8/8/8/8/8/8/r2QK2Q w - - 0 1", "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")


@pytest.mark.parametrize("fen", COREGAL_POSITIONS)
def test_coregal_exported_keeps_a_second_queen_royal(fen: str) -> None:
    """The export once wrote extinctionPieceCount = 0, under which
    Fairy-Stockfish guards a queen only while a side has one."""
    text = export_ini("coregal", "vk-exported-coregal")
    pyffish.load_variant_config(text)
    back = import_ini(text, "coregal.ini")["vk-exported-coregal"]
    assert isinstance(back, str)
    bundled = {str(m) for m in variantkit.load("coregal").new_game(fen).legal_moves()}
    assert bundled == set(pyffish.legal_moves("vk-exported-coregal", fen, []))
    assert bundled == {str(m) for m in variantkit.load_text(back, "c.yaml").new_game(fen)
                       .legal_moves()}


def test_a_royal_promotion_beside_explosions_is_refused(tmp_path: Path) -> None:
    """There Fairy-Stockfish's count of pseudo-royal pieces is also the
    extinction's: no count keeps a second royal queen guarded."""
    path = tmp_path / "royal-blast.yaml"
    path.write_text("variantkit: 1\nname: royal-blast\ninherits: atomic\ndescription: x\n"
                    "pieces:\n  queen: {royal: true}\n"
                    "end:\n  conditions:\n    - {extinct: [king, queen], result: loss}\n",
                    encoding="utf-8")
    with pytest.raises(ExportRefused) as refused:
        export_ini(str(path))
    assert refused.value.reasons == ["royals: a promotion to a royal piece beside explosions"]


# -- a sweep of hostile texts -------------------------------------------------------------

# Work one text of the sweep may spend (a few sections), and the CPU seconds
# it may take: generous bounds of the "does not hang" kind.
SWEEP_BUDGET = 200_000
SWEEP_SECONDS = 15
HUGE = str(10**100)
HOSTILE_VALUES = ["", "-", "*", "true", "0", "1", "8", "99", "9999", "10000", HUGE, "-1", "²",
                  "\u0663", "\u0661\u0660", "x\u2028y", "x\x85y", "\x07", "a1", "*8", "a*",
                  "*\u0668", "q:2", "q:x", f"q:{HUGE}", "qrbn", "k", "none", "win",
                  "unweighted", "whitedrawodds", "reversi", "top", "duck", "a:QQ", "b:W²",
                  "c:fmWfceF", "d:mRcpR", "e:nN", "f:" + "f" * 300, "=", "[", "]", ":", "é",
                  "K", "KQkq", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                  "r3k2r/8/8/8/8/8/8/R3K2R[Pp] w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w 3+3 0 1",
                  "4k3/8/8/8/8/8/8/4K3 w - - x+3 0 1", f"{HUGE}/8 w - - 0 1"]
PARENTS = [":chess", ":chess", ":crazyhouse", "", ":shogi", ":xiangqi", ":flipello", ":ataxx",
           ":atomic", ":makruk", ":3check", ":placement", ":giveaway", ":nope", ":s0", ":s1"]
ALL_KEYS = sorted(keys.SUPPORTED | keys.UNSUPPORTED | set(keys.PIECE_TYPES)
                  | {"king", "customPiece1", "customPiece25", "mobilityRegionWhiteKnight"})


def random_text(rng: random.Random) -> str:
    """One to four sections of random keys and hostile values."""
    lines = []
    for index in range(rng.randint(1, 4)):
        lines.append(f"[s{index}{rng.choice(PARENTS)}]")
        lines += [f"{rng.choice(ALL_KEYS)} = {rng.choice(HOSTILE_VALUES)}"
                  for _ in range(rng.randint(0, 10))]
    return "\n".join(lines) + "\n"


def crafted_texts() -> dict[str, str | bytes]:
    """Texts made to find a limit or a crash, by what they try."""
    chain = "[s0:chess]\n" + "".join(f"[s{i}:s{i - 1}]\n" for i in range(1, 41))
    numbers = "".join(f"{key} = {HUGE}\n" for key in (
        "maxRank", "maxFile", "nMoveRule", "nFoldRule", "extinctionPieceCount", "connectN",
        "castlingRank", "flagPieceCount", "soldierPromotionRank", "dropNoDoubledCount"))
    digits = ("maxRank = \u0668\nmaxFile = \u0668\nnMoveRule = \u0665\u0660\n"
              "castlingRank = \u0661\npromotionRegionWhite = *\u0668\n"
              "customPiece1 = a:N⁹\ndropNoDoubledCount = ²\n")
    return {
        "huge board with riders": big_section("a") + big_section("b"),
        "too many cells": "[a]\nmaxFile = z\nmaxRank = 99\nking = k\n",
        "600 sections": chess_sections(600),
        "an inheritance chain of 41": chain,
        "a cycle": "[a:b]\nmustCapture = true\n[b:a]\n[c:c]\n",
        "a long start position": "[a:chess]\nstartFen = " + "p" * 9980 + "\n",
        "a long Betza": "[a:chess]\ncustomPiece1 = a:" + "Q" * 9970 + "\n",
        "a long piece list": "[a:chess]\npromotionPieceTypes = " + "q" * 9970 + "\n",
        "a long key": "[a:chess]\n" + "x" * 9990 + " = 1\n",
        "a line too long": "[a:chess]\nstartFen = " + "p" * 20_000 + "\n",
        "UTF-16": "[a:chess]\nmustCapture = true\n".encode("utf-16"),
        "a UTF-8 byte order mark": "\ufeff[a:chess]\nmustCapture = true\n".encode(),
        "Latin-1": "[a:chess]\n# é\n".encode("latin-1"),
        "CR line ends": "[a:chess]\rmustCapture = true\r",
        "U+2028 line ends": "[a:chess]\u2028mustCapture = true\u2028",
        "a NUL byte": b"[a:chess]\x00\nmustCapture = true\n",
        "invalid UTF-8": b"[a:chess]\nmustCapture = \xff\xfe\n",
        "other scripts' digits": "[a:chess]\n" + digits,
        "absurd numbers": "[a:chess]\n" + numbers,
        "absurd counts in the start": f"[a]\nking = k\ncheckCounting = true\nstartFen = 4k3/"
                                      f"{HUGE}/8/8/8/8/8/4K3 w KQkq - {HUGE}+{HUGE} {HUGE} 1\n",
        "duplicate keys and sections": "[a:chess]\nmustCapture = true\nmustCapture = false\n"
                                       "[a:shogi]\nmustCapture = true\n",
        "600 keys in a section": "[a:chess]\n" + "".join(f"k{i} = 1\n" for i in range(600)),
        "empty castling files": "[a:chess]\ncastlingKingsideFile =\ncastlingQueensideFile =\n"
                                "startFen = r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n",
        "headers only": "[]\n[:]\n[a:]\n[:a]\n[a b]\n[" + "a" * 100 + "]\n",
        "text before any section": "mustCapture = true\n" * 1000,
        "an empty text": "",
    }


def assert_clean_import(text: str | bytes) -> None:
    """The text imports, or is refused with the project's own problems,
    within SWEEP_SECONDS; what imports is YAML on lines of their own."""
    started = time.process_time()
    try:
        result = import_ini(text, "sweep.ini", budget=Budget(SWEEP_BUDGET))
    except IniError as error:
        assert error.problem.message and error.problem.rule.startswith("ini-")
        return
    finally:
        assert time.process_time() - started < SWEEP_SECONDS
    for name, outcome in result.items():
        if isinstance(outcome, str):
            assert all(line.isprintable() for line in outcome.split("\n")), name
            assert yaml.safe_load(outcome)["name"] == name
        else:
            assert outcome and all(isinstance(p, Problem) and p.message for p in outcome), name
    assert all(isinstance(p, Problem) for p in result.errors + result.warnings)


@pytest.mark.parametrize("seed", range(10))
def test_random_texts_fail_cleanly(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(15):
        assert_clean_import(random_text(rng))


@pytest.mark.parametrize("key", ALL_KEYS)
def test_every_key_with_hostile_values_fails_cleanly(key: str) -> None:
    # Two values a key, taken in turn: every value meets several keys.
    turn = 2 * ALL_KEYS.index(key)
    values = [HOSTILE_VALUES[(turn + i) % len(HOSTILE_VALUES)] for i in range(2)]
    assert_clean_import("".join(f"[s{i}:chess]\n{key} = {value}\n"
                                for i, value in enumerate(values)))


CRAFTED = crafted_texts()


@pytest.mark.parametrize("what", CRAFTED)
def test_crafted_texts_fail_cleanly(what: str) -> None:
    assert_clean_import(CRAFTED[what])


@pytest.mark.parametrize("what", ["a cycle", "a long Betza", "a NUL byte", "invalid UTF-8",
                                  "other scripts' digits", "absurd counts in the start",
                                  "empty castling files", "UTF-16", "an empty text"])
def test_the_command_fails_cleanly(tmp_path: Path, what: str) -> None:
    text = CRAFTED[what]
    ini = tmp_path / "hostile.ini"
    ini.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = command("import-fsf", str(ini), "--out", str(tmp_path / "out"))
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    for line in result.stderr.splitlines():
        assert line.startswith(("hostile.ini", "error: ", str(tmp_path))) or \
            "RuntimeWarning" in line or line.startswith("  "), line
