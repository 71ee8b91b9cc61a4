"""Hostile engines against the match referee (`variantkit match`): fake
engines, small Python scripts run as processes of their own, that write
bytes that are not UTF-8, flood their handshake, never finish it, crash,
exit, stall, close their output, answer out of protocol, ignore `quit`,
SIGINT and SIGTERM, and leave a child process behind them.  The referee
must end every game with a named reason, within bounded time and memory,
with no traceback, and leave no process of the engine's and no temporary
file behind, on Ctrl-C and SIGTERM too.  Variants that are set up by name
only when they are exactly the bundled ones, and the built-in engine over
USI in games whose moves USI once mistranslated, are here too."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import variantkit
from variantkit.analysis.match import BuiltinPlayer, Player, Settings, match, player_for
from variantkit.game import Game
from variantkit.protocols import driver
from variantkit.protocols.driver import Clock, EngineFailure, MatchRefused
from variantkit.variant import Variant

# One fake engine for every protocol: argv is PROTOCOL STAGE ACT MARKS.  At
# STAGE (`hello`, `ready`, `go`: its first move, `late`: its third) it does
# ACT instead of answering; otherwise it answers as an engine of PROTOCOL
# playing White's knight b1-c3-b1.  It always ignores `quit`, SIGINT and
# SIGTERM, never ends at the end of its input, and starts a child that
# sleeps; both carry MARKS (a folder) in their command line, and the engine
# writes a file there when it stalls.  The child keeps the engine's output
# open, so that an engine that ends is seen to end by itself, not by the end
# of its output.
FAKE_ENGINE = r'''
import os, signal, subprocess, sys, time
protocol, stage, act, marks = sys.argv[1:5]
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
# The child shares the engine's output, but where the engine is to close it.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", marks],
                 stdout=subprocess.DEVNULL if act == "close" else None)
out = sys.stdout.buffer
OK = {"uci": b"uciok", "usi": b"usiok"}.get(protocol)
MOVES = [b"7h6f", b"6f7h"] if protocol == "usi" else [b"b1c3", b"c3b1"]
LONG = b"x" * 40000
WRONG = {"hello": [b"readyok", b"pong 1"], "ready": [b"uciok", b"feature done=1"],
         "go": [b"readyok", b"pong 1", b"uciok"]}


def say(*lines):
    out.write(b"".join(line + b"\n" for line in lines))
    out.flush()


def hello():
    if protocol == "xboard":
        say(b'feature myname="fake" usermove=1 ping=1 option="VariantPath -string " done=1')
    else:
        say(b"id name fake", b"option name UCI_Variant type combo default chess var chess",
            b"option name VariantPath type string default <empty>", OK)


def stall():
    open(os.path.join(marks, "stalled"), "w").close()
    time.sleep(120)


def misbehave(now, answer, word):
    if act == "crash":
        os._exit(3)
    if act == "exit0":
        os._exit(0)
    if act == "close":
        os.close(1)
        time.sleep(120)
    if act == "stall":
        stall()
    if act == "flood":
        n = 0
        while True:
            n += 1
            say(b"info string flood %d" % n)
    if act == "binary":   # text that is not UTF-8
        if now in ("hello", "ready"):
            say(b"id name fake\xff\xfe", b"option name \xff\x80 type check default false",
                b'feature myname="fake\xff"', b"\xff\xfe\x00\x01")
            answer()
        else:
            say(word + b" \xff\xfe")
    if act == "huge":     # huge and negative numbers, too long a line
        if now == "hello":
            say(b"option name Hash type spin default -99999999999999999999999 min -1 "
                b"max 99999999999999999999999", b"feature ping=-99999999999999999 done=0")
            answer()
        elif now == "go":
            say(word + b" -99999999999999999999999")
        else:
            say(LONG)
            answer()
    if act == "wrong":    # out of protocol: other answers than the one asked for
        say(*WRONG.get(now, WRONG["go"]))


def run():
    goes = 0
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            stall()   # deaf to the end of its input
        words = line.split()
        word = words[0] if words else b""
        if word in (b"uci", b"usi", b"protover"):
            now, answer = "hello", hello
        elif word in (b"isready", b"ping"):
            reply = b"readyok" if word == b"isready" else b"pong " + b" ".join(words[1:])
            now, answer = "ready", (lambda reply=reply: say(reply))
        elif word == b"go":
            goes += 1
            move = MOVES[(goes - 1) % 2]
            reply = b"move " + move if protocol == "xboard" else b"bestmove " + move
            now, answer = ("go" if goes == 1 else "late" if goes == 3 else ""), \
                (lambda reply=reply: say(reply))
        else:
            continue
        if now == stage:
            misbehave(now, answer, b"move" if protocol == "xboard" else b"bestmove")
        else:
            answer()


run()
'''

ACTS = ("crash", "exit0", "close", "stall", "flood", "binary", "huge", "wrong")
STAGES = ("hello", "ready", "go", "late")
PROTOCOLS = ("uci", "usi", "xboard")
# The fake plays White's first 3 moves; the game is then drawn at ply 6.
# The grace leaves a fake that exits or closes its output time to be seen
# doing so before its clock runs out, on a machine loaded by the other tests.
SETTINGS = Settings(games=1, movetime=0.05, grace=3.0, max_plies=6)
NORMAL_END = r"^adjudicated: move limit$"
ENGINE_FAILED = r"^white's engine failed: {spec}: "
EXITED = ENGINE_FAILED + r"the engine has exited"


def expected(protocol: str, stage: str, act: str) -> str:
    """What the referee must say of a try: a regular expression over the
    game's reason, or over `refused: MESSAGE` for an engine that never
    finished its handshake ({spec} stands for the engine's spec)."""
    refused = r"^refused: {spec}: "
    if act in ("crash", "exit0", "close"):
        return (refused if stage == "hello" else ENGINE_FAILED) + r"the engine has exited"
    if stage == "hello":
        if act == "flood":
            return refused + r"the engine wrote more than 1000 lines or 1000000 characters"
        if act == "stall" and protocol == "xboard":   # no features: CECP's defaults
            return ENGINE_FAILED + "not ready in time"
        if act in ("stall", "wrong") and protocol != "xboard":
            return refused + r"no (uci|usi)ok in time"
        return NORMAL_END   # a CECP engine may send no features
    if stage == "ready":
        if act in ("stall", "flood", "wrong"):
            return ENGINE_FAILED + "not ready in time"
        return ENGINE_FAILED + "the engine wrote a line longer" if act == "huge" else NORMAL_END
    if act in ("stall", "flood", "wrong"):
        return r"^white lost on time"
    if act == "binary":
        return r"^white played an illegal move: .* \(bytes that are not UTF-8\)$"
    if stage == "late":
        return ENGINE_FAILED + "the engine wrote a line longer than 32768 bytes$"
    return r"^white played an illegal move: '-99999"


class Shuffler:
    """Black's side, played in this process: the knight g8-f6-g8."""

    name = "shuffler"

    def __init__(self) -> None:
        self.moves = 0

    def new_game(self, variant: Variant) -> None:
        self.moves = 0

    def set_clock(self, base: float, increment: float) -> None:
        return None

    def move(self, game: Game, clock: Clock, wait: float) -> str | None:
        self.moves += 1
        return "g8f6" if self.moves % 2 else "f6g8"

    def close(self) -> None:
        return None


def leftovers(marks: Path, seconds: float = 5.0) -> list[str]:
    """The command lines of live processes that carry `marks` (zombies have
    none), once none are left or after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                except OSError:
                    continue   # it ended meanwhile
                if str(marks) in line:
                    found.append(line)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    return script


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shorter waits for engines, so that a stalling engine costs little."""
    monkeypatch.setattr(driver, "HANDSHAKE_SECONDS", 2.0)
    monkeypatch.setattr(driver, "QUIT_SECONDS", 0.3)
    monkeypatch.setattr(driver, "TERM_SECONDS", 0.3)


def attempt(spec: str) -> tuple[str, float]:
    """The referee's word on one game of `spec` against the Shuffler, and
    the seconds it took, closing included."""
    start = time.monotonic()
    try:
        engine = player_for(spec)
    except (EngineFailure, MatchRefused) as exc:
        return f"refused: {exc}", time.monotonic() - start
    try:
        [result] = match(variantkit.load("chess"), (engine, Shuffler()), SETTINGS)
        return result.reason, time.monotonic() - start
    finally:
        engine.close()


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_hostile_sweep(fake: Path, tmp_path: Path, quick: None,
                       capfd: pytest.CaptureFixture[str]) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    open_files = len(os.listdir("/proc/self/fd"))
    tries = [(p, s, a) for p in PROTOCOLS for s in STAGES for a in ACTS]
    specs = [f"{p}:{sys.executable} {fake} {p} {s} {a} {marks}" for p, s, a in tries]
    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(attempt, specs, timeout=150))
    wrong = []
    for (protocol, stage, act), spec, (said, seconds) in zip(tries, specs, answers, strict=True):
        pattern = expected(protocol, stage, act).format(spec=re.escape(spec))
        if not re.search(pattern, said) or seconds > 20:
            wrong.append(f"{protocol} {stage} {act}: {said[:200]!r} in {seconds:.1f} s")
    assert not wrong, "\n".join(wrong)
    assert not leftovers(marks)
    assert "Traceback" not in capfd.readouterr().err
    # Every engine's pipes are closed too (a tournament starts thousands).
    deadline = time.monotonic() + 5
    while len(os.listdir("/proc/self/fd")) > open_files and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(os.listdir("/proc/self/fd")) <= open_files


# --- the `variantkit match` command as a process --------------------------------

def referee(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`variantkit match ARGS` run as a process; how much its peak memory
    grew (kB) after its modules were imported is written last on its
    standard error."""
    code = ("import atexit, resource, sys\n"
            "import variantkit.analysis.match, variantkit.cli.commands\n"
            "def peak(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "start = peak()\n"
            "atexit.register(lambda: sys.stderr.write(f'growth {peak() - start}\\n'))\n"
            "from variantkit.cli import main\n"
            "sys.argv = ['variantkit', 'match', *sys.argv[1:]]\n"
            "main()\n")
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def finished(process: subprocess.Popen[str], seconds: float = 60) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=seconds)
    return process.returncode, out, err


# How much the referee's memory may grow past what its modules take: a
# bounded part of what an engine writes (it grew by GBs when it kept all).
GROWTH_KB = 100_000


def growth_kb(err: str) -> int:
    return int(re.findall(r"^growth (\d+)$", err, re.MULTILINE)[-1])


def write_engine(tmp_path: Path, name: str, text: str) -> str:
    """A fake engine's script, as the command line that starts it."""
    script = tmp_path / name
    script.write_text(text, encoding="utf-8")
    return f"{sys.executable} {script}"


NOT_UTF8_UCI = r'''
import sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    word = line.split()[:1]
    if word == [b"uci"]:
        out.write(b"id name fake\xff\noption name \xff\xfe type check default false\nuciok\n")
    elif word == [b"isready"]:
        out.write(b"readyok\n")
    elif word == [b"go"]:
        out.write(b"bestmove e2\xff\xfe\n")
    out.flush()
'''
NOT_UTF8_CECP = r'''
import sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    word = line.split()[:1]
    if word == [b"protover"]:
        out.write(b'feature myname="fake\xff" ping=1 usermove=1\nfeature \xff=\xfe done=1\n')
    elif word == [b"ping"]:
        out.write(b"pong 1\n")
    elif word == [b"go"]:
        out.write(b"move \xff\xfe\n")
    out.flush()
'''


@pytest.mark.parametrize("protocol, script", [("uci", NOT_UTF8_UCI), ("xboard", NOT_UTF8_CECP)])
def test_output_that_is_not_utf8_is_an_illegal_move_at_once(
        tmp_path: Path, protocol: str, script: str) -> None:
    engine = write_engine(tmp_path, "not_utf8.py", script)
    start = time.monotonic()
    status, out, err = finished(referee("chess", f"{protocol}:{engine}", "builtin:1",
                                        "--games", "1", "--movetime", "5"))
    assert status == 0, err
    assert out.startswith("game 1: fake\ufffd - variantkit depth 1 0-1 (white played an "
                          "illegal move: "), out
    assert "(bytes that are not UTF-8))" in out.splitlines()[0]
    assert "Traceback" not in err
    assert time.monotonic() - start < 8   # at once, not after the move's 5 s


# Each writes distinct lines of its handshake without end: 99,000-byte
# options, 30,000-byte options, or 30,000-byte CECP features.
FLOODS = {
    "long options": ("uci", 99_000, b"option name O%d %s type check default false"),
    "many options": ("uci", 30_000, b"option name O%d %s type check default false"),
    "many features": ("xboard", 30_000, b"feature f%d=%s"),
}
FLOOD_ENGINE = r'''
import sys
sys.stdin.buffer.readline()
n = 0
while True:
    n += 1
    sys.stdout.buffer.write({line!r} % (n, b"x" * {size}) + b"\n")
'''


@pytest.mark.parametrize("flood", FLOODS)
def test_a_flooded_handshake_keeps_memory_bounded(tmp_path: Path, flood: str) -> None:
    protocol, size, line = FLOODS[flood]
    engine = write_engine(tmp_path, "flood.py", FLOOD_ENGINE.format(line=line, size=size))
    status, _, err = finished(referee("chess", f"{protocol}:{engine}", "builtin"))
    assert status == 1 and "Traceback" not in err
    reason = "a line longer than 32768 bytes" if size > driver.MAX_ENGINE_LINE else \
        "more than 1000 lines or 1000000 characters before"
    assert f"error: {protocol}:{engine}: the engine wrote {reason}" in err
    assert growth_kb(err) < GROWTH_KB   # it reached 1.2-3 GB when it kept every line


GAME_FLOOD_UCI = r'''
import sys, threading
out, lock = sys.stdout.buffer, threading.Lock()


def say(line):
    with lock:
        out.write(line + b"\n")
        out.flush()


def flood():
    n = 0
    while True:
        n += 1
        say(b"info string %d %s" % (n, b"x" * 30000))


for line in sys.stdin.buffer:
    word = line.split()[:1]
    if word == [b"uci"]:
        say(b"id name flood")
        say(b"uciok")
    elif word == [b"isready"]:
        say(b"readyok")
        threading.Thread(target=flood, daemon=True).start()
    elif word == [b"stop"]:
        say(b"bestmove 0000")
    elif word == [b"quit"]:
        break
'''


SLOW_UCI = r'''
import sys, time
for line in sys.stdin:
    word = line.split()[:1]
    if word == ["uci"]:
        print("id name slow", "uciok", sep="\n", flush=True)
    elif word == ["isready"]:
        print("readyok", flush=True)
    elif word == ["go"]:
        time.sleep(3)
        print("bestmove e2e4", flush=True)
    elif word == ["quit"]:
        break
'''


def test_a_flood_during_the_game_keeps_memory_bounded(tmp_path: Path) -> None:
    # It floods while its opponent thinks for 3 s (the referee idle, its
    # reader free to read), and through its own move.
    flood = write_engine(tmp_path, "flood.py", GAME_FLOOD_UCI)
    slow = write_engine(tmp_path, "slow.py", SLOW_UCI)
    status, out, err = finished(referee("chess", f"uci:{slow}", f"uci:{flood}", "--games", "1",
                                        "--movetime", "4"))
    assert status == 0 and "Traceback" not in err, err
    assert out.startswith("game 1: slow - flood 1-0 (black lost on time"), out
    assert growth_kb(err) < GROWTH_KB   # 500 MB or more, were every line kept


def test_an_engine_that_reads_nothing_cannot_block_the_referee(
        tmp_path: Path, quick: None) -> None:
    engine = write_engine(tmp_path, "deaf.py", "import time\ntime.sleep(60)\n")
    process = driver.Process(engine, "uci:deaf")
    try:
        start = time.monotonic()
        with pytest.raises(EngineFailure, match="uci:deaf: the engine has not read its input "
                                                "for 2 s"):
            process.send("position startpos moves" + " e2e4" * 50_000)   # past the pipe's room
        assert time.monotonic() - start < 5
    finally:
        process.close("quit")
    assert process.process.returncode is not None


# A variant file that takes chess's name for another setup, and the
# ini section of it that an engine must be told of.
OTHER_CHESS = """variantkit: 1
name: chess
inherits: chess
description: chess with each side's knights and bishops swapped
setup: rbnqknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKNBR w KQkq - 0 1
"""
OTHER_START = "startFen = rbnqknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKNBR w KQkq - 0 1"


def other_chess(tmp_path: Path) -> Path:
    path = tmp_path / "chess.yaml"
    path.write_text(OTHER_CHESS, encoding="utf-8")
    return path


def process_env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp)}


def wait_for(path: Path, process: subprocess.Popen[str], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path.name} never came"
        time.sleep(0.05)


@pytest.mark.parametrize("number, status, said", [
    (signal.SIGINT, 130, "error: stopped (Ctrl-C)"),
    (signal.SIGTERM, 143, "error: stopped (SIGTERM); the engines were closed"),
])
def test_a_signal_mid_game_leaves_no_process_and_no_file(
        fake: Path, tmp_path: Path, number: int, status: int, said: str) -> None:
    marks, tmp = tmp_path / "marks", tmp_path / "tmp"
    marks.mkdir()
    tmp.mkdir()
    # The fake stalls on its first move, and ignores quit, SIGINT and SIGTERM.
    spec = f"uci:{sys.executable} {fake} uci go stall {marks}"
    process = referee(str(other_chess(tmp_path)), spec, "builtin", "--movetime", "60",
                      env=process_env(tmp))
    wait_for(marks / "stalled", process)
    [ini] = tmp.iterdir()   # the variant's ini section, told the engine
    assert OTHER_START in ini.read_text(encoding="utf-8")
    process.send_signal(number)
    code, _, err = finished(process, 30)
    assert code == status and said in err.splitlines(), err
    assert not leftovers(marks)
    assert not list(tmp.iterdir())


def test_ctrl_c_during_a_handshake_that_never_ends(fake: Path, tmp_path: Path) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    process = referee("chess", f"uci:{sys.executable} {fake} uci hello stall {marks}", "builtin")
    wait_for(marks / "stalled", process)
    process.send_signal(signal.SIGINT)
    code, _, err = finished(process, 30)
    assert code == 130 and "error: stopped (Ctrl-C)" in err.splitlines(), err
    assert not leftovers(marks)


def test_an_engine_that_never_finishes_its_handshake_is_closed(
        fake: Path, tmp_path: Path, quick: None) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    with pytest.raises(EngineFailure, match="no uciok in time"):
        player_for(f"uci:{sys.executable} {fake} uci hello stall {marks}")
    assert not leftovers(marks)


# --- which game an engine is told of ---------------------------------------------

LOGGING_CECP = r'''
import sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line)
    word, _, rest = line.strip().partition(" ")
    if word == "protover":
        print('feature myname="logger" ping=1 usermove=1 variants="normal,chess" '
              'option="VariantPath -string <empty>" done=1', flush=True)
    elif word == "option" and rest.startswith("VariantPath="):
        log.write(open(rest.partition("=")[2]).read())
    elif word == "ping":
        print("pong " + rest, flush=True)
    elif word == "go":
        print("resign", flush=True)
    elif word == "quit":
        break
    log.flush()
'''


def test_a_file_that_takes_a_bundled_name_is_described_over_cecp(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    engine = write_engine(tmp_path, "logger.py", LOGGING_CECP) + f" {log}"
    status, out, err = finished(referee(str(other_chess(tmp_path)), f"xboard:{engine}",
                                        "builtin", "--games", "1"))
    assert (status, out.splitlines()[0]) == (0, "game 1: logger - variantkit 0-1 "
                                                "(white resigned)"), err
    told = log.read_text(encoding="utf-8")
    # Under a name that is not the engine's own chess, and with its setup.
    assert re.search(r"^option VariantPath=.*\.ini$", told, re.MULTILINE)
    assert "\n[chess-1]\n" in told and OTHER_START in told
    assert "\nvariant chess-1\n" in told


def test_the_bundled_variant_is_still_set_up_by_name(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    engine = write_engine(tmp_path, "logger.py", LOGGING_CECP) + f" {log}"
    status, out, err = finished(referee("chess", f"xboard:{engine}", "builtin", "--games", "1"))
    assert (status, out.splitlines()[0]) == (0, "game 1: logger - variantkit 0-1 "
                                                "(white resigned)"), err
    told = log.read_text(encoding="utf-8")
    assert "VariantPath" not in told and "\nvariant " not in told   # CECP's normal chess


def test_a_file_that_takes_a_bundled_name_is_refused_without_variantpath(
        tmp_path: Path) -> None:
    # variantkit's own CECP session lists chess but learns no variant files.
    spec = f"xboard:{sys.executable} -m variantkit xboard"
    status, out, err = finished(referee(str(other_chess(tmp_path)), spec, "builtin"))
    if status == 1:
        assert ("does not play chess as the file describes it (not the bundled variant "
                "of that name), and has no VariantPath option to learn it") in err
    else:   # should that session learn variant files, the game must be played right
        assert "illegal" not in out and status == 0, out + err


SEARCH_PATH = os.environ.get("PATH", "") + os.pathsep + "/usr/games"
FAIRY_STOCKFISH = shutil.which("fairy-stockfish", path=SEARCH_PATH)


def fair(results: list[str]) -> None:
    for reason in results:
        assert not re.search("illegal|failed|time", reason), results


def played(variant: Variant, spec: str, settings: Settings) -> list[str]:
    players: list[Player] = [BuiltinPlayer(1), player_for(spec)]
    try:
        return [result.reason for result in match(variant, (players[0], players[1]), settings)]
    finally:
        for player in players:
            player.close()


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")
@pytest.mark.parametrize("protocol", ["xboard", "uci"])
def test_fairy_stockfish_plays_the_file_not_its_own_chess(tmp_path: Path,
                                                          protocol: str) -> None:
    fair(played(variantkit.load(other_chess(tmp_path)), f"{protocol}:{FAIRY_STOCKFISH}",
                Settings(games=2, movetime=0.05, max_plies=16, grace=2.0)))


@pytest.mark.parametrize("variant", ["kyotoshogi", "micro", "duck", "amazons"])
def test_the_builtin_engine_over_usi_plays_legal_moves(variant: str) -> None:
    # Games whose moves USI once mistranslated: demotions (`1a1b-`), boards
    # other than 9x9, a duck's and an arrow's wall part.
    fair(played(variantkit.load(variant), f"usi:{sys.executable} -m variantkit usi",
                Settings(games=2, movetime=0.05, max_plies=12, opening_plies=2, grace=2.0)))
