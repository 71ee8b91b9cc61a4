"""The engine in the real XBoard GUI (Debian's `xboard` under `xvfb-run`,
which `make engines` installs): short matches of `variantkit xboard`
against Debian's Fairy-Max in chess, MaxQi in xiangqi (ten ranks, which
XBoard counts from 0) and itself in shogi (promotions and drops), and
from a blocked chess position whose draw the engines must claim, XBoard
testing every claim (`-testClaims`, on by default).  Each saved game must
end by the rules or XBoard's own adjudication: no forfeit for an illegal
or invalid move, no false claim, no fallen flag.

The matches run at once in one virtual display, each bounded by a
timeout; the test is in the Makefile's SERIAL_TESTS, as it keeps both
cores busy for about a minute."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent.parent
SEARCH_PATH = os.environ.get("PATH", "") + os.pathsep + "/usr/games"
XBOARD = shutil.which("xboard", path=SEARCH_PATH)
XVFB_RUN = shutil.which("xvfb-run", path=SEARCH_PATH)
FAIRYMAX = shutil.which("fairymax", path=SEARCH_PATH)
MAXQI = shutil.which("maxqi", path=SEARCH_PATH)
ENGINE = f"{shlex.quote(sys.executable)} -m variantkit xboard"
# Seconds one match may take (two games of at most ADJUDICATE_AFTER moves
# a side at 10 s + 0.2 s a move); the whole test waits this long at most.
MATCH_SECONDS = 170
ADJUDICATE_AFTER = 20
# A chess position no side can win: the kings cannot pass the blocked
# pawns, so the game ends by a repetition or the move rule, claimed.
BLOCKADE = "8/8/1k6/p1p1p1p1/P1P1P1P1/1K6/8/8 w - - 0 1"
# What XBoard writes in a result comment when it forfeits an engine or a
# flag falls (its backend's messages).
FORFEITS = ("Forfeit", "False", "llegal", "flag fell", "wins on time")


@dataclass
class Match:
    """One XBoard match of the engine (first) against `opponent`."""

    name: str
    variant: str
    opponent: str
    options: tuple[str, ...] = ()
    adjudicate_after: int = ADJUDICATE_AFTER

    def command(self, folder: Path) -> list[str]:
        return ["timeout", "-k", "5", str(MATCH_SECONDS), str(XBOARD),
                "-fcp", ENGINE, "-fd", str(REPOSITORY), "-scp", self.opponent,
                "-variant", self.variant, "-mg", "2",
                "-tc", "0:10", "-inc", "0.2", "-autoCallFlag", "true", "-xponder",
                "-xexit", "-saveSettingsOnExit", "false",
                "-adjudicateDrawMoves", str(self.adjudicate_after),
                "-saveGameFile", str(folder / f"{self.name}.pgn"),
                "-debug", "-nameOfDebugFile", str(folder / f"{self.name}.debug"),
                *self.options]


def results(pgn: str) -> list[tuple[str, str]]:
    """Each game's result comment and result (`{comment} 1-0`)."""
    return re.findall(r"\{([^{}]*)\}\s*(1-0|0-1|1/2-1/2|\*)\s*(?=\[|$)", pgn)


@pytest.mark.skipif(XBOARD is None or XVFB_RUN is None,
                    reason="XBoard or xvfb-run is not installed (make engines)")
def test_matches_under_the_real_xboard(tmp_path: Path) -> None:
    blockade = tmp_path / "blockade.fen"
    blockade.write_text(BLOCKADE + "\n", encoding="utf-8")
    matches = [Match("shogi", "shogi", ENGINE)]
    if FAIRYMAX is not None:
        matches += [Match("chess", "normal", FAIRYMAX),
                    Match("blockade", "normal", FAIRYMAX, ("-lpf", str(blockade)), 60)]
    if MAXQI is not None:
        matches.append(Match("xiangqi", "xiangqi", MAXQI))
    script = " & ".join(shlex.join(match.command(tmp_path)) for match in matches) + " & wait"
    # XBoard keeps its settings in the home folder: a scratch one.
    env = {**os.environ, "HOME": str(tmp_path)}
    run = subprocess.run([str(XVFB_RUN), "-a", "sh", "-c", script], env=env,
                         capture_output=True, text=True, timeout=MATCH_SECONDS + 30)
    for match in matches:
        saved = tmp_path / f"{match.name}.pgn"
        assert saved.exists(), (match.name, run.stdout[-2000:], run.stderr[-2000:])
        pgn = saved.read_text(encoding="utf-8", errors="replace")
        ended = results(pgn)
        assert len(ended) == 2, (match.name, pgn[-3000:])
        for comment, token in ended:
            assert token != "*", (match.name, comment)
            assert not any(word in comment for word in FORFEITS), (match.name, comment)
        assert pgn.count("variantkit") >= 2, match.name   # the engine played both games
    if FAIRYMAX is not None:
        # The blocked position ends drawn, by a claim XBoard found true
        # (the engine's own among them: a draw claimed one move early
        # was a false claim, and lost).
        pgn = (tmp_path / "blockade.pgn").read_text(encoding="utf-8", errors="replace")
        assert all(token == "1/2-1/2" for _, token in results(pgn)), pgn[-3000:]
        debug = (tmp_path / "blockade.debug").read_text(encoding="utf-8", errors="replace")
        assert re.search(r"<first : 1/2-1/2 \{draw by (repetition|move rule)", debug), \
            debug[-3000:]
