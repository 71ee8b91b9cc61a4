"""Games drawn as their players know them (`look:`): the bundled games'
boards and pieces in the SVG and the terminal, the drawing's geometry
(points, the river, palace diagonals, star points, pentagons pointing
forward), both piece sets, and the located errors of a bad `look:`.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET

import pytest
from rich.cells import cell_len

import variantkit
from variantkit import Variant, VariantError
from variantkit.drawing.svg import Rect, cell_geometry, render
from variantkit.drawing.terminal import board_text
from variantkit.web import tasks
from variantkit.web.sources import RequestError

SVG = "{http://www.w3.org/2000/svg}"
LOOKED = ["xiangqi", "minixiangqi", "manchu", "janggi", "shogi", "minishogi", "kyotoshogi",
          "micro", "dobutsu", "gorogoro", "judkins", "euroshogi", "torishogi", "okisakishogi",
          "shoshogi", "makruk", "sittuyin"]
RED = "#b3261e"


@functools.cache
def variant(name: str) -> Variant:
    return variantkit.load(name)


def drawing(name: str, moves: tuple[str, ...] = (), **options: object) -> ET.Element:
    game = variant(name).new_game()
    for move in moves:
        game.push(move)
    return ET.fromstring(render(game, **options))  # type: ignore[arg-type]


def numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)]


@pytest.mark.parametrize("pieces", ["traditional", "international"])
@pytest.mark.parametrize("name", LOOKED)
def test_bundled_looks_are_drawn(name: str, pieces: str) -> None:
    """Every cell is drawn once and stays clickable, every piece keeps its
    `data-piece`, the SVG is plain ASCII; the traditional set writes each
    piece's declared characters, the international set none."""
    game = variant(name).new_game()
    text = render(game, pieces=pieces)
    assert text.isascii()
    root = ET.fromstring(text)
    look = game.variant.rules.look
    assert look.board != "chequered"
    cells = [e.get("data-cell") for e in root.iter() if e.get("data-cell")
             and e.get("data-piece") is None]
    assert sorted(cells) == sorted(game.variant.board.names)
    placed = {e.get("data-cell"): e for e in root.iter() if e.get("data-piece")}
    occupied = {game.variant.board.names[c] for c, code in enumerate(game.position.cells) if code}
    assert set(placed) == occupied
    kinds = game.variant.pieces.types
    for name_of_cell, element in placed.items():
        code = game.position.cells[game.variant.board.index[name_of_cell]]
        written = "".join(t.text or "" for t in element.iter(f"{SVG}text"))
        expected = look.text(kinds[(code - 2) // 2], code & 1, "traditional")
        if pieces == "traditional" and expected is not None:
            assert written == expected
        else:
            assert written.isascii()


def test_xiangqi_stands_on_points_with_river_and_palaces() -> None:
    """The pieces sit on the points where the lines cross; no line crosses
    the river except the two edge files; the palaces have their diagonals;
    each cell is the square around its point, see-through until marked."""
    root = drawing("xiangqi", ("h3e3",))
    board = variant("xiangqi").board
    geo = cell_geometry(board, facing=[0])
    anchor = {name: geo.shapes[board.index[name]].anchor for name in board.names}
    for piece in root.iter():
        if piece.get("data-piece"):
            assert tuple(numbers(piece.get("transform", ""))) == pytest.approx(
                anchor[piece.get("data-cell", "")])
    cells = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cells")
    assert cells.get("data-board") == "points"
    for rect in cells:
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        w, h = float(rect.get("width", 0)), float(rect.get("height", 0))
        assert (x + w / 2, y + h / 2) == pytest.approx(anchor[rect.get("data-cell", "")])
        assert rect.get("fill-opacity") == ("0.5" if rect.get("data-mark") else "0")
    assert {r.get("data-cell") for r in cells if r.get("data-mark")} == {"h3", "e3"}
    lines = [numbers(" ".join(line.get(k, "") for k in ("x1", "y1", "x2", "y2")))
             for g in root.iter(f"{SVG}g") if g.get("class") == "grid-lines" for line in g]
    river_y = (anchor["a5"][1] + anchor["a6"][1]) / 2
    crossing = sorted(x1 for x1, y1, x2, y2 in lines if min(y1, y2) < river_y < max(y1, y2))
    assert crossing == [anchor["a5"][0], anchor["i5"][0]]
    assert len(lines) == 10 * 8 + 9 * 9 - 7  # ranks, files, less the river's inner files
    diagonals = [numbers(" ".join(line.get(k, "") for k in ("x1", "y1", "x2", "y2")))
                 for g in root.iter(f"{SVG}g") if g.get("class") == "diagonals" for line in g]
    assert [*anchor["d1"], *anchor["f3"]] in diagonals
    assert [*anchor["d10"], *anchor["f8"]] in diagonals
    assert len(diagonals) == 4
    river = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "river"]
    assert river == ["楚 河　　漢 界"]


def test_minixiangqi_has_palaces_but_no_river() -> None:
    root = drawing("minixiangqi")
    assert not [t for t in root.iter(f"{SVG}text") if t.get("class") == "river"]
    lines = [line for g in root.iter(f"{SVG}g") if g.get("class") == "grid-lines" for line in g]
    assert len(lines) == 7 * 6 * 2


def test_shogi_pentagons_point_towards_the_opponent() -> None:
    """White's pentagons point up, Black's down, and the other way round
    from Black's side; a promoted piece is written in red; the four star
    points are at the corners of the middle nine squares."""
    for flip in (False, True):
        root = drawing("shogi", ("c3c4", "g7g6", "b2h8+"), flip=flip)
        for piece in root.iter():
            if piece.get("data-piece"):
                turned = piece[0].get("transform") == "rotate(180)"
                black = (piece.get("data-piece") or "").islower()
                assert turned == (black != flip), piece.get("data-cell")
        horse = next(e for e in root.iter() if e.get("data-piece") == "+B")
        assert [t.get("fill") for t in horse.iter(f"{SVG}text")] == [RED]
        pawn = next(e for e in root.iter() if e.get("data-piece") == "P")
        assert [t.get("fill") for t in pawn.iter(f"{SVG}text")] != [RED]
    board = variant("shogi").board
    geo = cell_geometry(board)
    d4, f6 = (geo.shapes[board.index[n]] for n in ("d4", "f6"))
    assert isinstance(d4, Rect) and isinstance(f6, Rect)
    dots = {(float(c.get("cx", 0)), float(c.get("cy", 0))) for g in root.iter(f"{SVG}g")
            if g.get("class") == "board-marks" for c in g.iter(f"{SVG}circle")}
    xs, ys = (d4.x, f6.x + f6.width), (f6.y, d4.y + d4.height)
    assert dots == {(x, y) for x in xs for y in ys}


def test_hands_use_the_same_pieces() -> None:
    """A piece in hand is drawn as on the board: a pentagon with its characters."""
    root = drawing("shogi", ("c3c4", "g7g6", "b2h8+"))
    held = next(e for e in root.iter() if e.get("data-hand-piece") == "B")
    assert len(list(held.iter(f"{SVG}polygon"))) == 1
    assert next(t.text for t in held.iter(f"{SVG}text")) == "角"


def test_the_international_set_shows_figures_and_letters() -> None:
    root = drawing("xiangqi", pieces="international")
    king = next(e for e in root.iter() if e.get("data-piece") == "K")
    assert not list(king.iter(f"{SVG}text")) and list(king.iter(f"{SVG}path"))
    advisor = next(e for e in root.iter() if e.get("data-piece") == "a")
    assert [t.text for t in advisor.iter(f"{SVG}text")] == ["A"]
    with pytest.raises(ValueError, match="unknown piece set 'kanji'"):
        render(variant("xiangqi").new_game(), pieces="kanji")


def starts(row: str) -> list[int]:
    """Where each symbol of a text row starts, in terminal cells."""
    out, at, previous = [], 0, " "
    for char in row:
        if char != " " and previous == " ":
            out.append(at)
        at += cell_len(char)
        previous = char
    return out


def test_terminal_writes_the_characters_in_aligned_columns() -> None:
    text = board_text(variant("xiangqi").new_game(), pieces="traditional")
    rows = text.splitlines()[:10]
    assert rows[-1].split()[1:] == list("俥傌相仕帥仕相傌俥")
    assert len({tuple(starts(row)[1:]) for row in rows}) == 1  # after the rank label
    shogi = board_text(variant("shogi").new_game(), pieces="traditional")
    assert "v歩" in shogi and "歩" in shogi.splitlines()[7]
    assert board_text(variant("shogi").new_game()) == board_text(
        variant("shogi").new_game(), pieces="international")
    assert "歩" not in board_text(variant("shogi").new_game())
    with pytest.raises(ValueError, match="unknown piece set"):
        board_text(variant("shogi").new_game(), pieces="kanji")


BAD_LOOKS = [
    ("inherits: diplomat\nlook: {board: points}\n", "look-board", 2, 15),
    ("inherits: chess\nlook:\n  river: {between: [rank-1, rank-8]}\n", "look-needs-points",
     3, 3),
    ("inherits: xiangqi\nlook:\n  river: {between: [palace-white, palace-black]}\n",
     "look-river", 3, 11),
    ("inherits: xiangqi\nlook:\n  diagonals: [palace-white, palace]\n", "unknown-region",
     3, 29),
    ("inherits: xiangqi\nlook:\n  pieces:\n    characters: {dragon: X}\n", "unknown-piece",
     4, 18),
    ("inherits: chess\nlook:\n  pieces:\n    characters: {queen: {international: Q}}\n",
     "look-characters", 4, 18),
    ("inherits: shogi\nlook:\n  pieces: {shape: hexagons}\n", "schema", 3, 19),
    ("inherits: shogi\nlook:\n  pieces:\n    characters: {gold: 金金金}\n", "schema",
     4, 24),
]


@pytest.mark.parametrize(("body", "rule", "line", "column"), BAD_LOOKS,
                         ids=[rule for _, rule, _, _ in BAD_LOOKS])
def test_a_bad_look_is_a_located_problem(body: str, rule: str, line: int, column: int) -> None:
    text = "variantkit: 1\nname: looks\n" + body
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(text)
    problems = [p for p in caught.value.problems if p.rule == rule]
    assert problems, [str(p) for p in caught.value.problems]
    assert (problems[0].line - 2, problems[0].column) == (line, column)


def test_a_look_changes_no_rule() -> None:
    """The drawing is the look's only reader: the same game without it has
    the same moves."""
    plain = variantkit.load_text("variantkit: 1\nname: plain\ninherits: xiangqi\n"
                                 "remove: [look]\n")
    assert plain.rules.look.board == "chequered" and not plain.rules.look.characters
    game = variant("xiangqi").new_game()
    assert sorted(map(str, plain.new_game().legal_moves())) == sorted(
        map(str, game.legal_moves()))
    assert len(list(game.legal_moves())) == 44


def test_the_playground_asks_for_a_piece_set() -> None:
    """The position and explain tasks draw the set asked for, say whether
    the variant has characters to switch from, and refuse an unknown set."""
    general = f"&#{ord('帥')};"
    xiangqi = {"source": {"bundled": "xiangqi"}}
    drawn = tasks.position(xiangqi)
    assert drawn["piece_sets"] and general in drawn["svg"]
    assert general not in tasks.position({**xiangqi, "pieces": "international"})["svg"]
    assert general not in tasks.explain({**xiangqi, "cell": "e1",
                                         "pieces": "international"})["svg"]
    assert not tasks.position({"source": {"bundled": "chess"}})["piece_sets"]
    with pytest.raises(RequestError, match="'pieces' should be one of"):
        tasks.position({**xiangqi, "pieces": "kanji"})
