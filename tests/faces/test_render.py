"""The SVG drawing (`variantkit.render`, `game.svg`, `variantkit render`).

For every bundled variant and every example file: the document parses, each
cell is drawn exactly once, each piece sits inside its cell's shape (checked
with the shape's own parameters: a rectangle's sides, a sector's radii and
angles, a disk's radius, a hexagon's corners), the last move and check are
marked, and flipping moves the pieces.  Finally each start position is
rasterised with cairosvg and must not be blank.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from catalogue import one_per_board
from click.testing import CliRunner, Result

import variantkit
from variantkit.cli import cli
from variantkit.drawing.svg import Disk, Hexagon, Rect, Sector, cell_geometry, render
from variantkit.game import Game
from variantkit.pieces import type_of

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
VARIANTS = one_per_board() + [str(p) for p in sorted(EXAMPLES.glob("*.yaml"))]
FOOLS_MATE = "f2f3 e7e5 g2g4 d8h4"


def ids(name: str) -> str:
    return Path(name).stem


def start(name: str) -> Game:
    return variantkit.load(name).new_game()


def cell_shapes(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "data-cell" in e.attrib and "data-piece" not in e.attrib]


def pieces(root: ET.Element) -> dict[str, ET.Element]:
    return {e.attrib["data-cell"]: e for e in root.iter() if "data-piece" in e.attrib}


def anchor(element: ET.Element) -> tuple[float, float]:
    match = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", element.attrib["transform"])
    assert match, element.attrib["transform"]
    return float(match[1]), float(match[2])


def inside(shape: ET.Element, model: object, point: tuple[float, float]) -> bool:
    """Whether `point` lies in a drawn cell: rectangles, circles and polygons
    are read from the SVG; an annular sector (a path) from its geometry."""
    x, y = point
    eps = 0.01  # coordinates are written with two decimals
    tag = shape.tag.removeprefix(SVG)
    if tag == "rect":
        left, top = float(shape.attrib["x"]), float(shape.attrib["y"])
        return (left - eps <= x <= left + float(shape.attrib["width"]) + eps
                and top - eps <= y <= top + float(shape.attrib["height"]) + eps)
    if tag == "circle":
        cx, cy, r = (float(shape.attrib[k]) for k in ("cx", "cy", "r"))
        return math.hypot(x - cx, y - cy) <= r + eps
    if tag == "polygon":
        corners = [tuple(map(float, p.split(","))) for p in shape.attrib["points"].split()]
        crosses = [(bx - ax) * (y - ay) - (by - ay) * (x - ax)
                   for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True)]
        return all(c >= -eps for c in crosses) or all(c <= eps for c in crosses)
    assert tag == "path" and isinstance(model, Sector)
    assert shape.attrib["d"] == model.element()[1]["d"]  # the path drawn is this sector
    radius = math.hypot(x - model.cx, y - model.cy)
    angle = (math.atan2(y - model.cy, x - model.cx) - model.start) % math.tau
    return model.inner <= radius <= model.outer and angle <= model.end - model.start


def find_check(game: Game, depth: int = 3, budget: list[int] | None = None) -> bool:
    """Play into the first position with the side to move in check, if any
    within `depth` plies (depth first, moves in the engine's order) and
    among the first 20,000 positions looked at (a game of 90 moves a ply,
    as Dragonchess has, would otherwise be searched through 735,000)."""
    left = [20_000] if budget is None else budget
    left[0] -= 1
    if game.is_check():
        return True
    if depth == 0 or left[0] <= 0:
        return False
    for move in game.legal_moves():
        game.push(move)
        if find_check(game, depth - 1, left):
            return True
        game.pop()
    return False


# --- structure -------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS, ids=ids)
def test_every_cell_once_and_every_piece_inside_its_cell(name: str) -> None:
    game = start(name)
    board = game.variant.board
    svg = render(game)
    assert svg.isascii()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    shapes = cell_shapes(root)
    assert Counter(e.attrib["data-cell"] for e in shapes) == Counter(board.names)
    by_name = {e.attrib["data-cell"]: e for e in shapes}
    setup = game.variant.rules.setup
    geometry = cell_geometry(board, facing=[c for c, code in setup.cells.items() if code & 1 == 0])
    drawn = pieces(root)
    expected = {cell: game.piece_at(cell) for cell in board.names if game.piece_at(cell)}
    assert {cell: e.attrib["data-piece"] for cell, e in drawn.items()} == expected
    for cell, element in drawn.items():
        model = geometry.shapes[board.index[cell]]
        assert inside(by_name[cell], model, anchor(element)), cell
        assert model.contains(anchor(element))


def test_each_topology_has_its_own_shapes() -> None:
    def kinds(name: str) -> set[type]:
        return {type(s) for s in cell_geometry(variantkit.load(name).board).shapes}

    assert kinds("chess") == kinds("strato") == {Rect}
    assert kinds("diplomat") == {Sector, Disk}
    if (EXAMPLES / "glinski.yaml").exists():
        assert kinds(str(EXAMPLES / "glinski.yaml")) == {Hexagon}


def test_hex_labels_follow_the_declared_names() -> None:
    # Shafran's board: files a-i under the files, ranks 1-10 beside the
    # first cell of each rank (ranks that run down to the right).
    texts = [t.text for t in ET.fromstring(render(start("shafran"))).iter(f"{SVG}text")]
    assert [t for t in texts if t and t.isalpha() and len(t) == 1] == list("abcdefghi")
    assert sorted(int(t) for t in texts if t and t.isdigit()) == list(range(1, 11))


def test_grid_coordinates_and_plane_titles() -> None:
    texts = [t.text for t in ET.fromstring(render(start("strato"))).iter(f"{SVG}text")]
    assert {"plane A", "plane B", "plane C"} <= set(texts)
    assert texts.count("a") == 3 and texts.count("8") == 3


def test_polar_sector_and_ring_names() -> None:
    texts = {t.text for t in ET.fromstring(render(start("diplomat"))).iter(f"{SVG}text")}
    assert set("abcdefghijklmn") | {"1", "2", "3", "4"} <= texts


def test_polar_sectors_go_clockwise_from_whites_side() -> None:
    geometry = cell_geometry(variantkit.load("diplomat").board, facing=[3])  # d1
    d1 = geometry.shapes[3]
    assert isinstance(d1, Sector) and d1.anchor[1] > d1.cy  # White's side at the bottom
    # Sector e (the next, clockwise) is left of d on the bottom edge.
    assert geometry.shapes[4].anchor[0] < d1.anchor[0]


@pytest.mark.parametrize("name", VARIANTS, ids=ids)
def test_last_move_is_marked(name: str) -> None:
    game = start(name)
    move = game.legal_moves()[0]
    game.push(move)
    root = ET.fromstring(render(game))
    marked = {e.attrib["data-cell"] for e in cell_shapes(root)
              if e.attrib.get("data-mark") == "last-move"}
    assert marked == {move.from_cell, move.to_cell}
    assert not any("data-mark" in e.attrib for e in cell_shapes(ET.fromstring(render(start(name)))))


@pytest.mark.parametrize("name", VARIANTS, ids=ids)
def test_checked_royal_cell_is_red(name: str) -> None:
    game = start(name)
    if not any(game.variant.rules.codes.royal_codes):
        pytest.skip("no royal piece, so no check (clobber, breakthrough)")
    if name == "chess":
        for move in FOOLS_MATE.split():
            game.push(move)
    if not find_check(game, 3):
        # Games with slow pieces or without check (racing kings, antichess).
        assert name not in ("chess", "diplomat", "strato", "trice") and not name.endswith(".yaml")
        pytest.skip("no check found within three plies of the start")
    king = game.checked_cell()
    root = ET.fromstring(game.svg())
    checked = [e for e in cell_shapes(root) if e.attrib.get("data-mark") == "check"]
    assert [e.attrib["data-cell"] for e in checked] == [king]
    assert checked[0].attrib["fill"] == "#e0443a"
    assert pieces(root)[king].attrib["data-piece"].lower() == "k"


@pytest.mark.parametrize("name", VARIANTS, ids=ids)
def test_flip_turns_the_board(name: str) -> None:
    game = start(name)
    plain, flipped = (ET.fromstring(render(game, flip=f)) for f in (False, True))
    # Pieces are placed in the board's own coordinates (hands and the
    # legend lie outside it).
    height = cell_geometry(game.variant.board).height
    # A White piece (not every game has a royal one) is drawn in the lower
    # half, and in the upper half flipped.
    king = next(n for n in game.variant.board.names if (game.piece_at(n) or "a").isupper())
    assert anchor(pieces(plain)[king])[1] > height / 2 > anchor(pieces(flipped)[king])[1]
    assert Counter(e.attrib["data-cell"] for e in cell_shapes(flipped)) == \
        Counter(game.variant.board.names)


def test_highlight_size_and_errors() -> None:
    game = start("chess")
    root = ET.fromstring(render(game, highlight=["e4", "d5"], size=300))
    marked = {e.attrib["data-cell"] for e in cell_shapes(root)
              if e.attrib.get("data-mark") == "highlight"}
    assert marked == {"e4", "d5"}
    assert root.attrib["width"] == "300"
    with pytest.raises(ValueError, match="z9"):
        render(game, highlight=["z9"])


def test_legend_lists_pieces_without_a_chess_glyph() -> None:
    def legend(name: str) -> set[str]:
        root = ET.fromstring(render(start(name)))
        return {e.attrib["data-legend"] for e in root.iter() if "data-legend" in e.attrib}

    assert legend("chess") == legend("strato") == set()
    assert legend("trice") == {"C", "A"}
    assert legend("diplomat") == {"H", "D"}
    text = render(start("diplomat"))
    assert "Horse" in text and "Diplomat" in text


def test_library_entry_points_agree() -> None:
    game = start("trice")
    assert variantkit.render(game, flip=True) == game.svg(flip=True) == render(game, flip=True)


# --- command line -------------------------------------------------------------


def run(*args: str) -> Result:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click 8.1
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args))


def test_cli_writes_svg(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = run("render", "chess", "--moves", "e2e4", "-o", str(out), "--flip",
                 "--highlight", "d4, d5")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text("utf-8"))
    marks = {e.attrib["data-cell"]: e.attrib.get("data-mark") for e in cell_shapes(root)}
    assert marks["e2"] == marks["e4"] == "last-move"
    assert marks["d4"] == marks["d5"] == "highlight"
    stdout = run("render", "diplomat", "--fen", start("diplomat").fen())
    assert stdout.exit_code == 0
    assert ET.fromstring(stdout.output).tag == f"{SVG}svg"


@pytest.mark.parametrize("args", [
    ("render", "chess", "--highlight", "z9"),
    ("render", "chess", "--fen", "not a position"),
    ("render", "chess", "--moves", "e2e5"),
    ("render", "chess", "-o", "/nonexistent-dir/x.svg"),
])
def test_cli_errors(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert "error: " in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- pixels -------------------------------------------------------------------


def rasterise(svg: str) -> list[bytes]:
    """The RGB pixels of the drawing."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the system cairo library is missing
        pytest.skip(f"cairosvg (and the system cairo library) draw the PNGs: {exc}")
    image_module = pytest.importorskip("PIL.Image", reason="Pillow reads the PNGs")
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    with image_module.open(io.BytesIO(png)) as image:
        data = image.convert("RGB").tobytes()
    return [data[i:i + 3] for i in range(0, len(data), 3)]


def without_pieces(svg: str) -> str:
    ET.register_namespace("", SVG.strip("{}"))
    root = ET.fromstring(svg)
    for parent in list(root.iter()):  # the board is a group of its own beside hands
        for group in list(parent):
            if group.attrib.get("class") in ("pieces", "legend"):
                parent.remove(group)
    return ET.tostring(root, encoding="unicode")


@pytest.mark.parametrize("name", VARIANTS, ids=ids)
def test_png_is_not_blank(name: str) -> None:
    svg = render(start(name))
    full = rasterise(svg)
    empty = rasterise(without_pieces(svg))
    assert len(set(full)) >= 4  # background, cells, pieces, labels
    assert len(set(empty)) >= 3  # background and at least two cell colours
    changed = sum(a != b for a, b in zip(full, empty, strict=True))
    assert changed > 0.01 * len(full)  # the pieces show


# --- piece figures ---------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS, ids=ids)
def test_pieces_are_paths_not_font_glyphs(name: str) -> None:
    game = start(name)
    svg = render(game)
    assert not re.search(r"&#(98(1[2-9]|2[0-3]));", svg)  # no chess symbols from a font
    if game.variant.rules.look.shape != "figures":
        return  # discs and pentagons with characters: tests/faces/test_board_looks.py
    for element in pieces(ET.fromstring(svg)).values():
        letter = element.attrib["data-piece"]
        kind = game.variant.pieces.types[
            type_of(game.variant.code_of_letter(letter) or 0)]
        texts = list(element.iter(f"{SVG}text"))
        if kind.glyph is None:
            assert [t.text for t in texts] == [letter.upper()]  # a lettered disc
        else:
            assert not texts and list(element.iter(f"{SVG}path"))


def test_every_figure_is_drawn_and_named_in_the_schema() -> None:
    import json

    from variantkit.drawing.svg import GLYPHS, figure
    def glyph_enums(node: object) -> list[set[str]]:
        if isinstance(node, dict):
            found = [set(node["glyph"]["enum"])] if "enum" in node.get("glyph", {}) else []
            return found + [e for value in node.values() for e in glyph_enums(value)]
        return [e for value in node for e in glyph_enums(value)] if isinstance(node, list) \
            else []

    schema = json.loads((EXAMPLES.parent / "schemas" / "variant.schema.json").read_text())
    assert glyph_enums(schema) == [set(GLYPHS)]
    for name in GLYPHS:
        for black in (False, True):
            drawing = (f'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
                       f'<rect width="100" height="100" fill="#808080"/>'
                       f'<g transform="translate(50 50)">{figure(name, 90, black)}</g></svg>')
            pixels = rasterise(drawing)
            dark = sum(max(p) < 60 for p in pixels)
            light = sum(min(p) > 200 for p in pixels)
            # White's figures: a white body in a black outline; Black's: a black body.
            assert (light > 150 and dark > 30) if not black else dark > 500, (name, black)


def test_stacked_planes_alternate_colours_in_all_three_coordinates() -> None:
    fills = {e.attrib["data-cell"]: e.attrib["fill"]
             for e in cell_shapes(ET.fromstring(render(start(str(EXAMPLES / "raumschach.yaml")))))}
    assert fills["Aa1"] != fills["Ba1"] == fills["Ab1"] == fills["Aa2"] != fills["Ca1"]
    assert fills["Aa1"] == fills["Bb1"] == fills["Ca1"] == fills["Bc2"]
