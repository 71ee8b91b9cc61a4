"""The engine's protocol sessions (`variantkit uci`, `usi`, `xboard`) run as
real processes over pipes: searches that end by themselves after
`ponderhit` and `go mate`, input still read while a variant loads or a
`ping` waits, a GUI closing the engine's output, files that are no
variant never echoed, every legal move of every bundled game written and
read back in each protocol's notation, and sweeps of hostile lines after
which each session still answers its sync command, within bounded
memory, and quits at once.

Every wait is bounded, so a regression fails instead of hanging."""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from catalogue import on_both_builds

import variantkit
from variantkit.errors import shorten
from variantkit.protocols.channel import MAX_LINE, Channel
from variantkit.protocols.host import MAX_PENDING_LINES
from variantkit.protocols.uci import Dialect
from variantkit.protocols.usi import UsiDialect
from variantkit.protocols.xboard import XboardSession, cecp_move, variantkit_move

REPOSITORY = Path(__file__).resolve().parent.parent.parent
# Seconds an answer may take: generous (a loaded machine, the pure
# build); the tests are about answers that never come.
ANSWER = 60.0
# Seconds `quit`, the end of input or a closed output may take to end the
# process (the brief's goal is under one; this leaves room for load).
PROMPT = 5.0
# Resident memory a session may reach after a hostile sweep.
MAX_RSS_BYTES = 1_500_000_000
BEST = r"bestmove \S+( ponder \S+)?"


class Session:
    """One `python -m variantkit PROTOCOL` process, read without threads so
    that its output may be closed under it."""

    def __init__(self, protocol: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "variantkit", protocol], cwd=REPOSITORY,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._buffer = b""
        self.seen: list[str] = []   # every line read so far

    def send(self, *lines: str | bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        for line in lines:
            stdin.write((line if isinstance(line, bytes) else line.encode()) + b"\n")
        stdin.flush()

    def expect(self, pattern: str, seconds: float = ANSWER) -> list[str]:
        """The lines up to the first that matches `pattern` in full, read
        within `seconds`; fails the test otherwise."""
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + seconds
        got: list[str] = []
        while True:
            while b"\n" in self._buffer:
                raw, _, self._buffer = self._buffer.partition(b"\n")
                line = raw.decode("utf-8", "replace")
                got.append(line)
                self.seen.append(line)
                if re.fullmatch(pattern, line):
                    return got
            left = deadline - time.monotonic()
            ready = select.select([stdout], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise AssertionError(f"no line matching {pattern!r} within {seconds} s: "
                                     f"{got[-6:]} {self.stderr_if_done()}")
            chunk = os.read(stdout.fileno(), 1 << 16)
            if not chunk:
                raise AssertionError(f"the engine ended its output before {pattern!r}: "
                                     f"{got[-6:]} {self.stderr_if_done()}")
            self._buffer += chunk

    def silent_for(self, pattern: str, seconds: float) -> list[str]:
        """The lines read in `seconds`, none of them matching `pattern`."""
        try:
            lines = self.expect(pattern, seconds)
        except AssertionError as exc:
            if "no line matching" in str(exc):
                return []
            raise
        raise AssertionError(f"{pattern!r} came too early: {lines[-6:]}")

    def stderr_if_done(self) -> str:
        if self.process.poll() is None:
            return ""
        stderr = self.process.stderr
        return stderr.read().decode("utf-8", "replace")[-2000:] if stderr else ""

    def ends_within(self, seconds: float = PROMPT) -> tuple[int, str]:
        """The exit status and standard error once the process ends, which
        it must within `seconds`."""
        try:
            status = self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the engine did not end within {seconds} s") from None
        stderr = self.process.stderr
        return status, stderr.read().decode("utf-8", "replace") if stderr else ""

    def quit(self) -> str:
        """Send `quit`; the session ends at once, with status 0 and no
        traceback; its standard error."""
        self.send("quit")
        status, stderr = self.ends_within()
        assert status == 0, stderr
        assert "Traceback" not in stderr, stderr
        return stderr

    def resident_bytes(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # a pipe the engine closed first
                    stream.close()


Starter = Callable[[str], Session]


@pytest.fixture
def sessions() -> Iterator[Starter]:
    """Sessions opened by a test, killed at its end whatever happened."""
    opened: list[Session] = []

    def start(protocol: str) -> Session:
        session = Session(protocol)
        opened.append(session)
        return session

    yield start
    for session in opened:
        session.close()


def started(sessions: Starter, protocol: str) -> Session:
    """A session past its start: it has answered its sync command once."""
    session = sessions(protocol)
    sync(session, protocol, 0)
    return session


def sync(session: Session, protocol: str, number: int) -> list[str]:
    """Send the protocol's sync command; the lines up to its answer."""
    if protocol == "xboard":
        session.send(f"ping {number}")
        return session.expect(f"pong {number}")
    session.send("isready")
    return session.expect("readyok")


# -- 1. ponderhit ----------------------------------------------------------------


def test_ponderhit_ends_a_search_bounded_by_depth_nodes_or_time(sessions: Starter) -> None:
    uci = started(sessions, "uci")
    uci.send("position startpos moves e2e4")
    for limits in ("depth 2", "nodes 2000", "movetime 300"):
        uci.send(f"go ponder {limits}")
        # No move while pondering, whatever the limits: the GUI waits.
        uci.silent_for("bestmove.*", 0.7)
        uci.send("ponderhit")
        uci.expect(BEST)
    # A pondering search that ended before ponderhit answers at once.
    uci.send("go ponder depth 1")
    uci.silent_for("bestmove.*", 0.7)
    uci.send("ponderhit")
    uci.expect(BEST, 5)
    uci.quit()


# -- 2. go mate and unknown go words ----------------------------------------------


def test_uci_go_mate_is_a_search_of_2n_minus_1_plies(sessions: Starter) -> None:
    uci = started(sessions, "uci")
    uci.send("position startpos", "go mate 3")
    lines = uci.expect(BEST)
    assert not any("unknown word" in line for line in lines), lines
    assert max(int(line.split()[2]) for line in lines if line.startswith("info depth")) <= 5
    uci.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go mate 1")
    lines = uci.expect(BEST)
    assert lines[-1].split()[1] == "a1a8"
    assert any(" score mate 1 " in line for line in lines), lines
    uci.quit()


def test_an_unknown_go_word_never_leaves_an_endless_search(sessions: Starter) -> None:
    for protocol in ("uci", "usi"):
        session = started(sessions, protocol)
        session.send("position startpos", "go frobnicate")
        lines = session.expect(BEST)
        assert "info string go: unknown word frobnicate" in lines
        # Only `infinite` (or a bare go) searches until `stop`.
        session.send("go frobnicate infinite")
        session.silent_for("bestmove.*", 1.0)
        session.send("stop")
        session.expect(BEST)
        session.quit()


def test_usi_go_mate_is_a_checkmate_search(sessions: Starter) -> None:
    usi = started(sessions, "usi")
    # A gold dropped in front of the king, the pawn guarding it, mates.
    usi.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go mate 10000")
    assert usi.expect(r"checkmate .*")[-1] == "checkmate G*5b"
    usi.send("position startpos", "go mate 300")
    assert usi.expect(r"checkmate .*")[-1] == "checkmate timeout"
    usi.send("go mate infinite")
    usi.silent_for(r"checkmate .*", 0.7)
    usi.send("stop")
    assert usi.expect(r"checkmate .*")[-1] == "checkmate timeout"
    usi.quit()


# -- 3. VariantPath loads while input is read -----------------------------------------


COSTLY_SECTION = """[costly{index}:chess]
maxRank = 39
maxFile = z
customPiece1 = a:NNCCZZ
customPiece2 = c:QNN
customPiece3 = d:BBRRWF
customPiece4 = e:mQcN
customPiece5 = f:KNAD
startFen = {rows} w - - 0 1
"""


def costly_ini(path: Path, sections: int) -> Path:
    """An ini of 26x39 sections with many riders: slow to compile."""
    rows = "/".join(["rnbqkbnracdefrnbqkbnracdef", "p" * 26] + ["26"] * 35
                    + ["P" * 26, "RNBQKBNRACDEFRNBQKBNRACDEF"])
    path.write_text("".join(COSTLY_SECTION.format(index=i, rows=rows)
                            for i in range(sections)), encoding="utf-8")
    return path


def test_an_ini_of_ten_thousand_sections_is_offered_at_once(
        sessions: Starter, tmp_path: Path) -> None:
    many = tmp_path / "many.ini"
    many.write_text("".join(f"[v{i}:chess]\n" for i in range(10_000)), encoding="utf-8")
    uci = started(sessions, "uci")
    uci.send(f"setoption name VariantPath value {many}")
    lines = sync(uci, "uci", 1)
    assert re.fullmatch(r"info string 500 variant\(s\) of .* each compiled when chosen: "
                        r"v0 v1 .* \.\.\.", lines[0]), lines[0]
    uci.send("setoption name UCI_Variant value v7", "position startpos", "go depth 1")
    assert re.fullmatch(BEST, uci.expect(BEST)[-1])
    uci.quit()


def test_quit_and_end_of_input_are_read_while_a_variant_loads(
        sessions: Starter, tmp_path: Path) -> None:
    ini = costly_ini(tmp_path / "costly.ini", 500)
    assert ini.stat().st_size > 150_000
    for ending in ("quit", "end of input"):
        uci = started(sessions, "uci")
        uci.send(f"setoption name VariantPath value {ini}")
        sync(uci, "uci", 1)
        uci.send("setoption name UCI_Variant value costly3", "isready")
        # isready waits for the variant, which takes seconds to compile...
        uci.silent_for("readyok", 1.5)
        # ...but the end of the session does not.
        if ending == "quit":
            uci.send("quit")
        else:
            stdin = uci.process.stdin
            assert stdin is not None
            stdin.close()
        status, stderr = uci.ends_within()
        assert status == 0 and "Traceback" not in stderr, stderr


# -- 4. CECP: ? and quit while ping waits -------------------------------------------


def test_cecp_reads_move_now_and_quit_while_ping_waits(sessions: Starter) -> None:
    xboard = started(sessions, "xboard")
    xboard.send("new", "force", "st 1000000", "nopost", "go", "ping 99")
    xboard.silent_for(r"pong 99|move .*", 1.0)   # pong comes after the move
    xboard.send("?")
    lines = xboard.expect("pong 99")
    assert re.fullmatch(r"move \S+", lines[-2]), lines
    xboard.send("go")
    time.sleep(0.5)
    xboard.quit()


# -- 5. a closed output ---------------------------------------------------------------


@pytest.mark.parametrize("protocol", ["uci", "usi", "xboard"])
@pytest.mark.parametrize("when", ["searching", "idle"])
def test_a_closed_output_ends_the_session_quietly(
        sessions: Starter, protocol: str, when: str) -> None:
    session = started(sessions, protocol)
    if when == "searching":
        session.send(*(["new", "force", "st 1000000", "go"] if protocol == "xboard"
                       else ["position startpos", "go infinite"]))
        session.expect(r"\d+ .*" if protocol == "xboard" else r"info depth .*")
    stdout = session.process.stdout
    assert stdout is not None
    stdout.close()
    # The next line written, the search's or the answer's, finds it closed.
    session.send("ping 1" if protocol == "xboard" else "isready")
    status, stderr = session.ends_within()
    assert status == 0, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr


# -- 6. files that are no variant -----------------------------------------------------


def test_no_answer_echoes_a_file_that_is_no_variant(sessions: Starter, tmp_path: Path) -> None:
    secret = "hunter2-SECRET"
    plain = tmp_path / "notes.yaml"
    plain.write_text(f"password: {secret}\n", encoding="utf-8")
    listing = tmp_path / "listing.yaml"
    listing.write_text(f"root:x:0:0:{secret}:/root:/bin/bash\n", encoding="utf-8")
    shell = tmp_path / "script.sh"
    shell.write_text(f"#!/bin/sh\necho {secret} {{x: y}}\n", encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"a: [1, 2\n{secret}: 3\n", encoding="utf-8")
    big = tmp_path / "big.yaml"
    big.write_text(f"{secret}: 99999999999\n", encoding="utf-8")
    ini = tmp_path / "app.ini"
    ini.write_text(f"root:x:0:0:{secret}\n", encoding="utf-8")
    paths = ["/etc/passwd", str(plain), str(listing), str(shell), str(broken), str(big),
             str(ini)]
    uci = started(sessions, "uci")
    for path in paths:
        uci.send(f"setoption name VariantPath value {path}",
                 f"setoption name UCI_Variant value {path}")
    lines = sync(uci, "uci", 1)
    refusals = [line for line in lines if line.startswith("info string variant refused: ")]
    assert len(refusals) == len(paths), lines
    for path, line in zip(paths, refusals, strict=True):
        assert path in line, line   # each is named, with its line where known
    assert not any(secret in line or "root:x" in line for line in lines), lines
    assert re.search(r"notes\.yaml:1:1: not a variant file of this format: 'variantkit: 1' "
                     r"expected \(format-version\)", "\n".join(lines))
    uci.quit()
    xboard = started(sessions, "xboard")
    xboard.send(f"variant {listing}", "variant /etc/passwd")
    lines = sync(xboard, "xboard", 1)
    assert lines[:2] == [f"Error (unknown variant): {shorten(str(listing), 80)}",
                         "Error (unknown variant): /etc/passwd"]
    xboard.quit()


# -- 7. moves in each protocol's notation ----------------------------------------------


NOTATIONS: dict[str, Dialect] = {"uci": Dialect(), "usi": UsiDialect()}


@pytest.mark.parametrize("name", on_both_builds(variantkit.variants()))
def test_every_legal_move_reads_back_as_itself(name: str) -> None:
    """Along seeded random games, each legal move written in UCI, CECP
    (variantkit's move strings, ranks from 0 on boards of ten ranks) and
    USI reads back as that move:
    as the move string that names it among the legal moves, and for one
    move a ply, played through the game's own reading."""
    variant = variantkit.load(name)
    usi = NOTATIONS["usi"]
    for seed in range(2):
        rng = random.Random(seed)
        game = variant.new_game()
        for _ in range(12):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            named = {str(move): move for move in moves}
            assert len(named) == len(moves)   # no two moves written alike
            for move in moves:
                cecp = cecp_move(variant, move)
                assert cecp.isascii() and " " not in cecp, cecp
                texts = [str(move), NOTATIONS["uci"].move_out(variant, move),
                         variantkit_move(variant, cecp)]
                if usi.supports(variant):
                    written = usi.move_out(variant, move)
                    assert written.isascii() and " " not in written, written
                    texts.append(usi.move_in(variant, written))
                assert all(named.get(text) == move for text in texts), (texts, move)
            chosen = rng.choice(moves)
            for text in texts_of(variant, chosen):
                assert game.copy().push(text) == chosen, (text, chosen)
            game.push(chosen)


def texts_of(variant: variantkit.Variant, move: variantkit.Move) -> list[str]:
    """`move` as each protocol reads it back: UCI and CECP, then USI."""
    usi = NOTATIONS["usi"]
    texts = [NOTATIONS["uci"].move_in(variant, NOTATIONS["uci"].move_out(variant, move)),
             variantkit_move(variant, cecp_move(variant, move))]
    if usi.supports(variant):
        texts.append(usi.move_in(variant, usi.move_out(variant, move)))
    return texts


def test_usi_writes_what_kyoto_shogi_and_walled_games_need() -> None:
    usi = UsiDialect()
    kyoto = variantkit.load("kyotoshogi")
    assert usi.move_out(kyoto, variantkit.Move("e4", "e5", promotion="-")) == "1b1a-"
    assert usi.move_in(kyoto, "1b1a-") == "e4e5-"
    assert usi.move_in(kyoto, "+P*5e") == "+P@a1"
    duck = variantkit.load("duck")
    move = variantkit.Move("b1", "c3", wall="d5")
    assert usi.move_out(duck, move) == "7h6f,6f5d"
    assert usi.move_in(duck, "7h6f,6f5d") == str(move) == "b1c3,c3d5"
    with pytest.raises(ValueError):
        usi.move_in(duck, "7h6f,")


@pytest.mark.parametrize("name", ["kyotoshogi", "micro", "duck", "amazons"])
def test_the_usi_engine_plays_legal_moves_the_referee_reads(
        sessions: Starter, name: str) -> None:
    """The engine over USI, its moves read back as the referee reads them,
    then sent back in `position ... moves`: each is legal."""
    usi_notation = UsiDialect()
    variant = variantkit.load(name)
    game = variant.new_game()
    usi = started(sessions, "usi")
    usi.send(f"setoption name UCI_Variant value {name}", "usinewgame")
    sync(usi, "usi", 1)
    for _ in range(6):
        if not game.legal_moves() or game.outcome() is not None:
            break
        moves = " ".join(usi_notation.move_out(variant, m) for m in game.move_stack)
        usi.send("position startpos" + (f" moves {moves}" if moves else ""), "go depth 1")
        lines = usi.expect(r"bestmove .*")
        assert not any("illegal move" in line for line in lines), lines
        game.push(usi_notation.move_in(variant, lines[-1].split()[1]))
    usi.quit()


# -- 8. white space between words -----------------------------------------------------


def test_words_are_apart_by_any_white_space(sessions: Starter) -> None:
    for protocol in ("uci", "usi"):
        session = started(sessions, protocol)
        session.send("position\tstartpos", "go\tdepth\t1")
        assert re.fullmatch(BEST, session.expect(r"bestmove.*")[-1])
        session.send("setoption \t name\tUCI_Variant\t value \tminishogi", "isready")
        assert session.expect("readyok") == ["readyok"]
        session.quit()
    uci = started(sessions, "uci")
    uci.send("position\tfen\t6k1/5ppp/8/8/8/8/5PPP/R5K1\tw\t-\t-\t0\t1", "go depth 2")
    assert uci.expect(r"bestmove.*")[-1].split()[1] == "a1a8"
    uci.quit()
    xboard = started(sessions, "xboard")
    xboard.send("new", "sd\t1", "usermove\t e2e4", "ping \t 7")
    lines = xboard.expect("pong 7")
    assert re.fullmatch(r"move \S+", lines[-2]), lines
    xboard.send("setboard\t6k1/5ppp/8/8/8/8/5PPP/R5K1\tw\t-\t-\t0\t1", "sd\t2", "go")
    assert xboard.expect(r"move .*")[-1] == "move a1a8"
    xboard.quit()


# -- 9. CECP as XBoard writes it ---------------------------------------------------------

THINKING = r"\d+ -?\d+ \d+ \d+ \S.*"


def test_cecp_reads_xboards_shogi_promotion_forms(sessions: Starter) -> None:
    """`=` declines a promotion (`c6c7=`: the silver stays a silver, which
    may step back diagonally), `+` takes it (the promoted silver may not),
    and `=` where the promotion is forced is an illegal move."""
    xboard = started(sessions, "xboard")
    silver = "4k4/9/9/2S6/9/9/9/9/4K4[] w - - 0 1"
    for suffix, back in (("=", "legal"), ("+", "illegal"), ("", "legal")):
        xboard.send("new", "variant shogi", "force", f"setboard {silver}",
                    f"usermove c6c7{suffix}", "usermove e9e8", "usermove c7b6", "ping 1")
        lines = xboard.expect("pong 1")
        refused = [line for line in lines if line.startswith("Illegal move")]
        assert refused == ([] if back == "legal" else ["Illegal move: c7b6"]), (suffix, lines)
    xboard.send("setboard 4k4/2P6/9/9/9/9/9/9/4K4[] w - - 0 1", "usermove c8c9=",
                "usermove c8c9+", "ping 2")
    lines = xboard.expect("pong 2")
    assert [line for line in lines if line.startswith("Illegal")] == ["Illegal move: c8c9="]
    xboard.quit()


def test_cecp_counts_xiangqi_ranks_from_zero(sessions: Starter) -> None:
    """On a board of ten ranks XBoard writes a0-i9: the engine reads the
    GUI's `h2e2` (variantkit's h3e3) and writes its moves and lines so."""
    xiangqi = variantkit.load("xiangqi")
    game = xiangqi.new_game()
    xboard = started(sessions, "xboard")
    xboard.send("new", "variant xiangqi", "sd 2", "post", "usermove h2e2")
    game.push("h3e3")
    lines = xboard.expect(r"move .*")
    reply = lines[-1].split()[1]
    assert re.fullmatch(r"[a-i][0-9][a-i][0-9]", reply), reply
    game.push(variantkit_move(xiangqi, reply))
    for line in lines:
        if re.fullmatch(THINKING, line):   # its lines too: black's pieces stand on ranks 5-9
            assert all(re.fullmatch(r"[a-i][0-9][a-i][0-9]", m) for m in line.split()[4:])
    xboard.send("new", "variant xiangqi", "force", "usermove h3e3", "usermove h2e2", "ping 4")
    lines = xboard.expect("pong 4")
    # h3e3 is the cannon of h4 to e4 in XBoard's count: none stands there.
    assert [line for line in lines if line.startswith("Illegal")] == ["Illegal move: h3e3"]
    xboard.quit()


def test_cecp_takes_fractional_increments_and_move_times(sessions: Starter) -> None:
    xboard = started(sessions, "xboard")
    xboard.send("new", "level 0 0:20 0.3", "level 40 0:30.5 0", "level 0 1.5 0.25", "st 0.5",
                "ping 1")
    assert not any(line.startswith("Error") for line in xboard.expect("pong 1"))
    xboard.send("go")
    assert re.fullmatch(r"move \S+", xboard.expect(r"move .*")[-1])
    xboard.quit()
    session = XboardSession(Channel(io.BytesIO(), io.StringIO()))
    for line in ("level 0 0:20 0.3", "time 2000", "otim 1950"):
        session.command(line)
    limits = session.limits()
    assert (limits.wtime, limits.btime, limits.winc, limits.binc) == (20.0, 19.5, 0.3, 0.3)
    session.command("level 0 1.5 0.25")
    session.own_time = session.other_time = None
    assert (session.limits().wtime, session.limits().winc) == (90.0, 0.25)
    session.command("st 0.5")
    assert session.limits().movetime == 0.5


def test_cecp_analyze_mode(sessions: Starter) -> None:
    """`analyze` thinks about the position until `exit`, following the
    moves and undos the GUI sends, answers `.` with its status and plays
    no move."""
    chess = variantkit.load("chess")
    xboard = sessions("xboard")
    xboard.send("xboard", "protover 2")
    assert "analyze=1" in xboard.expect(r"feature .*done=1")[-1]
    xboard.send("new", "post", "analyze")
    xboard.expect(THINKING)
    xboard.expect(THINKING)   # iteration after iteration
    xboard.send(".")
    assert re.fullmatch(r"stat01: \d+ \d+ \d+ \d+ 20", xboard.expect(r"stat01: .*")[-1])
    for command, moves in (("usermove e2e4", ["e2e4"]), ("undo", []), ("new", [])):
        xboard.send(command, "ping 1")   # answered at once: no move is awaited
        xboard.expect("pong 1")
        game = chess.new_game()
        for move in moves:
            game.push(move)
        legal = {str(move) for move in game.legal_moves()}
        line = xboard.expect(THINKING)[-1]
        assert line.split()[4] in legal, (command, line)
    xboard.send("exit", "ping 2")
    xboard.expect("pong 2")
    assert not any(line.startswith("move ") for line in xboard.seen)
    xboard.silent_for(r"move .*|\d+ .*", 1.0)   # the analysis has ended
    xboard.quit()


# -- hostile sweeps ---------------------------------------------------------------------


def hostile_files(folder: Path) -> list[str]:
    """Paths a GUI (or whoever writes to the engine) might name: missing,
    directories, devices, a FIFO, files that are no variant, too large."""
    (folder / "dir.yaml").mkdir()
    (folder / "dir.ini").mkdir()
    os.mkfifo(folder / "fifo.yaml")
    os.mkfifo(folder / "fifo.ini")
    for name in ("zero.yaml", "zero.ini"):
        (folder / name).symlink_to("/dev/zero")
    (folder / "binary.yaml").write_bytes(bytes(range(256)) * 8)
    (folder / "binary.ini").write_bytes(b"[a]\x00\xff\xfe" * 100)
    (folder / "huge.yaml").write_bytes(b"# " + b"x" * 1_100_000 + b"\n")
    (folder / "huge.ini").write_bytes(b"[a:chess]\n" + b"; " + b"x" * 2_100_000 + b"\n")
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    (folder / "aliases.yaml").write_text(
        "variantkit: 1\na: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n", encoding="utf-8")
    return [str(folder / name) for name in (
        "dir.yaml", "dir.ini", "fifo.yaml", "fifo.ini", "zero.yaml", "zero.ini",
        "binary.yaml", "binary.ini", "huge.yaml", "huge.ini", "loop.yaml", "aliases.yaml",
        "missing.yaml", "missing.ini")] + [
        "/dev/zero", "/dev/null", "/dev/urandom", "/", "/etc/passwd", "/proc/self/environ",
        "", "<empty>", "x" * 5000, "a\x00b.yaml", "../../../../etc/shadow"]


GO_WORDS = ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime",
            "mate", "byoyomi", "infinite", "ponder", "searchmoves", "e2e4", "7g7f", "-5",
            "0", "1", "99999999999999999999999", "-99999999999999", "1e9", "nan", "x", "\x00",
            "☃", "3", "200"]
ODD = [b"\x00\x00\x00", b"\xff\xfe\xfd go", b"go \xc3\x28 depth 1", b"\x1b[31mred",
       b"frob\rbestmove e2e4", b"\t\t\t", b" " * 1000, "☃ ☃ ☃".encode(),
       b"position startpos moves " + b"e2e4 " * 3000, b"x" * (MAX_LINE + 10)]


def go_lines(rng: random.Random, count: int) -> list[str]:
    """`go` with mixes of its words and numbers, each followed by `stop`."""
    lines = []
    for _ in range(count):
        words = [rng.choice(GO_WORDS) for _ in range(rng.randint(0, 6))]
        lines += ["go " + " ".join(words), "stop"]
    return lines


def uci_lines(rng: random.Random, files: list[str], variant_name: str) -> list[str | bytes]:
    paths = [f"setoption name VariantPath value {path}" for path in files]
    lines: list[str | bytes] = [
        "go", "stop", "ponderhit", "position", "position moves e2e4", "position fen",
        "position fen 8/8/8 w", "position fen " + "p" * 9000, "position startpos moves zz",
        "position startpos moves", "position fen startpos", "position sfen 9/9 b - 1",
        "position startpos e2e4", "setoption", "setoption name", "setoption value x",
        "setoption name UCI_Variant", "setoption name UCI_Variant value",
        "setoption name UCI_Variant value nosuch", "setoption name UCI_Variant value /etc/passwd",
        "setoption name Hash value 99999999999999999999999", "setoption name Threads value -1",
        "setoption name MultiPV value x", "setoption name  value  value value",
        f"setoption name UCI_Variant value {variant_name}", "ucinewgame", "usinewgame",
        "debug on", "register later", "gameover win", "uci", "usi",
        "frobnicate", "go ponder", "ponderhit", "stop", "stop", "ponderhit",
        "position startpos moves " + " ".join(["g1f3 g8f6 f3g1 f6g8"] * 400),
        *paths, *ODD]
    lines += go_lines(rng, 100)
    rng.shuffle(lines)
    return lines


def xboard_lines(rng: random.Random, files: list[str]) -> list[str | bytes]:
    lines: list[str | bytes] = [
        "xboard", "protover 2", "protover", "new", "variant", "variant nosuch",
        "variant shogi", "variant /etc/passwd", "variant " + "x" * 5000, "setboard",
        "setboard junk", "setboard 8/8/8 w", "usermove", "usermove e2e4", "usermove zz",
        "e2e4", "level", "level 40 5:00 0", "level -1 -5:-3 -2", "level 1 999999999999999:99 9",
        "level x y z", "level 40 5:xx 0", "st", "st -1", "st 99999999999999999999", "sd 0",
        "sd -4", "sd 9999999999", "time -100", "time x", "otim -5", "go", "playother", "force",
        "undo", "remove", "undo", "remove", "?", "ping", "ping -1", "ping " + "9" * 1000,
        "post", "nopost", "random", "hard", "easy", "name x", "result 1-0 {x}", "draw",
        "computer", "accepted setboard", "rejected x", "analyze", "exit", ".", "bk", "hint",
        "memory 64", "memory -1", "memory x", "memory " + "9" * 400, "level 0 0:20 0.3",
        "level 0 .:. .", "level 0 0.5:1e5 0", "st 0.5", "st .", "st 1." + "5" * 5000,
        "usermove e2e4=", "usermove e2e4==", "usermove a9999999999b1",
        *[f"variant {path}" for path in files], *ODD]
    for _ in range(100):  # moves, searches and move-now in any order
        lines.append(rng.choice(["go", "usermove e2e4", "usermove e7e5", "?", "playother",
                                 "new", "force", "undo", "st 0", "st 1", "sd 1", "sd 64",
                                 "level 0 0 0", "time 0", "otim 0", "setboard "
                                 "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]))
    rng.shuffle(lines)
    return lines


def sweep(session: Session, protocol: str, lines: list[str | bytes], batch: int) -> int:
    """Send `lines` in batches, each closed by ending any search and the
    sync command, answered within the bound; the lines sent."""
    assert batch < MAX_PENDING_LINES
    sent = 0
    for start in range(0, len(lines), batch):
        chunk = lines[start:start + batch]
        closing = ["force", "?"] if protocol == "xboard" else ["stop"]
        session.send(*chunk, *closing)
        sync(session, protocol, start + 1)
        sent += len(chunk)
        assert session.resident_bytes() < MAX_RSS_BYTES
    return sent


def test_hostile_lines_in_three_protocols(sessions: Starter, tmp_path: Path) -> None:
    files = hostile_files(tmp_path)
    rng = random.Random(7)
    sent = 0
    for protocol, variant_name in (("uci", "capablanca"), ("usi", "minishogi")):
        session = started(sessions, protocol)
        sent += sweep(session, protocol, uci_lines(rng, files, variant_name), 60)
        stderr = session.quit()
        assert "Traceback" not in stderr
        assert not any("root:x" in line for line in session.seen)
        assert any(line.startswith("info string") for line in session.seen)
    xboard = started(sessions, "xboard")
    sent += sweep(xboard, "xboard", xboard_lines(rng, files), 60)
    xboard.quit()
    assert not any("root:x" in line for line in xboard.seen)
    assert sent >= 600
