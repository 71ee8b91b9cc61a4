"""Tests of the engine protocols (variantkit.protocols): UCI, CECP and USI
transcripts checked line by line, searches stopped from the GUI, hostile
input answered in each protocol's own form, and the USI notation."""

from __future__ import annotations

import io
import random
import re
import time
from pathlib import Path

import pytest

import variantkit
from variantkit.protocols import host
from variantkit.protocols.channel import MAX_LINE, Channel
from variantkit.protocols.uci import UciSession
from variantkit.protocols.usi import UsiDialect, fen_to_sfen, sfen_to_fen
from variantkit.protocols.xboard import XboardSession

INFO = (r"info depth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+( hashfull \d+)? "
        r"time \d+ pv .+")


def session_of(kind: str) -> tuple[UciSession | XboardSession, io.StringIO]:
    out = io.StringIO()
    channel = Channel(io.BytesIO(), out)
    if kind == "xboard":
        return XboardSession(channel), out
    return UciSession(channel, UsiDialect() if kind == "usi" else None), out


def transcript(kind: str, *lines: str) -> list[str]:
    """What a session answers to `lines`, each search let run to its end."""
    session, out = session_of(kind)
    for line in lines:
        session.command(line)
        if session.thinking is not None and "infinite" not in line and "ponder" not in line:
            session.thinking.wait()
    return out.getvalue().splitlines()


def expect(lines: list[str], patterns: list[str]) -> None:
    """Each line matches its pattern, in order and no more."""
    assert len(lines) == len(patterns), lines
    for line, pattern in zip(lines, patterns, strict=True):
        assert re.fullmatch(pattern, line), (line, pattern)


def test_uci_handshake_lists_every_variant() -> None:
    lines = transcript("uci", "uci", "isready")
    expect(lines, [r"id name variantkit .+", r"id author .+",
                   r"option name UCI_Variant type combo default chess( var \S+)+",
                   r"option name VariantPath type string default <empty>",
                   r"option name Ponder type check default false",
                   "option name MultiPV type spin default 1 min 1 max 500",
                   "option name UCI_Chess960 type check default false",
                   "option name Hash type spin default 400 min 1 max 4096",
                   "option name Clear Hash type button",
                   "option name Skill Level type spin default 20 min 0 max 20",
                   "option name UCI_LimitStrength type check default false",
                   "option name UCI_Elo type spin default 1789 min 1315 max 1789",
                   "uciok", "readyok"])
    assert lines[2].split(" var ")[1:] == variantkit.variants()


def test_uci_search_to_a_depth() -> None:
    lines = transcript("uci", "ucinewgame", "position startpos moves e2e4 e7e5", "go depth 3")
    # An info line per iteration, then a last one as the search ended.
    expect(lines, [INFO] * 4 + [r"bestmove \S+ ponder \S+"])
    last = lines[-2].split()
    assert last[last.index("depth") + 1] == "3"
    assert last[last.index("pv") + 1:][:2] == lines[-1].split()[1::2]
    game = variantkit.load("chess").new_game()
    game.push("e2e4")
    game.push("e7e5")
    best, ponder = lines[-1].split()[1::2]
    game.push(best)
    assert ponder in {str(m) for m in game.legal_moves()}
    assert lines[2].split(" pv ")[1].split()[0] == best


def test_uci_variant_and_clock() -> None:
    lines = transcript("uci", "setoption name UCI_Variant value capablanca",
                       "position startpos", "go wtime 2000 btime 2000 winc 100 binc 100 depth 2")
    game = variantkit.load("capablanca").new_game()
    assert lines[-1].split()[1] in {str(m) for m in game.legal_moves()}


def test_uci_errors_are_info_strings() -> None:
    lines = transcript("uci", "frobnicate now", "setoption name UCI_Variant value nosuch",
                       "setoption name Colour value red", "setoption bad",
                       "position fen 8/8 w", "position startpos moves e2e4 e2e4",
                       "position sideways", "go depth x nodes 50", "go depth 1")
    expect(lines[:8], [
        "info string unknown command: frobnicate now", "info string unknown variant: nosuch",
        "info string unknown option: Colour", "info string malformed setoption: bad",
        r"info string position refused: .*2 rows.*",
        "info string illegal move e2e4 in position; the moves before it kept",
        "info string malformed position: sideways", "info string go depth: a number expected"])
    # The malformed go still searched, within its node limit, in the
    # position kept: the one after 1. e4; its bad number was reported once.
    game = variantkit.load("chess").new_game()
    game.push("e2e4")
    assert lines[-1].split()[1] in {str(m) for m in game.legal_moves()}
    assert not any("unknown word" in line for line in lines)


def test_uci_go_whose_only_limit_is_malformed_answers_at_once() -> None:
    # Not an endless search: the GUI sent a limit and will not send `stop`.
    session, out = session_of("uci")
    session.command("position startpos")
    session.command("go depth abc")
    assert session.thinking is not None
    deadline = time.monotonic() + 60
    while session.thinking.running and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = out.getvalue().splitlines()
    assert "info string go depth: a number expected" in lines
    assert lines[-1].startswith("bestmove "), lines


def test_uci_variant_path_to_an_ini_file_offers_its_sections(tmp_path: Path) -> None:
    ini = tmp_path / "mine.ini"
    ini.write_text("[takes:chess]\nmustCapture = true\n[walls:chess]\nwallingRule = bogus\n",
                   encoding="utf-8")
    lines = transcript("uci", f"setoption name VariantPath value {ini}",
                       "setoption name UCI_Variant value takes",
                       "position startpos moves e2e4 d7d5", "go depth 2",
                       "setoption name UCI_Variant value walls")
    # Each section is imported only when chosen: both are offered.
    assert re.fullmatch(r"info string 2 variant\(s\) of '.*mine\.ini' for UCI_Variant, "
                        r"each compiled when chosen: takes walls", lines[0]), lines[0]
    # The capture is forced, as the section says: the only legal move.
    assert lines[-2].split()[:2] == ["bestmove", "e4d5"]
    assert re.fullmatch(r"info string variant refused: .*mine\.ini:4: \[walls\] does not "
                        r"import: .*bogus.* \(fsf-\S+\); `variantkit import-fsf .*mine\.ini` "
                        r"tells more", lines[-1]), lines[-1]


def test_uci_stop_and_isready_while_searching() -> None:
    session, out = session_of("uci")
    session.command("position startpos")
    session.command("go infinite")
    session.command("isready")
    assert out.getvalue().splitlines()[-1] == "readyok"  # answered at once
    assert not any(line.startswith("bestmove") for line in out.getvalue().splitlines())
    session.command("stop")
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")


def test_uci_ponderhit_ends_the_ponder_search() -> None:
    session, out = session_of("uci")
    session.command("position startpos moves e2e4")
    session.command("go ponder movetime 100")
    assert session.thinking is not None
    session.command("ponderhit")
    session.thinking.wait()
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")


def test_uci_variant_path(tmp_path: Path) -> None:
    path = tmp_path / "tiny.yaml"
    path.write_text("variantkit: 1\nname: tiny\ninherits: chess\n", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("variantkit: 1\nname: bad\nboard: 7\n", encoding="utf-8")
    lines = transcript("uci", f"setoption name VariantPath value {path}", "go depth 1",
                       f"setoption name VariantPath value {bad}")
    assert lines[-2].startswith("bestmove ")
    assert re.fullmatch(r"info string variant refused: .*bad\.yaml:\d+:\d+: .*", lines[-1])


def test_a_long_line_is_refused_and_the_session_goes_on() -> None:
    text = b"position startpos moves " + b"e2e4 " * (MAX_LINE // 5) + b"\nisready\n"
    out = io.StringIO()
    UciSession(Channel(io.BytesIO(text), out)).run()
    assert out.getvalue().splitlines() == [
        f"info string line longer than {MAX_LINE} characters ignored", "readyok"]


def test_xboard_transcript() -> None:
    lines = transcript("xboard", "xboard", "protover 2", "variant capablanca", "sd 2",
                       "usermove e2e4", "ping 7", "usermove e2e4", "level 40 5:00 0",
                       "level x", "blah", "setboard 8/8 w", "force", "usermove a2a3",
                       "variant nosuch", "new", "st 1", "go", "ping 8")
    expect(lines, [
        "feature done=0", r'feature myname="variantkit .+" variants="normal,\S+"',
        r"feature setboard=1 usermove=1 ping=1 .* done=1",
        r"setup \(PNBRQ\.\.AC\.{12}Kpnbrq\.\.ac\.{12}k\) 10x8\+0_fairy "
        r"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
        r"RNABQKBCNR w KQkq - 0 1",
        r"1 -?\d+ \d+ \d+ \S+", r"2 -?\d+ \d+ \d+ \S+ \S+", r"move \S+", "pong 7",
        "Illegal move: e2e4", r"Error \(bad arguments\): level x",
        r"Error \(unknown command\): blah", r"Error \(illegal position\): .*2 rows.*",
        r"Error \(unknown variant\): nosuch"] + [r"\d+ -?\d+ \d+ \d+ .+"] * (len(lines) - 15)
        + [r"move \S+", "pong 8"])


def test_xboard_variant_keeps_force_mode() -> None:
    # A GUI sends new, force, variant, then the moves so far: none is answered.
    lines = transcript("xboard", "new", "force", "variant capablanca", "usermove e2e4",
                       "usermove e7e5", "usermove b1c3", "ping 1")
    assert lines[1:] == ["pong 1"] and lines[0].startswith("setup ")


def test_xboard_tells_a_gui_the_pieces_it_does_not_know() -> None:
    # The amazon takes the archbishop's place, and its moves are sent.
    lines = transcript("xboard", "variant amazon")
    assert lines[0].startswith("setup (PNBR...A")
    assert lines[1:] == ["piece A QN"]


def test_xboard_setup_keeps_promoted_forms_eleven_places_on() -> None:
    # Shogi's promoted pieces are `+` eleven places after the piece they
    # promote from; the holdings show the seven pieces a hand can hold.
    lines = transcript("xboard", "variant shogi")
    assert lines[0].startswith("setup (PNBRLSG....++++++....Kpnbrlsg....++++++....k) 9x9+7_fairy ")
    assert "piece S FfW" in lines
    # Crazyhouse's promoted `Q~` is a queen to the GUI: no place of its own.
    assert transcript("xboard", "variant crazyhouse")[0].startswith(
        "setup (PNBRQ................Kpnbrq................k) 8x8+5_fairy ")


def test_xboard_announces_the_end() -> None:
    lines = transcript("xboard", "setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "sd 2", "go")
    assert lines[-2:] == ["move a1a8", "1-0 {white wins by checkmate}"]


def test_usi_notation() -> None:
    shogi = variantkit.load("shogi")
    dialect = UsiDialect()
    assert dialect.move_in(shogi, "7g7f") == "c3c4"
    assert dialect.move_in(shogi, "P*5e") == "P@e5"
    assert dialect.move_in(shogi, "8h2b+") == "b2h8+"
    assert dialect.move_out(shogi, variantkit.Move("c3", "c4")) == "7g7f"
    with pytest.raises(ValueError):
        dialect.move_in(shogi, "0z1a")
    start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert fen_to_sfen(shogi.new_game(sfen_to_fen(start)).fen(), 1) == start
    assert sfen_to_fen("9/9/9/9/4k4/9/9/9/4K4 w 2Pr 10").startswith("9/9/9/9/4k4/9/9/9/4K4[PPr] b")


def test_usi_transcript() -> None:
    lines = transcript("usi", "usi", "usinewgame", "position startpos moves 7g7f",
                       "go btime 1000 wtime 1000 byoyomi 100 depth 2",
                       "position sfen 8k/9/9/9/9/9/9/9/K8 b G 1", "go depth 1")
    assert lines[:3] == ["id name variantkit " + variantkit.__version__,
                         "id author the variantkit developers",
                         lines[2]] and lines[2].startswith("option name UCI_Variant type combo "
                                                           "default shogi ")
    assert "usiok" in lines
    best = [line for line in lines if line.startswith("bestmove")]
    assert re.fullmatch(r"bestmove \d[a-i]\d[a-i]\+? ponder \S+", best[0])
    assert re.fullmatch(r"bestmove (G\*\d[a-i]|\d[a-i]\d[a-i])( ponder \S+)?", best[1])


@pytest.mark.parametrize("kind", ["uci", "xboard", "usi"])
def test_hostile_lines_get_protocol_answers(kind: str) -> None:
    """Random commands and arguments: every answer is in the protocol's
    own form, and nothing raises."""
    rng = random.Random(kind)
    words = ["go", "position", "setoption", "usermove", "level", "st", "sd", "time", "ping",
             "variant", "setboard", "stop", "new", "force", "fen", "startpos", "moves", "name",
             "value", "depth", "-1", "99999999999999999999", "nan", "e2e4", "\x00", "☃", "?",
             "infinite", "undo", "remove", "sfen", "1", "0"]
    session, out = session_of(kind)
    for _ in range(150):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
        if "infinite" in line or "ponder" in line:
            continue
        session.command(line)
        if session.thinking is not None:
            session.thinking.finish()
    form = (r"(info .+|bestmove .+|readyok)" if kind != "xboard" else
            r"(move \S+|pong .*|Illegal move: .*|Error \(.+\): .*|setup .+|\d+ -?\d+ \d+ \d+ .*"
            r"|(1-0|0-1|1/2-1/2) \{.+\})")
    for line in out.getvalue().splitlines():
        assert re.fullmatch(form, line, re.DOTALL), line


def test_a_chosen_ini_section_compiles_within_the_load_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A section that would take many seconds to import is refused once
    the session's bound on loading runs out (here cut to half a second),
    and the variant in play stays."""
    monkeypatch.setattr(host, "LOAD_SECONDS", 0.5)
    rows = "/".join(["rnbqkbnracdefrnbqkbnracdef", "p" * 26] + ["26"] * 35
                    + ["P" * 26, "RNBQKBNRACDEFRNBQKBNRACDEF"])
    ini = tmp_path / "costly.ini"
    ini.write_text("[costly:chess]\nmaxRank = 39\nmaxFile = z\ncustomPiece1 = a:NNCCZZ\n"
                   "customPiece2 = c:QNN\ncustomPiece3 = d:BBRRWF\ncustomPiece4 = e:mQcN\n"
                   f"customPiece5 = f:KNAD\nstartFen = {rows} w - - 0 1\n", encoding="utf-8")
    started = time.monotonic()
    lines = transcript("uci", f"setoption name VariantPath value {ini}",
                       "setoption name UCI_Variant value costly", "isready")
    assert time.monotonic() - started < 30
    assert re.fullmatch(r"info string variant refused: .*costly\.ini:1: \[costly\] does not "
                        r"import: .*budget.*", lines[1]), lines[1]
    assert lines[2] == "readyok"
