"""The authoring commands: `variantkit new` and `variantkit explain`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import variantkit
from variantkit.cli import cli
from variantkit.loader import bundled_dir, schema_path

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"

def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def destinations(result: Result) -> dict[str, list[str]]:
    """Legend lines `M  meaning (n): cells` as {mark: cells}."""
    found = {}
    for line in result.output.splitlines():
        match = re.fullmatch(r"(\S)  .* \((\d+)\): (.*)", line)
        if match:
            cells = match[3].split()
            assert len(cells) == int(match[2])
            found[match[1]] = cells
    return found


def assert_valid(path: Path) -> None:
    result = run("validate", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{path}: ok"
    variantkit.load(str(path))
    # The schema line points at the real schema, relative to the file.
    first = path.read_text(encoding="utf-8").splitlines()[0]
    schema = first.removeprefix("# yaml-language-server: $schema=")
    assert schema != first
    assert (path.parent / schema).resolve() == schema_path().resolve()


# --- new ------------------------------------------------------------------------


def test_new_writes_a_playable_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("new", "mini")
    assert result.exit_code == 0, result.output
    assert_valid(tmp_path / "mini.yaml")
    game = variantkit.load("mini.yaml").new_game()
    assert game.variant.name == "mini"
    assert len(game.legal_moves()) > 0
    assert variantkit.perft(game, 3) > 0


def test_new_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "taken.yaml"
    path.write_text("mine\n", encoding="utf-8")
    result = run("new", "taken", "-o", str(path))
    assert result.exit_code == 1
    assert "exists already" in result.output
    assert path.read_text(encoding="utf-8") == "mine\n"


def test_new_refuses_a_bad_name(tmp_path: Path) -> None:
    result = run("new", "my variant", "-o", str(tmp_path / "x.yaml"))
    assert result.exit_code == 1
    assert "error: a variant name" in result.output


@pytest.mark.parametrize("parent", ["chess", "trice", "strato", "diplomat"])
def test_new_from_a_bundled_variant(tmp_path: Path, parent: str) -> None:
    path = tmp_path / "sub" / f"my-{parent}.yaml"
    path.parent.mkdir()
    result = run("new", f"my-{parent}", "--from", parent, "-o", str(path))
    assert result.exit_code == 0, result.output
    assert f"inherits: {parent}\n" in path.read_text(encoding="utf-8")
    assert_valid(path)
    child, original = variantkit.load(str(path)), variantkit.load(parent)
    assert child.name == f"my-{parent}"
    assert child.setup_fen == original.setup_fen


def test_new_from_a_file_inherits_it_by_relative_path(tmp_path: Path) -> None:
    source = tmp_path / "lib" / "base.yaml"
    source.parent.mkdir()
    source.write_text((bundled_dir() / "losalamos.yaml").read_text(encoding="utf-8")
                      .replace("../schemas", str(schema_path().parent)), encoding="utf-8")
    path = tmp_path / "child.yaml"
    assert run("new", "child", "--from", str(source), "-o", str(path)).exit_code == 0
    assert 'inherits: "lib/base.yaml"\n' in path.read_text(encoding="utf-8")
    assert_valid(path)


def test_new_refuses_a_parent_file_outside_the_new_files_folder(tmp_path: Path) -> None:
    # A variant may inherit only files in its own folder or below it.
    path = tmp_path / "out" / "child.yaml"
    path.parent.mkdir()
    result = run("new", "child", "--from", str(EXAMPLES / "glinski.yaml"), "-o", str(path))
    assert result.exit_code == 1
    assert "folder" in result.output
    assert not path.exists()


def test_new_from_an_unknown_variant(tmp_path: Path) -> None:
    result = run("new", "x", "--from", "nosuch", "-o", str(tmp_path / "x.yaml"))
    assert result.exit_code == 2
    assert not (tmp_path / "x.yaml").exists()


# --- explain --------------------------------------------------------------------


def test_knight_on_d4_reaches_eight_cells() -> None:
    result = run("explain", "chess", "knight", "--cell", "d4")
    assert result.exit_code == 0, result.output
    assert destinations(result) == {"*": ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]}
    assert "4 . . . N . . . ." in result.output
    assert "6 . . * . * . . ." in result.output
    assert result.output.rstrip().endswith("8 destinations")


def test_rook_on_the_diplomat_centre_reaches_every_ring_cell() -> None:
    result = run("explain", "diplomat", "R", "--cell", "4")
    assert result.exit_code == 0, result.output
    assert len(destinations(result)["*"]) == 42
    assert "\n4" + " " * 14 + "R\n" in result.output


def test_strato_knight_from_ab1_lands_on_every_plane() -> None:
    result = run("explain", "strato", "N", "--cell", "Ab1")
    assert destinations(result) == {
        "*": ["Aa3", "Ac3", "Ad2"],                           # in the plane
        "+": ["Ba3", "Bc3", "Bd2", "Ca3", "Cc3", "Cd2"],      # plane changes never capture
    }
    assert "plane A" in result.output and "plane C" in result.output


def test_pawn_marks_moves_captures_and_first_moves() -> None:
    result = run("explain", "chess", "pawn", "--cell", "e2")
    assert destinations(result) == {"+": ["e3"], "#": ["d3", "f3"], "^": ["e4"]}
    assert "3 . . . # + # . ." in result.output
    black = run("explain", "chess", "p", "--cell", "e7")
    assert destinations(black) == {"+": ["e6"], "#": ["d6", "f6"], "^": ["e5"]}
    assert black.output.startswith("black pawn (p) on e7")


def test_default_cell_is_central() -> None:
    result = run("explain", "chess", "K")
    assert result.output.startswith("white king (K) on d4, empty board")
    assert len(destinations(result)["*"]) == 8


def test_suborn_is_named_in_the_legend() -> None:
    result = run("explain", "diplomat", "diplomat", "--cell", "a2")
    assert "*  move or suborn (8):" in result.output


def test_fen_shows_the_real_legal_moves() -> None:
    fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
    result = run("explain", "chess", "P", "--fen", fen, "--cell", "e5")
    assert result.exit_code == 0, result.output
    assert destinations(result) == {"+": ["e6"], "#": ["d6"]}  # en passant is a capture
    pinned = run("explain", "chess", "N", "--fen", "4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1")
    assert pinned.output.rstrip().endswith("0 destinations")  # pinned; no --cell needed


@pytest.mark.parametrize(("args", "message"), [
    (["chess", "wizard"], "error: unknown piece 'wizard'"),
    (["chess", "N", "--cell", "z9"], "error: unknown cell 'z9'"),
    (["chess", "N", "--fen", "8/8/8 w - - 0 1"], "error: bad position string"),
    (["chess", "N", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "give --cell"),
    (["chess", "N", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--cell", "e1"],
     "e1 does not hold the white knight"),
])
def test_explain_mistakes_exit_1(args: list[str], message: str) -> None:
    result = run("explain", *args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_marks_never_read_as_piece_letters() -> None:
    # Black's pieces are lower-case letters, among them any x, o or i a
    # variant may use: the marks are never letters, so a drawing stays readable.
    result = run("explain", "chess", "Q", "--cell", "d1", "--fen",
                 "4k3/8/8/8/8/3p4/8/3QK3 w - - 0 1")
    board = result.output.split("\n\n")[1]
    symbols = {s for line in board.splitlines()[:-1] for s in line.split()[1:]}
    assert symbols - {"."} == {"k", "Q", "K", "+", "#"}
    assert not any(mark.isalpha() for mark in destinations(result))
