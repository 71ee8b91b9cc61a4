"""The playground in a real browser: `variantkit serve` started as a process
on a free port, Debian's headless Chromium driven by Playwright.

Every interaction is a person's: clicks on board cells, typing into the
editor, the buttons.  What the page shows is read back and compared with the
library's own answer for the same moves.  Screenshots of every kind of board
go to tests/screenshots/ (not versioned) for people to look at.

Without Chromium or Playwright the suite is skipped on a developer's machine
but fails under CI (CI=true), where `make test` must have installed them.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import variantkit
from variantkit.game import Game
from variantkit.web.sources import load_yaml_text
from variantkit.web.tasks import move_text

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 15_000  # milliseconds for anything the page waits on

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError:  # pragma: no cover - reported by the fixture below
    sync_playwright = None


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The playground's address; the server runs for this module's tests."""
    process = subprocess.Popen(
        [sys.executable, "-m", "variantkit", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        errors = process.stderr.read() if process.stderr and not match else ""
        assert match, f"serve printed {line!r}; stderr: {errors}"
        yield match[0]
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()
        if process.stderr:
            process.stderr.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if sync_playwright is None:
        unavailable("the playwright package is not installed")
    if not Path(CHROMIUM).exists():
        unavailable("chromium is not installed (make test installs it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    expect.set_options(timeout=TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def open_variant(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}?variant={name}")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-state", "ready")
    expect(board).to_have_attribute("data-variant", variantkit_name(name))


def variantkit_name(name: str) -> str:
    return name


# A point inside a cell's shape, as an offset in its bounding box: the box's
# centre lies outside a ring's sector, where a click would miss the cell.
INSIDE = """(shape) => {
  const box = shape.getBBox(), rect = shape.getBoundingClientRect();
  const point = shape.ownerSVGElement.createSVGPoint();
  const tries = [[0.5, 0.5]];
  for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) tries.push([i / 10, j / 10]);
  for (const [fx, fy] of tries) {
    point.x = box.x + fx * box.width;
    point.y = box.y + fy * box.height;
    if (shape.isPointInFill(point)) return {x: fx * rect.width, y: fy * rect.height};
  }
  return null;
}"""


class Cell:
    """A board cell, clicked where a person would: inside its shape."""

    def __init__(self, page: Page, name: str) -> None:
        self.locator = page.locator(f'#board g.cells [data-cell="{name}"]')

    def click(self) -> None:
        # The board is drawn anew after each answer: find the cell again
        # if it was replaced between finding the point and clicking.
        for attempt in range(3):
            try:
                self.locator.click(position=self.locator.evaluate(INSIDE))
                return
            except PlaywrightError:
                if attempt == 2:
                    raise

    def focus(self) -> None:
        self.locator.focus()


def cell(page: Page, name: str) -> Cell:
    return Cell(page, name)


def cell_of(page: Page, name: str) -> Any:
    return Cell(page, name).locator


def click_move(page: Page, frm: str, to: str) -> None:
    """Select the piece on `frm`, see `to` marked, click it."""
    plies = page.locator('[data-testid="moves"] li').count()
    cell(page, frm).click()
    expect(cell_of(page, frm)).to_have_attribute("data-mark", "highlight")
    cell(page, to).click()
    if page.locator("#chooser").is_visible():
        return
    expect(page.locator('[data-testid="moves"] li')).to_have_count(plies + 1)


def shown_moves(page: Page) -> list[str]:
    return [text.strip() for text in
            page.locator('[data-testid="moves"] li button').all_inner_texts()]


def box(page: Page, name: str) -> dict[str, float]:
    found = cell_of(page, name).bounding_box()
    assert found is not None
    return dict(found)


def fen(page: Page) -> str:
    return page.get_by_test_id("fen").input_value()


def replay(name: str, moves: list[str], start: str | None = None) -> tuple[Game, list[str]]:
    """The library's game after `moves`, and the move list's texts for them."""
    game = variantkit.load(name).new_game(start)
    texts = []
    for text in moves:
        move = next(m for m in game.legal_moves() if str(m) == text)
        texts.append(move_text(game, move))
        game.push(move)
    return game, texts


def set_position(page: Page, text: str) -> None:
    page.get_by_test_id("fen").fill(text)
    page.get_by_test_id("fen").press("Enter")
    # The board's title names the position it draws.
    expect(page.locator("#board svg title")).to_contain_text(text)


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_chess_opening_by_clicking_cells(page: Page, server: str) -> None:
    open_variant(page, server, "chess")
    expect(page.get_by_test_id("status")).to_have_text("White to move")
    # The knight's destinations are marked as moves before it moves.
    cell(page, "g1").click()
    expect(cell_of(page, "f3")).to_have_attribute("data-mark", "move")
    expect(cell_of(page, "h3")).to_have_attribute("data-mark", "move")
    cell(page, "g1").click()  # a second click lets go of the piece
    expect(cell_of(page, "f3")).not_to_have_attribute("data-mark", "move")
    for frm, to in [("e2", "e4"), ("e7", "e5"), ("g1", "f3")]:
        click_move(page, frm, to)
    game, texts = replay("chess", ["e2e4", "e7e5", "g1f3"])
    assert shown_moves(page) == texts == ["e4", "e5", "Nf3"]
    assert fen(page) == game.fen()
    expect(page.get_by_test_id("status")).to_have_text("Black to move")
    screenshot(page, "chess-grid")

    # The move list takes the board back to an earlier position.
    page.locator('[data-testid="moves"] button[data-ply="1"]').click()
    expect(page.get_by_test_id("fen")).to_have_value(replay("chess", ["e2e4"])[0].fen())
    # Perft and explain on demand, from that position.
    page.locator("#perft-depth").fill("2")
    page.get_by_test_id("perft").click()
    expect(page.get_by_test_id("analysis")).to_contain_text("perft 2: 600 nodes")
    cell(page, "g8").click()
    page.get_by_test_id("explain").click()
    expect(page.get_by_test_id("analysis")).to_contain_text("black knight (n) on g8")
    expect(page.get_by_test_id("analysis")).to_contain_text("legal moves now (2): f6 h6")


def test_capture_marks_and_take_back(page: Page, server: str) -> None:
    open_variant(page, server, "chess")
    start = fen(page)
    for frm, to in [("e2", "e4"), ("d7", "d5")]:
        click_move(page, frm, to)
    cell(page, "e4").click()
    expect(cell_of(page, "d5")).to_have_attribute("data-mark", "capture")
    expect(cell_of(page, "e5")).to_have_attribute("data-mark", "move")
    expect(page.locator('#board [data-target="capture"]')).to_have_count(1)
    page.get_by_test_id("takeback").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(1)
    page.get_by_test_id("takeback").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(0)
    assert fen(page) == start
    # Flipped, Black's side is at the bottom.
    assert box(page, "e2")["y"] > box(page, "e7")["y"]
    page.locator("#flip").click()
    page.wait_for_function("""() => {
        const e2 = document.querySelector('#board g.cells [data-cell="e2"]');
        const e7 = document.querySelector('#board g.cells [data-cell="e7"]');
        return e2.getBoundingClientRect().y < e7.getBoundingClientRect().y;
    }""")


def test_keyboard_moves(page: Page, server: str) -> None:
    open_variant(page, server, "chess")
    cell(page, "d2").focus()
    page.keyboard.press("Enter")
    expect(cell_of(page, "d2")).to_have_attribute("data-mark", "highlight")
    cell(page, "d4").focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-testid="moves"] li')).to_have_count(1)
    page.get_by_test_id("move-input").fill("d5")  # SAN, or a move string
    page.get_by_test_id("move-input").press("Enter")
    expect(page.get_by_test_id("fen")).to_have_value(replay("chess", ["d2d4", "d7d5"])[0].fen())


def test_suborn_on_diplomat(page: Page, server: str) -> None:
    open_variant(page, server, "diplomat")
    screenshot(page, "diplomat-disk")
    start = "2BKRD3bkrd1/1PPPP2hppp1pH/5P5p2/1 b - - 2 4"
    set_position(page, start)
    cell(page, "m1").click()
    expect(cell_of(page, "n2")).to_have_attribute("data-mark", "suborn")
    expect(page.locator('#board [data-target="suborn"]')).to_have_count(1)
    cell(page, "n2").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(1)
    game, texts = replay("diplomat", ["m1~n2"], start)
    assert shown_moves(page) == texts == ["D~n2"]
    assert fen(page) == game.fen()
    screenshot(page, "diplomat-suborn")


def test_plane_shift_on_strato(page: Page, server: str) -> None:
    open_variant(page, server, "strato")
    screenshot(page, "strato-planes")
    # Knights leap onto plane B; then the rook climbs from plane A to B.
    click_move(page, "Ab1", "Bc3")
    click_move(page, "Cb8", "Bc6")
    click_move(page, "Aa1", "Ba1")
    game, texts = replay("strato", ["Ab1Bc3", "Cb8Bc6", "Aa1Ba1"])
    assert shown_moves(page) == texts
    assert fen(page) == game.fen()


def test_hex_and_cube_examples(page: Page, server: str) -> None:
    for name in ("glinski", "raumschach"):
        open_variant(page, server, name)
        size = variantkit.load(str(Path(__file__).parent.parent.parent / "examples" /
                                   f"{name}.yaml")).board.size
        expect(page.locator("#board g.cells [data-cell]")).to_have_count(size)
        screenshot(page, f"{name}-{'hex' if name == 'glinski' else 'cube'}")


def test_promotion_chooser(page: Page, server: str) -> None:
    open_variant(page, server, "chess")
    set_position(page, "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    cell(page, "a7").click()
    expect(cell_of(page, "a8")).to_have_attribute("data-mark", "move")
    cell(page, "a8").click()
    chooser = page.locator("#chooser")
    expect(chooser).to_be_visible()
    expect(chooser.locator("#choices button")).to_have_count(4)
    screenshot(page, "promotion-chooser")
    chooser.get_by_role("button", name="knight").click()
    expect(chooser).to_be_hidden()
    game, _ = replay("chess", ["a7a8n"], "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    expect(page.get_by_test_id("fen")).to_have_value(game.fen())


def test_yaml_typo_is_located_and_fixed(page: Page, server: str) -> None:
    open_variant(page, server, "chess")
    editor = page.get_by_test_id("yaml")
    original = editor.input_value()
    broken = original.replace("resets-clock:", "resets-clok:", 1)
    assert broken != original
    line = broken[:broken.index("resets-clok:")].count("\n") + 1
    column = broken[:broken.index("resets-clok:")].split("\n")[-1].__len__() + 1
    editor.fill(broken)
    problem = page.locator('[data-testid="problems"] li[data-rule="unknown-key"]')
    expect(problem).to_have_attribute("data-line", str(line))
    expect(problem).to_contain_text(f"line {line}, column {column}")
    expect(problem).to_contain_text("did you mean 'resets-clock'")
    # The line is marked beside the text too.
    expect(page.locator(f'#gutter [data-line="{line}"]')).to_have_class("problem")
    expect(page.locator("#gutter .problem")).to_have_count(1)
    expect(page.locator("#board")).to_have_attribute("data-state", "stale")
    screenshot(page, "yaml-problem")
    editor.fill(original)
    expect(page.locator('[data-testid="problems"] li')).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-state", "ready")
    expect(page.locator("#board")).to_have_attribute("data-source", "file")

    # An edit that changes the game: a king that also leaps like a knight.
    edited = original.replace("      - step: all\n", "      - step: all\n      - leap: [1, 2]\n", 1)
    assert edited != original
    editor.fill(edited)
    expect(page.locator("#board")).to_have_attribute("data-source", "editor")
    cell(page, "e1").click()
    expect(cell_of(page, "f3")).to_have_attribute("data-mark", "move")
    assert load_yaml_text(edited).new_game().fen() == fen(page)

    # A path in `inherits` is refused: only bundled parents.
    editor.fill("variantkit: 1\nname: sneaky\ninherits: ../../etc/passwd\n")
    expect(page.locator('[data-testid="problems"] li[data-rule="inherit-not-found"]')) \
        .to_have_attribute("data-line", "3")


def test_engine_replies(page: Page, server: str) -> None:
    open_variant(page, server, "chess")
    page.locator("#engine-amount").fill("2")
    page.get_by_test_id("engine-side").select_option("black")
    click_move(page, "e2", "e4")
    expect(page.locator('[data-testid="moves"] li')).to_have_count(2)
    expect(page.get_by_test_id("engine-info")).to_contain_text("depth 2")
    expect(page.get_by_test_id("status")).to_have_text("White to move")
    # Asked directly, the engine moves for the side to move.
    page.get_by_test_id("engine-side").select_option("")
    page.get_by_test_id("engine-move").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(3)
    # Against the engine, a take back removes its move and the player's.
    page.get_by_test_id("engine-side").select_option("white")
    page.get_by_test_id("takeback").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(1)
    expect(page.get_by_test_id("status")).to_have_text("Black to move")


def test_engine_shows_its_thinking_and_stops(page: Page, server: str) -> None:
    # Grand chess, the longest search the page allows: the engine reaches the
    # page's depth cap (8) from chess's start in 0.6 s and plays, from
    # grand's in about 7 s, and it stops a new iteration at half its time.
    open_variant(page, server, "grand")
    page.locator("#engine-limit").select_option("seconds")
    page.locator("#engine-amount").fill("10")
    page.get_by_test_id("engine-move").click()
    # Depth, evaluation and main line appear while it thinks...
    expect(page.get_by_test_id("engine-info")).to_have_text(
        re.compile(r"^depth \d+ · [-+]\d+\.\d\d · \S+"))
    # ... the page answers meanwhile ...
    cell(page, "b2").click()
    expect(cell_of(page, "c4")).to_have_attribute("data-mark", "move")
    # ... and Stop ends the search without a move.
    page.locator("#engine-stop").click()
    expect(page.get_by_test_id("engine-info")).to_have_text("stopped")
    page.wait_for_timeout(1000)
    expect(page.locator('[data-testid="moves"] li')).to_have_count(0)


def test_export_pgn(page: Page, server: str) -> None:
    open_variant(page, server, "chess")
    click_move(page, "e2", "e4")
    with page.expect_download() as download:
        page.locator("#export-pgn").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert '[Variant "chess"]' in text
    assert re.search(r"1\. \S+ \*", text), text


def test_phone_width(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}?variant=diplomat")
    expect(page.locator("#board")).to_have_attribute("data-state", "ready", timeout=TIMEOUT)
    width = page.evaluate("document.documentElement.scrollWidth")
    board = page.locator("#board svg").bounding_box()
    screenshot(page, "phone-diplomat")
    context.close()
    assert width <= 390, f"the page scrolls sideways at phone width ({width} px)"
    assert board is not None and board["width"] >= 300


def test_drops_from_the_hands(page: Page, server: str) -> None:
    """Crazyhouse: the hands beside the board; a click on a piece in hand
    marks its drops, a click on a marked cell drops it; the keyboard too."""
    open_variant(page, server, "crazyhouse")
    held = "r3k2r/8/8/8/8/8/8/R3K2R[QNPPr] w KQkq - 0 1"
    set_position(page, held)
    knight = page.locator('#board [data-hand-piece="N"]')
    expect(knight).to_have_attribute("data-count", "1")
    expect(page.locator('#board [data-hand-piece="P"]')).to_have_attribute("data-count", "2")
    # White's hand is under the board, Black's over it.
    rook = page.locator('#board [data-hand-piece="r"]').bounding_box()
    assert rook is not None and knight.bounding_box() is not None
    assert rook["y"] < box(page, "a8")["y"] < box(page, "a1")["y"] < knight.bounding_box()["y"]
    knight.click()
    expect(page.locator('#board [data-hand-piece="N"]')).to_have_attribute(
        "data-mark", "highlight")
    expect(cell_of(page, "f3")).to_have_attribute("data-mark", "drop")
    screenshot(page, "crazyhouse-drop-targets")
    page.get_by_test_id("explain").click()
    expect(page.get_by_test_id("analysis")).to_contain_text("white knight (N) in hand (1)")
    cell(page, "f3").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(1)
    expect(page.locator('#board [data-hand-piece="N"]')).to_have_count(0)
    # Black drops its rook with the keyboard alone.
    page.locator('#board [data-hand-piece="r"]').focus()
    page.keyboard.press("Enter")
    expect(cell_of(page, "e4")).to_have_attribute("data-mark", "drop")
    cell(page, "e4").focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-testid="moves"] li')).to_have_count(2)
    game, texts = replay("crazyhouse", ["N@f3", "R@e4"], held)
    assert shown_moves(page) == texts == ["N@f3", "R@e4+"]
    assert fen(page) == game.fen()
    # A drop typed as SAN blocks the check.
    page.get_by_test_id("move-input").fill("P@e2")
    page.get_by_test_id("move-input").press("Enter")
    expect(page.locator('[data-testid="moves"] li')).to_have_count(3)
    expect(page.locator('#board [data-hand-piece="P"]')).to_have_attribute("data-count", "1")
    screenshot(page, "crazyhouse-hands")


def test_boards_drawn_as_their_players_know_them(page: Page, server: str) -> None:
    """Xiangqi's pieces stand on points and are played by clicking the area
    around a point; the piece set switches between characters and figures;
    shogi's pentagons are clicked like any piece, and chess has no switch."""
    open_variant(page, server, "xiangqi")
    board = page.locator("#board")
    expect(board.locator('g.cells[data-board="points"]')).to_have_count(1)
    expect(board.locator('[data-piece="K"] text')).to_have_text("\u5e25")
    for frm, to in [("h3", "e3"), ("h10", "g8")]:
        click_move(page, frm, to)
    game, texts = replay("xiangqi", ["h3e3", "h10g8"])
    assert shown_moves(page) == texts
    assert fen(page) == game.fen()
    screenshot(page, "xiangqi-points")
    switch = page.get_by_test_id("piece-set")
    expect(switch).to_be_visible()
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(board.locator('[data-piece="K"] text')).to_have_count(0)  # the king's figure
    expect(board.locator('[data-piece="A"] text').first).to_have_text("A")
    screenshot(page, "xiangqi-international")
    click_move(page, "e3", "e7")  # the cannon captures, figures or characters alike
    assert fen(page) == replay("xiangqi", ["h3e3", "h10g8", "e3e7"])[0].fen()

    open_variant(page, server, "shogi")
    expect(board.locator('g.cells[data-board="plain"]')).to_have_count(1)
    click_move(page, "c3", "c4")
    expect(board.locator('[data-piece="P"][data-cell="c4"] polygon')).to_have_count(1)
    screenshot(page, "shogi-pentagons")
    open_variant(page, server, "chess")
    expect(page.get_by_test_id("piece-set")).to_be_hidden()


def test_a_duck_move_and_its_wall_by_clicks(page: Page, server: str) -> None:
    """Duck chess: the piece, its destination, then the wall's cell among
    those marked; Escape lets go of a move waiting for its wall."""
    open_variant(page, server, "duck")
    walls = page.locator('#board g.cells [data-mark="drop"]')
    cell(page, "e2").click()
    cell(page, "e4").click()
    expect(walls).to_have_count(32)  # the empty cells, e2 among them
    expect(cell_of(page, "e4")).to_have_attribute("data-mark", "highlight")
    expect(page.locator("#chooser")).to_be_hidden()
    expect(page.get_by_test_id("status")).to_contain_text("place the wall")
    screenshot(page, "duck-wall-targets")
    cell(page, "e6").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(1)
    expect(page.locator('#board [data-wall="e6"]')).to_have_count(1)
    # Black's move waits for its wall; Escape lets go of it.
    cell(page, "d7").click()
    cell(page, "d5").click()
    expect(cell_of(page, "d7")).to_have_attribute("data-mark", "drop")
    page.keyboard.press("Escape")
    expect(walls).to_have_count(0)
    cell(page, "d7").click()
    cell(page, "d5").click()
    cell(page, "d7").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(2)
    game, texts = replay("duck", ["e2e4,e4e6", "d7d5,d5d7"])
    assert shown_moves(page) == texts
    assert fen(page) == game.fen()


def test_a_flipello_drop_by_a_click_on_its_cell(page: Page, server: str) -> None:
    """A disc is dropped by a click on an empty cell it may go to, the
    discs it encloses turned over."""
    open_variant(page, server, "flipello")
    expect(page.locator('#board g.cells [data-mark="drop"]')).to_have_count(4)
    expect(cell_of(page, "e3")).to_have_attribute("data-mark", "drop")
    cell(page, "e3").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(1)
    game, texts = replay("flipello", ["P@e3"])
    assert shown_moves(page) == texts
    assert fen(page) == game.fen()
    screenshot(page, "flipello-drop")
