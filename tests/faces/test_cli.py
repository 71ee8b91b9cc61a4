"""Tests of the command line (`variantkit ...`) and of the position drawing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import variantkit
from variantkit.cli import cli
from variantkit.drawing.terminal import board_text
from variantkit.loader import bundled_dir

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BROKEN_YAML = "variantkit: 1\nname: x\nboard:\n  grid: {files: 8, ranks: 8\nsetup: 8\n"


def run(*args: str) -> Result:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click 8.1
    except TypeError:
        runner = CliRunner()  # click >= 8.2 keeps stdout and stderr apart itself
    return runner.invoke(cli, list(args))


def lines(result: Result) -> list[str]:
    return result.output.strip().splitlines()


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def assert_user_error(result: Result, code: int = 1) -> None:
    assert result.exit_code == code, result.output
    assert "error: " in result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- list and validate -----------------------------------------------------------


def test_list_shows_bundled_variants_with_descriptions() -> None:
    result = run("list")
    assert result.exit_code == 0
    assert {"chess", "trice"} <= {line.split()[0] for line in lines(result) if line}
    assert variantkit.load("trice").description in result.output


def test_list_groups_by_board_and_filters() -> None:
    result = run("list")
    headings = [line for line in lines(result) if line and line[0].isalnum()]
    assert headings[0].startswith("8x8 (") and "8x8x3 (1)" in headings

    def names(*args: str) -> list[str]:
        return [line.split()[0] for line in lines(run("list", *args)) if line.startswith("  ")]
    assert "capablanca" in names("--board", "10x8") and "chess" not in names("--board", "10x8")
    assert names("CIRCULAR") == ["diplomat"]
    assert run("list", "no such words").exit_code == 1


def test_validate_ok(tmp_path: Path) -> None:
    copy = write(tmp_path, "mine.yaml", (bundled_dir() / "chess.yaml").read_text("utf-8"))
    result = run("validate", copy, "trice")
    assert result.exit_code == 0, result.output
    assert lines(result) == [f"{copy}: ok", "trice: ok"]


def test_validate_broken_yaml_points_at_the_column(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.yaml", BROKEN_YAML)
    result = run("validate", path)
    assert result.exit_code == 1
    out = lines(result)
    assert out[0].startswith(f"{path}:5:6: [error] invalid YAML")
    assert out[0].endswith("(yaml-syntax)")
    assert out[1] == "    setup: 8"
    assert out[2] == "         ^"  # under column 6 of the source line


def test_validate_unknown_key(tmp_path: Path) -> None:
    path = write(tmp_path, "extra.yaml", "variantkit: 1\nname: x\ninherits: chess\ncolour: red\n")
    result = run("validate", path)
    assert result.exit_code == 1
    assert f"{path}:4:1: [error] unknown key 'colour'" in result.output
    assert "(unknown-key)" in result.output
    assert lines(result)[1:] == ["    colour: red", "    ^"]


def test_validate_json(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.yaml", BROKEN_YAML)
    result = run("validate", "--format", "json", "chess", broken)
    assert result.exit_code == 1
    records = json.loads(result.output)
    assert records == [{"file": broken, "line": 5, "column": 6, "severity": "error",
                        "rule": "yaml-syntax", "message": records[0]["message"]}]
    assert records[0]["message"].startswith("invalid YAML")
    ok = run("validate", "--format", "json", "chess")
    assert ok.exit_code == 0 and json.loads(ok.output) == []


def test_validate_missing_file_exits_2(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.yaml")
    broken = write(tmp_path, "broken.yaml", BROKEN_YAML)
    result = run("validate", broken, missing)
    assert result.exit_code == 2
    assert f"{missing}: [error] no such file" in result.output
    assert "Traceback" not in result.output
    as_json = run("validate", "--format", "json", missing)
    assert as_json.exit_code == 2
    assert json.loads(as_json.output)[0]["rule"] == "file-not-found"


# --- perft and moves ---------------------------------------------------------------


def test_perft() -> None:
    result = run("perft", "chess", "2")
    assert result.exit_code == 0
    assert lines(result)[-1] == "Nodes searched: 400"


def test_perft_divide() -> None:
    out = lines(run("perft", "chess", "2", "--divide"))
    assert len(out) == 21
    assert out[-1] == "Nodes searched: 400"
    moves = [line.split(":")[0] for line in out[:-1]]
    assert moves == sorted(moves)
    assert all(line.endswith(": 20") for line in out[:-1])


def test_perft_from_fen_and_moves() -> None:
    # Kiwipete, a standard perft position: 48 moves, 2039 at depth 2.
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert lines(run("perft", "chess", "2", "--fen", kiwipete))[-1] == "Nodes searched: 2039"
    # Both spellings of --moves reach the same position.
    one = run("perft", "chess", "1", "--moves", "e2e4 e7e5", "--divide")
    two = run("perft", "chess", "1", "--moves", "e2e4", "--moves", "e7e5", "--divide")
    assert one.output == two.output
    assert lines(one)[-1] == "Nodes searched: 29"
    after = run("perft", "chess", "1", "--fen", START, "--moves", "g1f3")
    assert lines(after)[-1] == "Nodes searched: 20"


@pytest.mark.parametrize("depth", ["0", "-1", "two"])
def test_perft_bad_depth(depth: str) -> None:
    assert_user_error(run("perft", "chess", depth))


def test_moves() -> None:
    count = run("moves", "chess", "--count")
    assert count.exit_code == 0 and count.output == "20\n"
    listed = run("moves", "chess").output
    assert listed.count("\n") == 1
    assert listed.split() == sorted(listed.split()) and len(listed.split()) == 20
    assert "e2e4" in listed.split()
    assert run("moves", "trice", "--count").output == "28\n"


def test_illegal_move() -> None:
    result = run("moves", "chess", "--moves", "e2e4 e2e4")
    assert_user_error(result)
    assert "illegal move 'e2e4'" in result.stderr
    assert_user_error(run("show", "chess", "--moves", "zz9"))


def test_bad_fen() -> None:
    result = run("moves", "chess", "--fen", "rnbqkbnr/8 w")
    assert_user_error(result)
    assert result.stdout == ""


def test_unknown_variant_and_missing_file(tmp_path: Path) -> None:
    result = run("perft", "nosuchvariant", "1")
    assert_user_error(result, code=2)
    assert "no bundled variant named 'nosuchvariant'" in result.stderr
    assert_user_error(run("show", str(tmp_path / "missing.yaml")), code=2)


def test_invalid_variant_file_prints_its_problems(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.yaml", BROKEN_YAML)
    result = run("moves", path)
    assert result.exit_code == 1
    assert f"{path}:5:6: [error]" in result.stderr
    assert "Traceback" not in result.output


# --- show and the drawing --------------------------------------------------------------


def test_show_chess() -> None:
    result = run("show", "chess")
    assert result.exit_code == 0
    out = lines(result)
    assert out[0] == "8 r n b q k b n r"
    assert out[7] == "1 R N B Q K B N R"
    assert out[8] == "  a b c d e f g h"
    assert "White to move" in result.output
    assert f"FEN: {START}" in result.output
    assert "\x1b[" not in result.output  # no styling when not on a terminal


def test_show_check_after_moves() -> None:
    result = run("show", "chess", "--moves", "f2f3 e7e5 g2g4 d8h4")
    assert result.exit_code == 0
    assert "White to move, check" in result.output
    assert "checkmate" in result.output


def test_show_trice_has_ten_files() -> None:
    result = run("show", "trice")
    assert result.exit_code == 0
    assert "  a b c d e f g h i j" in lines(result)
    assert "1 R N B Q C K A B N R" in lines(result)


def test_board_text_planes_side_by_side(tmp_path: Path) -> None:
    path = write(tmp_path, "planes.yaml", (
        "variantkit: 1\nname: planes\ninherits: chess\n"
        "board:\n  grid: {files: 8, ranks: 8, planes: 2}\ncastling: []\n"
        "setup: 8/8/8/8/8/8/8/8|" + START.replace("KQkq", "-") + "\n"))
    text = board_text(variantkit.load(path).new_game())
    out = text.splitlines()
    assert out[0].split() == ["plane", "A", "plane", "B"]
    assert out[1].split() == ["8"] + ["."] * 8 + ["8"] + list("rnbqkbnr")
    assert out[9].split() == list("abcdefgh") * 2
    assert "\x1b[" in board_text(variantkit.load(path).new_game(), color=True)


def test_board_text_rows_of_different_lengths() -> None:
    # A board whose last row is one cell, as a circular board's centre: drawn centred.
    variant = variantkit.load("chess")
    game = variant.new_game()
    board = variant.board
    rows = board.layout[0]
    board.layout = [rows + [[rows[-1][4]]]]
    title, row_labels, col_labels = board.labels[0]
    board.labels = [(title, row_labels + ["ctr"], col_labels)]
    out = board_text(game).splitlines()
    assert out[0] == "  8 r n b q k b n r"
    assert out[8] == "ctr" + " " * 8 + "K"
    assert out[9] == "    a b c d e f g h"


def test_python_dash_m() -> None:
    result = subprocess.run([sys.executable, "-m", "variantkit", "list"],
                            capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "chess" in result.stdout and "trice" in result.stdout


def test_list_shows_the_examples_of_a_checkout() -> None:
    result = run("list")
    examples = sorted((Path(__file__).parent.parent.parent / "examples").glob("*.yaml"))
    for path in examples:
        assert variantkit.load(path).description in result.output
    assert f"examples/{examples[0].name}" in result.output or str(examples[0]) in result.output
    assert "Examples load by path: variantkit show " in result.output


def test_ctrl_c_in_any_command_ends_with_status_130() -> None:
    """Ctrl-C while a command works that does not handle it itself (here a
    long perft) ends as the commands that do: one line, status 130, not
    click's `Aborted!` with status 1."""
    import signal
    import time

    import psutil
    # Python raises KeyboardInterrupt only where SIGINT is not ignored when it
    # starts, and a suite run in the background (`make test &`) ignores it.
    process = subprocess.Popen(
        [sys.executable, "-m", "variantkit", "perft", "chess", "7", "--divide"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # A second of CPU: past the imports (a quarter of that), counting.
        deadline = time.monotonic() + 60
        while psutil.Process(process.pid).cpu_times().user < 1.0:
            assert time.monotonic() < deadline, "the command never started counting"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "stopped (Ctrl-C)" in err
    assert "Aborted" not in err and "Traceback" not in err


def test_ctrl_c_while_the_program_is_still_being_imported() -> None:
    """Ctrl-C before any command runs, while the program's modules are
    still being imported, ends the same way (it used to print the
    traceback of the half-done import).  The interrupt is raised from an
    import hook at a fixed point of the import, so no timing is involved."""
    script = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'variantkit.game':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from variantkit.cli import main\n"
        "sys.argv = ['variantkit', 'list']\n"
        "main()\n")
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             timeout=60)
    assert process.returncode == 130, process.stderr
    assert process.stderr == "error: stopped (Ctrl-C)\n"


def test_importing_the_package_imports_no_generator() -> None:
    """`import variantkit` (what the program does first) is cheap: the
    library's names load when first used, so the program's Ctrl-C guard is
    in place after a few milliseconds, not after the whole library."""
    script = ("import sys, variantkit, variantkit.cli\n"
              "print(sorted(m for m in sys.modules if m.startswith('variantkit')))\n"
              "print(variantkit.render.__module__, variantkit.perft.__module__)\n")
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             timeout=60)
    loaded, homes = process.stdout.splitlines()
    assert loaded == "['variantkit', 'variantkit.cli', 'variantkit.compiled']", process.stderr
    assert homes == "variantkit.drawing.svg variantkit.game"
