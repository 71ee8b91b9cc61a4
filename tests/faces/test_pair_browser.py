"""Bughouse in the playground, in a real browser (tests/faces/test_web_browser.py
starts the server and Debian's Chromium; its fixtures are used here): both
boards side by side, moves clicked on either board, a capture passing to the
partner's hand and dropped from it, a pair's position string set, and the
result once a board ends."""

from __future__ import annotations

from typing import Any

import pytest
import test_web_browser as web
from test_web_browser import Cell, open_variant, screenshot

from variantkit.pair import load_pair

# Without Playwright the module is skipped (CI installs it, as for the other
# browser tests).
expect = pytest.importorskip("playwright.sync_api").expect
Page = Any

# The browser tests' fixtures: the playground's server, Chromium, a page.
browser, server, page = web.browser, web.server, web.page

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
# Board A: fool's mate on the board, Black's queen one move from mate.
FOOLS = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR[] b KQkq - 0 2"


def on(page: Page, board: str, name: str) -> Cell:
    """The cell `name` of board `board`, clicked where a person would."""
    found = Cell(page, name)
    found.locator = page.locator(
        f'#board svg[data-pair-board="{board}"] g.cells [data-cell="{name}"]')
    return found


def in_hand(page: Page, board: str, letter: str) -> object:
    return page.locator(f'#board svg[data-pair-board="{board}"] [data-hand-piece="{letter}"]')


def move(page: Page, board: str, frm: str, to: str) -> None:
    """Select the piece on `frm` of `board`, then click `to`: one more move."""
    plies = page.locator('[data-testid="moves"] li').count()
    on(page, board, frm).click()
    expect(on(page, board, frm).locator).to_have_attribute("data-mark", "highlight")
    on(page, board, to).click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(plies + 1)


def test_bughouse_by_clicks_on_both_boards(page: Page, server: str) -> None:
    open_variant(page, server, "bughouse")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-pair", "true")
    # Board B is turned: its first rank at the top, as its Black sits beside A's White.
    a1, b1 = on(page, "B", "a1").locator.bounding_box(), on(page, "B", "a8").locator.bounding_box()
    assert a1 is not None and b1 is not None and a1["y"] < b1["y"]
    move(page, "A", "e2", "e4")
    move(page, "A", "d7", "d5")
    # A's White may move on, B's White too: both boards run at once.
    on(page, "A", "e4").click()
    expect(on(page, "A", "d5").locator).to_have_attribute("data-mark", "capture")
    on(page, "A", "d5").click()
    # The pawn taken on A joins the hand of Black, A's White's partner, on B.
    expect(in_hand(page, "B", "p")).to_have_attribute("data-count", "1")
    move(page, "B", "d2", "d4")
    in_hand(page, "B", "p").click()
    expect(on(page, "B", "e5").locator).to_have_attribute("data-mark", "drop")
    on(page, "B", "e5").click()
    expect(page.locator('[data-testid="moves"] li')).to_have_count(5)
    expect(in_hand(page, "B", "p")).to_have_count(0)
    pair = load_pair("bughouse")
    for text in ("A:e2e4", "A:d7d5", "A:e4d5", "B:d2d4", "B:P@e5"):
        pair.push_text(text)
    expect(page.get_by_test_id("fen")).to_have_value(pair.fen())
    assert page.locator('[data-testid="moves"] li button').all_inner_texts() == \
        ["1A. e4", "1a. d5", "2A. exd5", "1B. d4", "1b. P@e5"]
    screenshot(page, "bughouse-pair")
    # A pair's position string is accepted; a mate on A ends the game for both teams.
    page.get_by_test_id("fen").fill(f"{FOOLS} | {START}")
    page.get_by_test_id("fen").press("Enter")
    expect(page.locator('[data-testid="moves"] li')).to_have_count(0)
    move(page, "A", "d8", "h4")
    expect(page.get_by_test_id("status")).to_contain_text(
        "Board A: black wins by checkmate, so black's team wins")
