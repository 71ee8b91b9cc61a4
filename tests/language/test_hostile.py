"""Hostile and careless input: every reader is bounded, contained, and ends in
a clear error (a located `Problem` with a rule id, `InvalidFenError`,
`IllegalMoveError`, `PgnError`, or a one-line command-line message).

One test (or property) per class of input, so that a new way in through the
same door fails here too.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variantkit
from variantkit import IllegalMoveError, InvalidFenError, Move, PgnError, VariantError, limits
from variantkit.board import GridTopology, PolarTopology
from variantkit.cli import cli
from variantkit.loader import load_document, load_document_text

SETTINGS = settings(deadline=None, max_examples=40,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
SECRET = "TOP-SECRET-CONTENT"
MINI = """\
variantkit: 1
name: mini
board:
  grid: {files: 4, ranks: 4}
pieces:
  king:
    letter: K
    royal: true
    moves:
      - step: all
  rook:
    letter: R
    moves:
      - ride: orthogonal
setup: 3k/4/4/KR2 w - - 0 1
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(target: str | Path) -> list[variantkit.Problem]:
    with pytest.raises(VariantError) as caught:
        variantkit.load(target)
    return caught.value.problems


def only(target: str | Path) -> variantkit.Problem:
    found = problems(target)
    assert len(found) == 1, found
    return found[0]


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result


# --- inherits: containment ---------------------------------------------------------------


@pytest.fixture
def secret_outside(tmp_path: Path) -> Path:
    """A folder `inner` for the user's file, beside a file they did not name."""
    write(tmp_path, "secret.yaml", f"{SECRET}: 1\n")
    (tmp_path / "inner").mkdir()
    return tmp_path / "inner"


@pytest.mark.parametrize("parent", ["/proc/self/environ", "/etc/passwd", "../secret.yaml",
                                    "sub/../../secret.yaml"])
def test_inherits_cannot_leave_the_files_folder(secret_outside: Path, parent: str) -> None:
    child = write(secret_outside, "v.yaml", f"variantkit: 1\nname: x\ninherits: {parent}\n")
    problem = only(child)
    assert (problem.rule, problem.file, problem.line) == ("inherit-outside", str(child), 3)
    assert SECRET not in str(problem) and "root:" not in str(problem)


def test_inherits_cannot_follow_a_link_out(secret_outside: Path) -> None:
    os.symlink(secret_outside.parent / "secret.yaml", secret_outside / "link.yaml")
    child = write(secret_outside, "v.yaml", "variantkit: 1\nname: x\ninherits: link.yaml\n")
    assert only(child).rule == "inherit-outside"


def test_inherits_a_file_below_its_folder(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    write(tmp_path / "lib", "base.yaml", MINI)
    child = write(tmp_path, "v.yaml", "variantkit: 1\nname: child\ninherits: lib/base.yaml\n")
    assert variantkit.load(child).board.size == 16


@SETTINGS
@given(parent=st.one_of(
    st.text(min_size=1, max_size=40),
    st.sampled_from(["..", "../", "../secret.yaml", "./../secret.yaml", "/", "//etc/passwd",
                     "~/secret.yaml", "inner/../../secret.yaml", "%2e%2e/secret.yaml"])))
def test_no_inherits_value_shows_a_file_the_user_did_not_name(
        secret_outside: Path, parent: str) -> None:
    child = secret_outside / "v.yaml"
    child.write_text(f"variantkit: 1\nname: x\ninherits: {parent!r}\n".replace("\\", "\\\\"),
                     encoding="utf-8")
    try:
        load_document(child)
    except VariantError as exc:
        shown = str(exc) + "".join(p.source or "" for p in exc.problems)
        assert SECRET not in shown
        assert all(p.file in (str(child), None) for p in exc.problems), exc.problems


def test_text_inherits_only_bundled_variants(tmp_path: Path) -> None:
    child = "variantkit: 1\nname: child\ninherits: chess\n"
    assert variantkit.load_text(child, "pasted").name == "child"
    write(tmp_path, "base.yaml", MINI)
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(child.replace("chess", "base.yaml"), "pasted")
    assert [(p.rule, p.file, p.line) for p in caught.value.problems] == \
        [("inherit-not-found", "pasted", 3)]
    # With a folder, as a file stored there.
    text = child.replace("chess", "base.yaml")
    assert load_document_text(text, "pasted", tmp_path).data["board"]["grid"]["files"] == 4


def test_a_problem_quotes_only_lines_the_loader_read(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", MINI.replace("ride: orthogonal", "ride: orthogonl"))
    result = run("validate", str(path))
    path.write_text(f"{SECRET}\n" * 20, encoding="utf-8")  # changed after reading
    assert "ride: orthogonl" in result.output
    problem = only(write(tmp_path, "w.yaml", MINI.replace("ride: orthogonal", "ride: x")))
    assert problem.source == "      - ride: x"


# --- reading files ---------------------------------------------------------------------------


def in_a_process(*words: str) -> subprocess.CompletedProcess[str]:
    """A `variantkit` command in its own process: a reader that blocked or
    filled memory would hit the timeout instead of hanging the test run."""
    return subprocess.run([sys.executable, "-m", "variantkit", *words],
                          capture_output=True, text=True, timeout=60)


def test_special_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    child = write(tmp_path, "child.yaml", "variantkit: 1\nname: x\ninherits: fifo.yaml\n")
    result = in_a_process("validate", "/dev/zero", str(fifo), str(child))
    assert "cannot read /dev/zero: not a regular file (file-unreadable)" in result.stdout
    assert f"cannot read {fifo}: not a regular file (file-unreadable)" in result.stdout
    assert "inherits: 'fifo.yaml' is not a regular file (inherit-not-found)" in result.stdout
    assert result.returncode == 2


def test_import_fsf_refuses_special_files_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.ini"
    os.mkfifo(fifo)
    for path, reason in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                         (tmp_path, "Is a directory")):
        result = in_a_process("import-fsf", str(path), "--out", str(tmp_path / "out"))
        assert result.returncode == 2, result.stderr
        assert result.stderr.endswith(f"': {reason}\n"), result.stderr


def test_a_file_over_the_size_limit(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", MINI + "#" * limits.MAX_FILE_BYTES)
    assert only(path).rule == "too-large"
    with pytest.raises(VariantError, match="too-large"):
        variantkit.load_text(MINI + " " * limits.MAX_FILE_BYTES)


def test_non_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_bytes(MINI.replace("name: mini", "name: m\xe9ni").encode("latin-1"))
    problem = only(path)
    assert (problem.rule, problem.line, problem.column) == ("bad-encoding", 2, 8)
    assert run("validate", str(path)).exit_code == 1


@pytest.mark.parametrize("name", ["a" * 300, "a" * 300 + ".yaml", "x/" * 200])
def test_over_long_names(tmp_path: Path, name: str) -> None:
    assert only(name).rule == "file-not-found"
    result = run("perft", name, "1")
    assert result.exit_code == 2 and "longer than" in result.output
    child = write(tmp_path, "v.yaml", f"variantkit: 1\nname: x\ninherits: {name}\n")
    assert only(child).rule in ("inherit-outside", "inherit-not-found")


# --- YAML: sizes, aliases, keys, numbers ---------------------------------------------------


def alias_bomb(levels: int, merge: bool) -> str:
    lines = ["variantkit: 1", "name: bomb", "a0: &a0 {k: 1}" if merge else "a0: &a0 [x, x]"]
    for i in range(1, levels):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} {{<<: [{refs}]}}" if merge else f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("merge", [False, True])
def test_alias_bombs_are_counted_before_they_expand(merge: bool) -> None:
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(alias_bomb(12, merge), "bomb")
    assert [p.rule for p in caught.value.problems] == ["too-large"]


@pytest.mark.parametrize(("edit", "path"), [
    (lambda t: t.replace("name: mini", "name: mini\ndescription: " + "x" * 9000),
     ("description",)),
    (lambda t: t.replace("setup:", "# 1\nsetup:").replace(
        "  grid: {files: 4, ranks: 4}",
        "  grid: {files: 4, ranks: 4}\n  regions:\n"
        + "".join(f"    r{i}: [a1]\n" for i in range(limits.MAX_ENTRIES + 1))),
     ("board", "regions")),
])
def test_values_over_the_limits_are_located(edit: object, path: tuple[str, ...]) -> None:
    assert callable(edit)
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(edit(MINI), "v")
    (problem,) = caught.value.problems
    assert (problem.rule, problem.path) == ("too-large", path)
    assert problem.line is not None


@pytest.mark.parametrize(("old", "new", "rule"), [
    ("files: 4", "files: 4.0", "schema"),
    ("files: 4", "files: 1e308", "schema"),
    ("files: 4", "files: .inf", "too-large"),
    ("files: 4", "files: .nan", "too-large"),
    ("files: 4", "files: 1000000000", "too-large"),
    ("files: 4", "files: " + "9" * 4400, "too-large"),
    ("- ride: orthogonal", "- leap: [1.0, 2.0]", "schema"),
    ("- ride: orthogonal", "- leap: [1, 1e308]", "schema"),
    ("- ride: orthogonal", "- ride: orthogonal\n        range: 2.0", "schema"),
    ("name: mini", "name: mini\n[a]: 1", "schema"),
    ("name: mini", "name: mini\n? {a: 1}\n: 2", "schema"),
    ("name: mini", "name: mini\n1: 2", "schema"),
])
def test_numbers_and_keys_of_the_wrong_kind(old: str, new: str, rule: str) -> None:
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(MINI.replace(old, new), "v")
    assert rule in {p.rule for p in caught.value.problems}
    assert all(p.line is not None for p in caught.value.problems)


def test_hex_side_must_be_a_whole_number() -> None:
    text = (Path(__file__).resolve().parent.parent.parent / "examples" / "glinski.yaml").read_text(
        encoding="utf-8").replace("side: 6", "side: 6.0")
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(text, "v")
    assert {p.rule for p in caught.value.problems} == {"schema"}


@SETTINGS
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=5) | st.integers(), inner, max_size=4), max_leaves=20))
def test_any_yaml_value_ends_in_problems_or_a_variant(value: object) -> None:
    import yaml
    text = MINI + yaml.safe_dump({"board": {"regions": {"r": value}}, "end": value})
    try:
        variantkit.load_text(text, "v")
    except VariantError as exc:
        assert exc.problems


# --- board and piece caps ------------------------------------------------------------------


@pytest.mark.parametrize("grid", ["{files: 26, ranks: 40}", "{files: 8, ranks: 8, planes: 17}",
                                  "{files: 1, ranks: 2000}"])
def test_boards_over_the_cell_limit(grid: str) -> None:
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(MINI.replace("{files: 4, ranks: 4}", grid), "v")
    (problem,) = caught.value.problems
    assert (problem.rule, problem.line) == ("board-size", 3)
    assert f"at most {limits.MAX_CELLS:,} cells" in problem.message


def test_polar_board_over_the_cell_limit() -> None:
    text = MINI.replace("grid: {files: 4, ranks: 4}",
                        "polar: {sectors: [" + ", ".join(f"s{i}" for i in range(200))
                        + "], rings: ['1', '2', '3', '4', '5', '6']}")
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(text, "v")
    assert [p.rule for p in caught.value.problems] == ["board-size"]


def test_large_real_boards_fit() -> None:
    assert GridTopology(16, 16).build().size == 256
    assert GridTopology(8, 8, 8).build().size == 512
    sectors = [f"s{i}" for i in range(100)]
    assert PolarTopology(sectors, [str(r) for r in range(10)], "c").build().size == 1001


def test_too_many_pieces_and_moves() -> None:
    pieces = "".join(f"  p{i}: {{letter: K, moves: [{{step: all}}]}}\n"
                     for i in range(limits.MAX_PIECES + 1))
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(MINI.replace("pieces:\n", "pieces:\n" + pieces), "v")
    assert [(p.rule, p.path) for p in caught.value.problems] == \
        [("too-large", ("pieces", f"p{limits.MAX_PIECES}"))]
    many = "".join("      - step: n\n" for _ in range(limits.MAX_MOVES))
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(MINI.replace("      - ride: orthogonal\n", many + "      - ride: e\n"),
                             "v")
    assert [(p.rule, p.path) for p in caught.value.problems] == \
        [("too-large", ("pieces", "rook", "moves", limits.MAX_MOVES - 1))]
    vectors = ", ".join(f"[{i}, 1]" for i in range(limits.MAX_MOVES + 1))
    with pytest.raises(VariantError, match="too-large"):
        variantkit.load_text(MINI.replace("ride: orthogonal", f"leap: [{vectors}]"), "v")
    with pytest.raises(VariantError, match="Betza strings expanded"):
        variantkit.load_text(MINI.replace("moves:\n      - ride: orthogonal",
                                          "betza: " + "W" * 1000), "v")


def test_a_budget_caps_the_work_of_loading() -> None:
    with pytest.raises(VariantError) as caught:
        variantkit.load("chess", budget=limits.Budget(units=100))
    (problem,) = caught.value.problems
    assert problem.rule == "too-large" and problem.file.endswith("chess.yaml")
    with pytest.raises(VariantError, match="longer than 0 s"):
        variantkit.load("chess", budget=limits.Budget(seconds=0))
    assert variantkit.load("chess", budget=limits.Budget()).name == "chess"


def test_the_deadline_holds_while_attack_tables_are_built() -> None:
    """On a large board the attack tables take longer than the rays the
    budget's units count (a 100x10 disk: seconds): the deadline is kept
    there too."""
    from variantkit.pieces import CAPTURE, Component
    chess = variantkit.load("chess")
    queen = next(c for c in chess.pieces.components if c.flags.mode & CAPTURE)
    late = limits.Budget(seconds=0)
    time.sleep(0.01)
    with pytest.raises(VariantError, match="longer than 0 s"):
        Component(flags=queen.flags, rays=queen.rays).compile(late)
    fresh = Component(flags=queen.flags, rays=queen.rays)
    fresh.compile(limits.Budget(seconds=60))
    assert fresh.tables == queen.tables


@SETTINGS
@given(names=st.sets(st.text("ab1", min_size=1, max_size=3), min_size=3, max_size=12),
       letters=st.sets(st.sampled_from("AB"), min_size=1, max_size=2))
def test_cell_name_ambiguity_matches_trying_every_reading(names: set[str],
                                                          letters: set[str]) -> None:
    """The linear check finds an ambiguous move string exactly when trying
    every from-cell, to-cell and promotion letter does."""
    ordered = sorted(names)
    suffixes = [""] + sorted(x.lower() for x in letters)
    readings: dict[str, set[tuple[str, str, str]]] = {}
    for a in ordered:
        for b in ordered:
            for x in suffixes:
                readings.setdefault(a + b + x, set()).add((a, b, x))
    expected = any(len(found) > 1 for found in readings.values())
    sectors = ", ".join(f"'{n}'" for n in ordered[:-1])
    pieces = "".join(f"  p{x}: {{letter: {x}, moves: [{{step: all}}]}}\n"
                     for x in sorted(letters) if x != "K")
    text = (MINI.replace("grid: {files: 4, ranks: 4}",
                         f"polar: {{sectors: [{sectors}], rings: [''], centre: '{ordered[-1]}', "
                         "through-centre: {orthogonal: none, diagonal: none}}")
            .replace("  rook:\n    letter: R\n    moves:\n      - ride: orthogonal\n", pieces)
            .replace("setup: 3k/4/4/KR2", f"setup: Kk{len(ordered) - 3}/1"))
    if len(ordered) < 4:
        return
    try:
        variant = variantkit.load_text(text, "v")
    except VariantError as exc:
        assert "ambiguous-cell-names" not in {p.rule for p in exc.problems if p.severity == "error"}
        return
    found = any(p.rule == "ambiguous-cell-names" for p in variant.problems)
    assert found == expected, (ordered, letters)


# --- position strings and move strings --------------------------------------------------------


@pytest.mark.parametrize("fen", [
    "K6k\u00b2/8/8/8/8/8/8/8 w - - 0 1",       # a superscript: not a digit for int()
    "K6k\u0661/8/8/8/8/8/8/8 w - - 0 1",       # an Arabic-Indic digit
    "K" + "9" * 5000 + "/8/8/8/8/8/8/k7 w - - 0 1",
    "K7/8/8/8/8/8/8/k7 w - - " + "9" * 5000 + " 1",
    "K7/8/8/8/8/8/8/k7 w - - 0 " + "9" * 5000,
    "K7/8/8/8/8/8/8/k7 w - - 0 1000000000",
    "K7/8/8/8/8/8/8/k7 w - - 0 1 " + "x" * 100_000,
])
def test_bad_position_strings(fen: str) -> None:
    chess = variantkit.load("chess")
    with pytest.raises(InvalidFenError) as caught:
        chess.new_game(fen)
    assert len(str(caught.value)) < 300
    result = run("show", "chess", "--fen", fen)
    assert result.exit_code == 1 and len(result.output) < 300


@SETTINGS
@given(st.text(max_size=30))
def test_any_placement_text_is_read_or_refused(text: str) -> None:
    chess = variantkit.load("chess")
    with contextlib.suppress(InvalidFenError):
        chess.new_game(text + " w - - 0 1")


def test_unicode_digits_in_a_setup_are_located() -> None:
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(MINI.replace("3k/4/4/KR2", "3k/4/4/KR\u00b2"), "v")
    assert [p.rule for p in caught.value.problems] == ["bad-setup"]


@pytest.mark.parametrize("size", [400_000, 1_000_000])
def test_long_move_strings_are_refused_with_a_short_message(size: int) -> None:
    game = variantkit.load("chess").new_game()
    with pytest.raises(IllegalMoveError) as caught:
        game.push("e2" * (size // 2))
    assert len(str(caught.value)) < 300 and "characters" in str(caught.value)
    assert game.plies == 0


def test_a_huge_pgn_token_and_tag() -> None:
    with pytest.raises(PgnError) as caught:
        variantkit.read_pgn("1. " + "e2e4" * 250_000 + " *")
    assert len(str(caught.value)) < 400
    with pytest.raises(PgnError, match="bad FEN tag"):
        variantkit.read_pgn(f'[FEN "K7/8/8/8/8/8/8/k7 w - - {"9" * 5000} 1"]\n\n*')
    with pytest.raises(PgnError, match="bad FEN tag"):
        variantkit.read_pgn('[FEN "K6k\u00b2/8/8/8/8/8/8/8 w - - 0 1"]\n\n*')
    with pytest.raises(PgnError, match="more than"):
        variantkit.read_pgn(" " * (limits.MAX_PGN_LENGTH + 1))


def test_read_games_loads_each_variant_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import variantkit.pgn as pgn
    calls: list[str] = []
    real = pgn.load

    def counting(name: str) -> variantkit.Variant:
        calls.append(name)
        return real(name)

    monkeypatch.setattr(pgn, "load", counting)
    games = pgn.read_games('[Variant "chess"]\n\n1. e2e4 *\n\n' * 5
                           + '[Variant "trice"]\n\n1. e2e4 *\n\n' * 3)
    assert len(games) == 8
    assert sorted(calls) == ["chess", "trice"]


# --- library misuse -----------------------------------------------------------------------------


@pytest.mark.parametrize("make", [
    lambda: Move("e2", "e4", promotion=5),  # type: ignore[arg-type]
    lambda: Move("e2", "e4", promotion="qq"),
    lambda: Move(1, 2),  # type: ignore[arg-type]
    lambda: Move("e2", "e4", suborn="yes"),  # type: ignore[arg-type]
    lambda: 42])
def test_malformed_moves_raise_without_changing_the_game(make: Callable[[], object]) -> None:
    game = variantkit.load("chess").new_game()
    with pytest.raises(IllegalMoveError, match="a move is a Move"):
        game.push(make())  # type: ignore[arg-type]
    assert game.plies == 0


@pytest.mark.parametrize(("depth", "error"), [(1.5, TypeError), ("3", TypeError),
                                              (True, TypeError), (-1, ValueError),
                                              (limits.MAX_PERFT_DEPTH + 1, ValueError)])
def test_perft_depth_is_checked(depth: object, error: type[Exception]) -> None:
    game = variantkit.load("chess").new_game()
    before = game.fen()
    with pytest.raises(error, match="perft depth"):
        variantkit.perft(game, depth)  # type: ignore[arg-type]
    assert game.fen() == before and game.plies == 0
    assert variantkit.perft(game, 0) == 1


@pytest.mark.patches_compiled("variantkit.core.position")  # tests/conftest.py
def test_an_interrupted_perft_leaves_the_position(monkeypatch: pytest.MonkeyPatch) -> None:
    game = variantkit.load("chess").new_game()
    calls = 0
    real = game.position.count_legal   # perft's last ply, 400 calls at depth 3

    def interrupted() -> int:
        nonlocal calls
        calls += 1
        if calls == 30:
            raise KeyboardInterrupt
        return real()

    monkeypatch.setattr(game.position, "count_legal", interrupted)
    with pytest.raises(KeyboardInterrupt):
        variantkit.perft(game, 3)
    monkeypatch.undo()
    assert game.plies == 0 and game.fen() == variantkit.load("chess").new_game().fen()


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("play", "chess", "--time", "nan"), ("play", "chess", "--time", "inf"),
    ("play", "chess", "--time", "1e308"), ("play", "chess", "--time", "-1"),
    ("render", "chess", "--size", "nan"), ("render", "chess", "--size", "inf"),
    ("render", "chess", "--size", "1e308"),
])
def test_non_finite_and_absurd_numbers_are_refused(args: tuple[str, ...]) -> None:
    result = run(*args, input="quit\n")
    assert result.exit_code == 2 and "Invalid value" in result.output


@pytest.mark.parametrize("depth", ["\u00b2", "9" * 5000, "21", "1.5", "-1", "0"])
def test_perft_depth_on_the_command_line(depth: str) -> None:
    result = run("perft", "chess", depth)
    assert result.exit_code == 1
    assert "depth must be a whole number from 1 to 20" in result.output
    assert len(result.output) < 300


def test_perft_output_ends_with_the_node_count() -> None:
    result = run("perft", "chess", "3")
    assert result.output == "Nodes searched: 8902\n"
    divided = run("perft", "chess", "2", "--divide").output.splitlines()
    assert divided[0] == "a2a3: 20" and divided[-1] == "Nodes searched: 400"


def test_a_long_position_string_is_cut_in_the_message() -> None:
    result = run("show", "chess", "--fen", "x" * 100_000)
    assert result.exit_code == 1 and len(result.output) < 300


class CountingLines(io.StringIO):
    """A text file that counts the lines read from it."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.lines_read = 0

    def readline(self, size: int | None = -1) -> str:
        self.lines_read += 1
        return super().readline(size)


def test_iter_games_reads_a_file_one_game_at_a_time() -> None:
    one = '[Event "x"]\n{a comment\nthat spans lines}\n1. e4 e5 2. Nf3 (2. f4) Nc6 1-0\n\n'
    handle = CountingLines(one * 1000)
    games = variantkit.iter_games(handle)
    first = next(games)
    assert first.fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert handle.lines_read <= 6            # the first game's lines, not the file's
    assert sum(1 for _ in games) == 999
    assert [g.fen() for g in variantkit.iter_games(one * 2)] == [first.fen()] * 2


def test_many_empty_games_are_refused_at_once_or_streamed() -> None:
    text = "*\n" * 300_000
    with pytest.raises(PgnError, match="iter_games reads any number"):
        variantkit.read_games(text)
    streamed = variantkit.iter_games(io.StringIO(text))
    assert [next(streamed).plies for _ in range(3)] == [0, 0, 0]


def test_one_game_is_bounded_in_a_stream_of_any_size() -> None:
    endless = io.StringIO("1. e4 (" + "e5 " * (limits.MAX_PGN_GAME_LENGTH // 3 + 10) + ") *")
    with pytest.raises(PgnError, match="a game of more than 1,000,000 characters"):
        next(variantkit.iter_games(endless))
    moves = "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 " * (limits.MAX_PGN_PLIES // 6 + 1)
    with pytest.raises(PgnError, match="a game of more than 10,000 moves"):
        next(variantkit.iter_games(moves + "*"))
    open_comment = io.StringIO("1. e4 {" + "never closed\n" * 100_000)
    with pytest.raises(PgnError, match="unclosed comment"):
        next(variantkit.iter_games(open_comment))


def test_new_with_a_name_too_long_for_the_file_system(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    name = "v" + "x" * 299
    result = run("new", name, "-o", str(tmp_path / f"{name}.yaml"))
    assert result.exit_code == 1, result.output
    assert "cannot write" in result.output and "File name too long" in result.output
    assert "Traceback" not in result.output and len(result.output) < 300
    monkeypatch.chdir(tmp_path)
    result = run("new", name)
    assert result.exit_code == 1 and "cannot write" in result.output, result.output


def test_never_write_over_the_variant_file(tmp_path: Path) -> None:
    variant = write(tmp_path, "v.yaml", MINI)
    for args in (["render", str(variant), "-o", str(variant), "--force"],
                 ["play", str(variant), "--pgn", str(variant)],
                 ["selfplay", str(variant), "--pgn", str(variant), "--max-plies", "2"]):
        result = run(*args, input="quit\n")
        assert result.exit_code == 1, result.output
        assert "is the variant file being read" in result.output
        assert variant.read_text(encoding="utf-8") == MINI
    (tmp_path / "lib").mkdir()
    write(tmp_path / "lib", "base.yaml", MINI)
    child = write(tmp_path, "child.yaml", "variantkit: 1\nname: c\ninherits: lib/base.yaml\n")
    result = run("render", str(child), "-o", str(tmp_path / "lib" / "base.yaml"), "--force")
    assert result.exit_code == 1 and "variant file being read" in result.output


def test_existing_files_are_kept_unless_forced(tmp_path: Path) -> None:
    image = write(tmp_path, "x.svg", "mine")
    result = run("render", "chess", "-o", str(image))
    assert result.exit_code == 1 and "exists already" in result.output
    assert image.read_text(encoding="utf-8") == "mine"
    assert run("render", "chess", "-o", str(image), "--force").exit_code == 0
    assert image.read_text(encoding="utf-8").startswith("<svg")
    starter = write(tmp_path, "mine.yaml", "mine")
    assert run("new", "mine", "-o", str(starter)).exit_code == 1
    assert run("new", "mine", "-o", str(starter), "--force").exit_code == 0
    pgn = write(tmp_path, "games.pgn", "")
    for _ in range(2):
        assert run("play", "chess", "--pgn", str(pgn), input="e2e4\nquit\n").exit_code == 0
    assert len(variantkit.read_games(pgn.read_text(encoding="utf-8"))) == 2


def test_ctrl_c_while_the_engine_thinks_saves_the_game(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from variantkit.engine.search import Engine

    def interrupted(self: Engine, game: variantkit.Game, **_: object) -> Move:
        game.push("e7e5")  # the search is inside a line when the key is pressed
        raise KeyboardInterrupt

    monkeypatch.setattr(Engine, "best_move", interrupted)
    pgn = tmp_path / "g.pgn"
    result = run("play", "chess", "--pgn", str(pgn), input="e2e4\n")
    assert result.exit_code == 0
    assert "Stopped: game left unfinished." in result.output
    assert f"Game saved to {pgn}." in result.output
    game = variantkit.read_pgn(pgn.read_text(encoding="utf-8"))
    assert [str(m) for m in game.move_stack] == ["e2e4"]


# --- modifiers that cannot apply ------------------------------------------------------------------


@pytest.mark.parametrize(("move", "key", "severity"), [
    ("- step: n\n        range: 2", "range", "error"),
    ("- leap: [1, 2]\n        range: [1, 2]", "range", "error"),
    ("- leap: [0, 1, 2]", "leap", "error"),
    ("- leap: [[0, 1, 1]]", "leap", "error"),
    ("- ride: up", "ride", "error"),
    ("- step: vertical", "step", "error"),
    ("- suborn: {}\n        only: capture", "only", "error"),
])
def test_modifiers_without_effect_are_located(move: str, key: str, severity: str) -> None:
    text = MINI.replace("- ride: orthogonal", move)
    try:
        found = variantkit.load_text(text, "v").problems
    except VariantError as exc:
        found = exc.problems
    ours = [p for p in found if p.rule == "modifier-no-effect"]
    assert len(ours) == 1, found
    line = next(i for i, text_line in enumerate(text.splitlines(), 1)
                if i >= 14 and f"{key}:" in text_line)
    assert (ours[0].severity, ours[0].path[-1], ours[0].line) == (severity, key, line)


def test_plane_shift_modifiers_without_effect() -> None:
    strato = (Path(__file__).resolve().parent.parent.parent / "variants" / "strato.yaml").read_text(
        encoding="utf-8")
    text = strato.replace("name: strato", "name: s").replace(
        "pieces:\n", "pieces:\n  lift:\n    letter: L\n    moves:\n"
        "      - plane-shift: {planes: 1, path: landing}\n        only: move\n", 1)
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(text, "v")
    rules = {(p.rule, p.path[-1], p.severity) for p in caught.value.problems}
    assert ("modifier-no-effect", "path", "error") in rules
    assert ("redundant-modifier", "only", "warning") in rules


def test_limits_are_documented_with_their_numbers() -> None:
    section = (Path(__file__).resolve().parent.parent.parent / "docs" / "limits.md").read_text(
        encoding="utf-8")
    for name in dir(limits):
        if name.startswith("MAX_") or name == "DEFAULT_UNITS":
            value = getattr(limits, name)
            assert f"{value:,}".replace(".0", "") in section, name
