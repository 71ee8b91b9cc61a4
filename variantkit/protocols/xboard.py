"""The built-in engine behind CECP v2 (the xboard/WinBoard protocol):
reads a GUI's commands, keeps the variant, position, clocks and mode it
sets, thinks on a thread when it is the engine's turn and writes its move;
in analyze mode it thinks on the position the GUI sets until `exit`.

`variant NAME` takes any bundled variant (`normal` is the default one); on
a letter-and-number grid it is followed by a `setup` line that tells a GUI
the board size, the pieces, the pieces in hand and the start position of a
variant it does not know, and a `piece` line with the moves of each piece
declared in Betza.  Errors are answered in CECP's forms: `Illegal move: M`,
`Error (REASON): COMMAND`, never a traceback.  `ping` is answered after the
move in progress, while `?` (move now) and `quit` are still read at once.

Moves are variantkit's move strings with XBoard's two differences
(`cecp_move`, `variantkit_move`): on a board of exactly ten ranks the
ranks count from 0, as XBoard's protocol specification says (xiangqi's
`h2e2` is variantkit's `h3e3`; boards of more ranks count from 1), and a
shogi-style move that may promote and does not is read with XBoard's `=`
(`h8b2=`) as well as without it."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, BinaryIO, TextIO

import variantkit
from variantkit.errors import IllegalMoveError, shorten
from variantkit.protocols.channel import Channel, command_words
from variantkit.protocols.host import (
    DEFAULT_VARIANT,
    MAX_NUMBER,
    REFUSED,
    Host,
    Thinking,
    bounded_float,
    bounded_int,
    load_variant,
    serve_session,
)
from variantkit.protocols.usi import grid_size
from variantkit.public_types import Move

if TYPE_CHECKING:
    from variantkit.engine.search import Limits, SearchInfo
    from variantkit.game import VariantFace
    from variantkit.variant import Variant

# CECP's name for the default variant.
NORMAL = "normal"
# The GUI's piece types in the order of its `setup` string, the king last.
XBOARD_PIECES = "PNBRQFEACWMOHIJGDVLSUK"
# The GUI keeps the promoted form of the piece at place i at place i + 11.
PROMOTED_OFFSET = 11
# Commands a GUI may send that change nothing here.
IGNORED = frozenset({"xboard", "accepted", "rejected", "random", "hard", "easy", "computer",
                     "name", "rating", "ics", "draw", "hint", "bk", "cores", "result"})
# A cell of a letter-and-number grid in a move's text (three digits at most:
# longer numbers name no cell and are left for the move to be refused).
CELL = re.compile(r"([a-z])([0-9]{1,3})(?![0-9])")
# XBoard counts the ranks from 0 on a board of exactly this many ranks
# (its protocol specification, since version 4.8; from 1 on all others).
ZERO_BASED_RANKS = 10
# Seconds a move may take at most (`st`), and megabytes `memory` may give.
MAX_MOVETIME = 1e6
MAX_MEMORY = 4096


def parse_clock(text: str) -> float:
    """`mm` or `mm:ss` as seconds (either may have a fraction)."""
    minutes, _, seconds = text.partition(":")
    return max(0.0, min(bounded_float(minutes) * 60 + (bounded_float(seconds) if seconds
                                                        else 0.0), MAX_NUMBER))


def zero_based(variant: VariantFace) -> bool:
    """Whether XBoard counts this board's ranks from 0: a letter-and-number
    grid of exactly ZERO_BASED_RANKS ranks."""
    size = grid_size(variant)
    return size is not None and size[1] == ZERO_BASED_RANKS


def cecp_move(variant: VariantFace, move: Move) -> str:
    """A move as CECP writes it: variantkit's text, each rank one lower on
    a board XBoard counts from 0."""
    return cecp_cells(variant, str(move))


def cecp_cells(variant: VariantFace, text: str) -> str:
    """`text` with each cell named as CECP names it (see cecp_move)."""
    if zero_based(variant):
        return CELL.sub(lambda m: f"{m[1]}{int(m[2]) - 1}", text)
    return text


def variantkit_move(variant: VariantFace, text: str) -> str:
    """The variantkit move string a CECP move stands for (unchecked: the
    game judges it): each rank one higher on a board XBoard counts from 0,
    and XBoard's `=` (a shogi-style move that does not promote) dropped."""
    text = text.removesuffix("=")
    if zero_based(variant):
        return CELL.sub(lambda m: f"{m[1]}{int(m[2]) + 1}", text)
    return text


def setup_places(letters: list[str], royal: list[str], held: bool) -> list[str] | None:
    """The GUI's piece table for a variant's letters (`.` where unused), or
    None where it cannot hold them: more pieces than places, or more
    promoted forms than the eleven places that have one.  With `held`
    (pieces in hand, which the GUI's holdings show from the first place on)
    the pieces keep to the first places."""
    places = ["."] * len(XBOARD_PIECES)
    for letter in royal:
        places[-1] = letter.upper()
    bases = [letter.upper() for letter in letters if len(letter) == 1]
    promoted = [b for b in bases if "+" + b in {letter.upper() for letter in letters}]
    if len(promoted) > PROMOTED_OFFSET or len(bases) + len(promoted) > len(places) - 1:
        return None

    def promotable(at: int) -> bool:
        return at < PROMOTED_OFFSET and places[at] == places[at + PROMOTED_OFFSET] == "."

    # A piece with a promoted form at its own place where it may be, then
    # the others at the first of the eleven whose promoted place is free.
    unplaced = []
    for base in promoted:
        own = XBOARD_PIECES.find(base)
        if own >= 0 and promotable(own):
            places[own], places[own + PROMOTED_OFFSET] = base, "+"
        else:
            unplaced.append(base)
    for base in unplaced:
        free = [at for at in range(PROMOTED_OFFSET) if promotable(at)]
        if not free:
            return None
        places[free[0]], places[free[0] + PROMOTED_OFFSET] = base, "+"
    rest = [letter for letter in bases if letter not in promoted]
    limit = PROMOTED_OFFSET if held else len(places) - 1
    for letter in rest:
        own = XBOARD_PIECES.find(letter)
        if 0 <= own < limit and places[own] == ".":
            places[own] = letter
    for letter in rest:
        if letter not in places:
            places[places.index(".")] = letter
    return places


class XboardSession(Host):
    """One GUI's CECP session with the built-in engine."""

    def __init__(self, channel: Channel) -> None:
        super().__init__(channel)
        self.force, self.engine_side = False, 1
        self.analyzing = False
        self.post = True
        self.movetime: float | None = None   # st
        self.depth: int | None = None        # sd
        self.base, self.increment, self.moves_per_session = 300.0, 0.0, 0
        self.own_time: float | None = None   # time, in seconds
        self.other_time: float | None = None  # otim

    def refuse_line(self, reason: str, detail: str) -> None:
        self.channel.write(f"Error ({reason}): {detail}")

    def at_once(self, word: str) -> None:
        # `?` moves now even while `ping` waits for that very move.
        thinking = self.thinking
        if word == "?" and thinking is not None and not self.analyzing:
            thinking.stop.set()

    def command(self, line: str) -> None:
        word, rest = command_words(line)
        try:
            self.dispatch(word, rest, line)
        except (ValueError, IndexError):
            self.channel.write(f"Error (bad arguments): {shorten(line, 80)}")

    def dispatch(self, word: str, rest: str, line: str) -> None:
        if word == "protover":
            names = ",".join([NORMAL] + [n for n in variantkit.variants() if n != DEFAULT_VARIANT])
            self.channel.write(
                "feature done=0",
                f'feature myname="variantkit {variantkit.__version__}" variants="{names}"',
                "feature setboard=1 usermove=1 ping=1 time=1 sigint=0 sigterm=0 colors=0 "
                "analyze=1 memory=1 draw=0 reuse=1 san=0 done=1")
        elif word == "new":
            self.finish()
            self.select(DEFAULT_VARIANT)
            self.force, self.engine_side = False, 1
            self.movetime = self.depth = None
            self.reanalyze()
        elif word == "variant":
            self.finish()
            self.choose_variant(rest)
            self.reanalyze()
        elif word == "setboard":
            self.finish()
            try:
                self.game = self.variant.new_game(" ".join(rest.split()))
            except REFUSED as exc:
                self.channel.write("Error (illegal position): "
                                   f"{shorten(' '.join(str(exc).split()), 200)}")
            self.reanalyze()
        elif word == "usermove":
            self.user_move(rest)
        elif word == "force":
            self.finish()
            self.force = True
        elif word == "go":
            self.finish()
            self.analyzing = False
            self.force, self.engine_side = False, self.game.position.stm
            self.think()
        elif word == "playother":
            self.finish()
            self.force, self.engine_side = False, 1 - self.game.position.stm
        elif word == "?":
            if self.thinking is not None and not self.analyzing:
                self.thinking.stop.set()
        elif word == "ping":
            if not self.analyzing:   # an analysis hands no move on
                self.wait_for_search()
            self.channel.write(f"pong {shorten(rest, 40)}")
        elif word == "level":
            mps, base, inc = rest.split()
            self.moves_per_session = max(0, bounded_int(mps))
            self.base = parse_clock(base)
            self.increment = max(0.0, min(bounded_float(inc), MAX_NUMBER))
            self.movetime = None
        elif word == "st":
            self.movetime = max(0.01, min(bounded_float(rest), MAX_MOVETIME))
        elif word == "sd":
            from variantkit.engine.search import MAX_DEPTH

            self.depth = max(1, min(bounded_int(rest), MAX_DEPTH))
        elif word == "time":
            self.own_time = max(0, bounded_int(rest)) / 100
        elif word == "otim":
            self.other_time = max(0, bounded_int(rest)) / 100
        elif word == "memory":
            from variantkit.engine.search import TT_ENTRY_BYTES

            megabytes = max(1, min(bounded_int(rest), MAX_MEMORY))
            self.finish()
            self.table_entries = megabytes * 2**20 // TT_ENTRY_BYTES
            if self._engine is not None:
                self.tune(self._engine)
            self.reanalyze()
        elif word in ("undo", "remove"):
            self.finish()
            for _ in range(1 if word == "undo" else 2):
                if self.game.plies:
                    self.game.pop()
            self.reanalyze()
        elif word == "analyze":
            self.finish()
            self.analyzing = True
            self.reanalyze()
        elif word == "exit":
            if self.analyzing:
                self.finish()
                self.analyzing = False
        elif word == ".":
            self.status()
        elif word == "post":
            self.post = True
        elif word == "nopost":
            self.post = False
        elif word not in IGNORED:
            # A bare move is a move where usermove=1 was refused.
            self.channel.write(f"Error (unknown command): {shorten(line, 80)}")

    def choose_variant(self, name: str) -> None:
        if name != NORMAL and name not in variantkit.variants():
            self.channel.write(f"Error (unknown variant): {shorten(name, 80)}")
            return
        self.install(load_variant(DEFAULT_VARIANT if name == NORMAL else name))
        lines = self.setup_lines(self.variant)
        if lines:
            self.channel.write(*lines)

    def setup_lines(self, variant: Variant) -> list[str]:
        """`setup (PIECES) WxH+HAND_fairy FEN` for a GUI that does not know
        the variant, then `piece L BETZA` for each piece declared in Betza;
        none off a letter-and-number grid.  PIECES lists each piece at a
        place of the GUI's table (XBOARD_PIECES), the royal one at the
        king's: a shogi-style promoted piece `+X` as `+` eleven places after
        X (where the GUI keeps promoted forms), X then among the first
        eleven; a crazyhouse-style `X~` is X in the GUI's eyes.  The others
        take the place of the GUI's piece of the same letter, or a free one.
        HAND is how many places the GUI's holdings show: up to the last
        piece placed that is not promoted."""
        size = grid_size(variant)
        if size is None:
            return []
        places = setup_places([t.letter for t in variant.pieces.types if not t.royal],
                              [t.letter for t in variant.pieces.types if t.royal][:1],
                              variant.rules.hands.has_hands)
        if places is None:
            return []
        white = "".join(places)
        held = [at for at, letter in enumerate(places[:-1]) if letter not in ".+"]
        hand = max(held) + 1 if variant.rules.hands.has_hands and held else 0
        lines = [f"setup ({white}{white.lower()}) {size[0]}x{size[1]}+{hand}_fairy "
                 f"{variant.setup_fen}"]
        declared = variant.document.data.get("pieces", {})
        for t in variant.pieces.types:
            spec = declared.get(t.name)
            if len(t.letter) == 1 and isinstance(spec, dict) \
                    and isinstance(spec.get("betza"), str):
                lines.append(f"piece {t.letter.upper()} {spec['betza']}")
        return lines

    def user_move(self, text: str) -> None:
        self.finish()
        try:
            self.game.push(variantkit_move(self.variant, text))
        except (IllegalMoveError, ValueError):
            self.channel.write(f"Illegal move: {shorten(text, 40)}")
            return
        if self.analyzing:
            self.reanalyze()
        elif not self.announce_end() and not self.force \
                and self.game.position.stm == self.engine_side:
            self.think()

    def announce_end(self) -> bool:
        outcome = self.game.outcome()
        if outcome is None:
            return False
        token = {"white": "1-0", "black": "0-1"}.get(outcome.winner or "", "1/2-1/2")
        self.channel.write(f"{token} {{{outcome}}}")
        return True

    def limits(self) -> Limits:
        from variantkit.engine.search import Limits

        if self.movetime is not None:
            return Limits(depth=self.depth, movetime=self.movetime)
        own = self.own_time if self.own_time is not None else self.base
        other = self.other_time if self.other_time is not None else self.base
        stm = self.game.position.stm
        moves_done = self.game.plies // 2
        to_go = self.moves_per_session - moves_done % self.moves_per_session \
            if self.moves_per_session else None
        return Limits(depth=self.depth, wtime=other if stm else own, btime=own if stm else other,
                      winc=self.increment, binc=self.increment, movestogo=to_go)

    def think(self) -> None:
        if not self.game.legal_moves():
            self.announce_end()
            return
        self.thinking = Thinking(self.engine, self.game, self.limits(), self.info, self.done,
                                 hold=False)

    def reanalyze(self) -> None:
        """In analyze mode, think about the position now set until told
        otherwise (a game that is over is not thought about); its lines
        are written as they come, no move is played."""
        from variantkit.engine.search import Limits

        if not self.analyzing or not self.game.legal_moves():
            return
        self.thinking = Thinking(self.engine, self.game, Limits(infinite=True), self.info,
                                 self.analysed, hold=True)

    def analysed(self, move: Move | None) -> None:
        """An analysis ends with no move played."""

    def status(self) -> None:
        """`.` in analyze mode: `stat01: TIME NODES DEPTH LEFT TOTAL`, the
        centiseconds and nodes of the analysis so far, the depth it
        searches, and the root moves left of those at that depth."""
        thinking = self.thinking
        if not self.analyzing or thinking is None:
            return
        depth, searched, total = self.engine.progress
        centiseconds = round(thinking.elapsed * 100)
        self.channel.write(f"stat01: {centiseconds} {self.engine.nodes} {depth} "
                           f"{max(total - searched, 0)} {total}")

    def info(self, info: SearchInfo) -> None:
        if self.post or self.analyzing:
            pv = " ".join(cecp_move(self.variant, m) for m in info.pv)
            mate = info.mate_in
            score = info.score if mate is None else (100000 + mate if mate > 0 else -100000 + mate)
            centiseconds = round(info.seconds * 100)
            self.channel.write(f"{info.depth} {score} {centiseconds} {info.nodes} {pv}")

    def done(self, move: Move | None) -> None:
        if move is None:
            return
        self.game.push(move)
        self.channel.write(f"move {cecp_move(self.variant, move)}")
        self.announce_end()


def serve(source: BinaryIO | None = None, sink: TextIO | None = None) -> int:
    """Run one session on standard input and output (or the streams
    given); the exit status."""
    return serve_session(XboardSession(Channel(source or sys.stdin.buffer,
                                                sink or sys.stdout)))
