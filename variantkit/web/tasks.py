"""What the playground computes, as functions of plain JSON requests.

Each task takes the request's fields (a source, a start position, the moves
played, ...) and returns a JSON-ready answer; the position is rebuilt from
the start and the moves every time, so the server keeps no game state.  A
variant's problems, a bad position string or an illegal move come back as
`problems` records, never as an exception.  These functions run inside a
playground worker process (`workers`), which bounds their time and memory.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from variantkit.drawing.svg import render
from variantkit.engine.search import Engine
from variantkit.errors import IllegalMoveError, InvalidFenError, Problem, VariantError, quote
from variantkit.game import Game, Move
from variantkit.pair import BOARDS, plays_on_two_boards, write_bpgn
from variantkit.pgn import write_pgn
from variantkit.pieces import type_of
from variantkit.public_types import SIDES
from variantkit.rulebook.look import PIECE_SETS
from variantkit.rulebook.notation import STYLES, fits
from variantkit.variant import Variant
from variantkit.web import pairs
from variantkit.web.pairs import PairReplay
from variantkit.web.sources import RequestError, Variants, source_key, source_text

MAX_PLIES = 1000        # moves a request may replay
MAX_PERFT_DEPTH = 5
MAX_ENGINE_DEPTH = 8
MAX_ENGINE_SECONDS = 10.0
CACHED_GAMES = 8
# The fields each task reads; a request with any other is refused, so that a
# misspelt field is not silently ignored.
POSITION_FIELDS = frozenset({"source", "start", "moves", "ply", "notation"})
FIELDS = {
    "position": POSITION_FIELDS | {"select", "drop", "wall", "flip", "pieces"},
    "source": frozenset({"source"}),
    "perft": POSITION_FIELDS | {"depth"},
    "explain": POSITION_FIELDS | {"cell", "drop", "pieces"},
    "pgn": POSITION_FIELDS,
    # `board`: the board of a pair the engine plays on (A or B).
    "search": POSITION_FIELDS | {"depth", "seconds", "board"},
}

Answer = dict[str, Any]
_variants = Variants()


def move_text(game: Game, move: Move, style: str | None = None) -> str:
    """How the move list writes `move`, played from `game`'s position: in
    `style`, the variant's own by default."""
    return game.san(move, style)


def notation_style(request: Answer, variant: Variant) -> str:
    """The style the request's `notation` asks moves to be written in (the
    variant's own when it is missing): one of the styles that fit the board."""
    style: str = _field(request, "notation", str, variant.rules.notation.style)
    if style not in STYLES or not fits(variant.board, variant.rules.forwards, style):
        offered = [s for s in STYLES if fits(variant.board, variant.rules.forwards, s)]
        raise RequestError(f"'notation' should be one of {', '.join(offered)}, "
                           f"not {quote(style)}")
    return style


def problem_record(problem: Problem) -> Answer:
    return {"line": problem.line, "column": problem.column, "rule": problem.rule,
            "message": problem.message, "severity": problem.severity}


def failure(message: str, rule: str) -> Answer:
    """An answer carrying one problem that has no place in a file."""
    return {"ok": False, "problems": [{"line": None, "column": None, "rule": rule,
                                       "message": message, "severity": "error"}]}


def unknown_fields(task: str, request: Answer) -> Answer | None:
    """The refusal of a request with a field that `task` does not read."""
    unknown = sorted(set(request) - FIELDS[task])
    if not unknown:
        return None
    return failure(f"unknown field {quote(unknown[0])} (a {task} request has "
                   f"{', '.join(sorted(FIELDS[task]))})", "bad-request")


def _field(request: Answer, name: str, kind: type | tuple[type, ...],
           default: Any = None) -> Any:
    """A request's field, checked to be of `kind` (a bool is no number), or
    `default` when it is missing or null."""
    value = request.get(name)
    if value is None:
        return default
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join({bool: "true or false", str: "a text", list: "a list", int: "a whole "
                             "number", float: "a number"}[k] for k in kinds)
        raise RequestError(f"'{name}' should be {names}, not {type(value).__name__}")
    return value


def _piece_set(request: Answer) -> str:
    """The piece set the drawing asks for (`traditional` by default)."""
    pieces: str = _field(request, "pieces", str, "traditional")
    if pieces not in PIECE_SETS:
        raise RequestError(f"'pieces' should be one of {', '.join(PIECE_SETS)}, "
                           f"not {quote(pieces)}")
    return pieces


@dataclass
class Replay:
    """A game after some moves, with their texts and move strings."""

    game: Game
    texts: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)


class Replays:
    """The last games replayed, so that a request that adds a move to one of
    them (the common case: a click) replays only that move."""

    def __init__(self) -> None:
        self._games: OrderedDict[tuple[Any, ...], Replay] = OrderedDict()

    def replay(self, variant: Variant, source: Any, start: str | None,
               moves: list[str], style: str) -> Replay:
        """The game after `moves`, each written in `style`."""
        key = (source_key(source), start, style)
        cached = self._games.get(key)
        if cached is not None and cached.played == moves[:len(cached.played)]:
            done = Replay(cached.game.copy(), list(cached.texts), list(cached.played))
        else:
            done = Replay(variant.new_game(start))
        game = done.game
        for text in moves[len(done.played):]:
            # A move string is found quickly; anything else is read as SAN,
            # which raises IllegalMoveError with the reason.
            try:
                move = game.push(text)
                game.pop()
            except IllegalMoveError:
                move = game.parse_san(text)
            done.texts.append(move_text(game, move, style))
            done.played.append(str(move))
            game.push(move)
        self._games[key] = Replay(game.copy(), list(done.texts), list(done.played))
        self._games.move_to_end(key)
        if len(self._games) > CACHED_GAMES:
            self._games.popitem(last=False)
        return done


_replays = Replays()
_pair_replays = pairs.PairReplays(CACHED_GAMES)


def _moves(request: Answer) -> tuple[str | None, list[str], int]:
    """A request's start position, moves and `ply` (how many of the moves
    the position stands after: all by default), checked."""
    start = _field(request, "start", str)
    moves = _field(request, "moves", list, [])
    if len(moves) > MAX_PLIES or not all(isinstance(m, str) for m in moves):
        raise RequestError(f"'moves' should be a list of at most {MAX_PLIES} move texts")
    ply = _field(request, "ply", int, len(moves))
    if not 0 <= ply <= len(moves):
        raise RequestError(f"'ply' should be between 0 and {len(moves)}")
    return start or None, moves, ply


def _pair(request: Answer) -> PairReplay | None:
    """The request's pair when its variant is played on two boards (its
    moves written with their board: `pairs.PairReplays`), else None."""
    variant = _variants.get(request.get("source"))
    if not plays_on_two_boards(variant):
        return None
    start, moves, ply = _moves(request)
    return _pair_replays.replay(source_key(request.get("source")), variant, start, moves, ply,
                                notation_style(request, variant))


class Position:
    """The request's game: the variant, the start position and the moves
    replayed, with each move's text in the `notation` style asked for; the
    game stands after the first `ply` moves (all of them by default)."""

    def __init__(self, request: Answer) -> None:
        source = request.get("source")
        self.variant: Variant = _variants.get(source)
        start, moves, ply = _moves(request)
        self.style = notation_style(request, self.variant)
        done = _replays.replay(self.variant, source, start, moves, self.style)
        self.game, self.texts, self.played = done.game, done.texts, done.played
        for _ in range(len(moves) - ply):
            self.game.pop()

    def status(self) -> str:
        """Whose turn, check and the result, as the status line shows them."""
        outcome = self.game.outcome()
        if outcome is not None:
            return str(outcome).capitalize()
        check = ", in check" if self.game.is_check() else ""
        played = self.game.position.turn_played()   # inside a turn of several moves
        going_on = f" again (move {played + 1} of its turn)" if played else ""
        return f"{self.game.turn.capitalize()} to move{going_on}{check}"

    def cell(self, name: str | None) -> int:
        index = None if name is None else self.variant.board.index.get(name)
        if index is None:
            raise RequestError("no cell given" if name is None else f"unknown cell {quote(name)}")
        return index

    def hand_piece(self, letter: str) -> int:
        """The code of a piece in a hand, by its letter as the hand shows it
        (upper case in White's hand, lower case in Black's)."""
        variant = self.variant
        code = variant.code_of_letter(letter)
        if not variant.rules.hands.has_hands or code is None or not self.game.position.hands[code]:
            raise RequestError(f"no {quote(letter)} in hand")
        return code

    def drops(self, letter: str) -> list[str]:
        """The cells of the legal drops of the hand's piece `letter`."""
        code = self.hand_piece(letter)
        if code & 1 != self.game.position.stm:
            return []
        return [m.to_cell for m in self.game.legal_moves() if m.drop == letter.upper()]

    def walls(self, pending: str) -> tuple[Move, list[str]]:
        """A move that places a wall, named without its wall (`e2e4` for
        `e2e4,e4e5`): one such legal move and the cells its wall may go to."""
        placing = [m for m in self.game.legal_moves()
                   if m.wall and str(m).partition(",")[0] == pending]
        if not placing:
            raise RequestError(f"no legal move {quote(pending)} places a wall")
        return placing[0], [m.wall for m in placing if m.wall]

    def from_hand(self, move: Move) -> bool:
        """Whether the page has the player pick `move`'s piece from a hand
        before the drop: when the hand holds it and the game has more than
        one kind of piece.  Other drops (ataxx's copies, flipello's discs)
        are played by a click on their cell."""
        if move.drop is None or not self.variant.rules.hands.has_hands:
            return False
        side = self.game.turn
        letter = move.drop if side == "white" else move.drop.lower()
        return bool(self.game.hand(side).get(letter)) and len(self.variant.pieces.types) > 1

    def hands(self) -> dict[str, dict[str, int]] | None:
        """Each side's hand, letter -> count (None without hands)."""
        if not self.variant.rules.hands.has_hands:
            return None
        return {side: self.game.hand(side) for side in SIDES}


def position(request: Answer) -> Answer:
    """The board, position string, status, move list, legal moves and the
    hands; with `select` (a cell), that piece's destinations marked on the
    board; with `drop` (a letter in a hand), that piece's legal drops; with
    `wall` (a move that places a wall, written without it: `e2e4`), its
    cells highlighted and the cells its wall may go to marked as drops.
    The drops played by a click on their cell (`from_hand` false) are
    marked unless a piece in hand or a wall is being placed.  A pair's
    answer is `pairs.position`'s: cells and hand pieces named with their
    board (`A:e2`, `B:p`)."""
    done = _pair(request)
    if done is not None:
        variant = done.pair.variant
        answer = pairs.position(
            done, [variant.rules.notation.style, *variant.rules.notation.traditions],
            _field(request, "select", str), _field(request, "drop", str),
            _field(request, "flip", bool, False), _piece_set(request))
        return {**answer, "problems": [problem_record(p) for p in variant.problems]}
    here = Position(request)
    game = here.game
    legal = game.legal_moves()
    selected = _field(request, "select", str)
    dropping = _field(request, "drop", str)
    pending = _field(request, "wall", str)
    highlight = [selected] if selected else []
    targets = {m.to_cell: "drop" for m in legal if m.drop and not here.from_hand(m)}
    if dropping is not None:
        targets = dict.fromkeys(here.drops(dropping), "drop")
    if pending is not None:
        move, cells = here.walls(pending)
        highlight = [move.from_cell, move.to_cell]
        targets = dict.fromkeys(cells, "drop")
    if selected is not None:
        here.cell(selected)
        for move in legal:
            if move.from_cell == selected:
                kind = pairs.kind_of(game, move)
                # A cell both reached and suborned shows the suborn.
                cell = pairs.clicked_cell(move)
                if targets.get(cell) != "suborn":
                    targets[cell] = kind
    outcome = game.outcome()
    flip = _field(request, "flip", bool, False)
    svg = render(game, flip=flip, highlight=highlight, targets=targets,
                 hand_highlight=dropping, pieces=_piece_set(request))
    return {
        "ok": True, "problems": [problem_record(p) for p in here.variant.problems],
        "name": here.variant.name, "svg": svg, "fen": game.fen(), "status": here.status(),
        "piece_sets": bool(here.variant.rules.look.characters),
        "turn": game.turn, "over": outcome is not None, "moves": here.texts,
        "notation": here.style,
        "notations": [here.variant.rules.notation.style, *here.variant.rules.notation.traditions],
        "played": here.played,
        "legal": [{"move": str(m), "from": m.from_cell, "to": pairs.clicked_cell(m),
                   "promotion": m.promotion, "suborn": m.suborn, "swap": m.swap,
                   "drop": m.drop,
                   "wall": m.wall, "from_hand": here.from_hand(m)}
                  for m in legal],
        "hands": here.hands(),
        "pieces": {t.letter.lower(): t.name for t in here.variant.pieces.types},
    }


def source(request: Answer) -> Answer:
    """The YAML text of a bundled or example variant, for the editor."""
    return {"ok": True, "yaml": source_text(request.get("source"))}


def perft(request: Answer) -> Answer:
    """The number of move sequences `depth` plies deep (at most MAX_PERFT_DEPTH)."""
    from variantkit import perft as count

    depth = _field(request, "depth", int, 1)
    if not 1 <= depth <= MAX_PERFT_DEPTH:
        raise RequestError(f"perft depth is 1 to {MAX_PERFT_DEPTH} in the playground")
    if _pair(request) is not None:
        raise RequestError("perft counts the moves of one board, not of a pair: count a "
                           "board with `variantkit perft` and its position string")
    game = Position(request).game
    started = time.perf_counter()
    nodes = count(game, depth)
    return {"ok": True, "depth": depth, "nodes": nodes,
            "seconds": round(time.perf_counter() - started, 3)}


def explain(request: Answer) -> Answer:
    """The piece on `cell`: its legal moves here, and where it reaches from
    that cell on an otherwise empty board (drawn, with its marks).  With
    `drop` (a letter in a hand) instead: that piece's legal drops here and
    its drop region."""
    if _pair(request) is not None:
        raise RequestError("explain shows one board's pieces, not a pair's")
    here = Position(request)
    game, variant = here.game, here.variant
    dropping = _field(request, "drop", str)
    pieces = _piece_set(request)
    if dropping is not None:
        return _explain_drop(here, dropping, pieces)
    cell = here.cell(_field(request, "cell", str))
    code = game.position.cells[cell]
    if not code:
        raise RequestError(f"no piece on {variant.board.names[cell]}")
    kind = variant.pieces.types[type_of(code)]
    name = variant.board.names[cell]
    legal = sorted(m.to_cell for m in game.legal_moves() if m.from_cell == name)
    alone = Game(variant)
    alone.position.place(cell, code)
    reached = variant.board.cells_of(variant.empty_board_reach(code, cell))
    side = "white" if code & 1 == 0 else "black"
    waiting = "" if side == game.turn else f", {game.turn} to move"
    lines = [f"{side} {kind.name} ({variant.letter_of_code(code)}) on {name}",
             f"legal moves now ({len(legal)}{waiting}): {' '.join(legal) or 'none'}",
             f"on an empty board it reaches ({len(reached)}): "
             + " ".join(variant.board.names[c] for c in reached)]
    svg = render(alone, highlight=[name], pieces=pieces,
                 targets={variant.board.names[c]: "move" for c in reached})
    return {"ok": True, "text": "\n".join(lines), "svg": svg}


def _explain_drop(here: Position, letter: str, pieces: str) -> Answer:
    """A piece in hand: its legal drops now, and its drop region (drawn on
    the position, the legal drops marked)."""
    game, variant = here.game, here.variant
    code = here.hand_piece(letter)
    kind = variant.pieces.types[type_of(code)]
    side = SIDES[code & 1]
    legal = here.drops(letter)
    region = variant.board.cells_of(variant.rules.hands.drop_regions[code])
    waiting = "" if side == game.turn else f", {game.turn} to move"
    lines = [f"{side} {kind.name} ({letter}) in hand ({game.position.hands[code]})",
             f"legal drops now ({len(legal)}{waiting}): {' '.join(sorted(legal)) or 'none'}",
             f"its drop region ({len(region)}): "
             + " ".join(variant.board.names[c] for c in region)]
    svg = render(game, targets=dict.fromkeys(legal, "drop"), hand_highlight=letter,
                 pieces=pieces)
    return {"ok": True, "text": "\n".join(lines), "svg": svg}


def pgn(request: Answer) -> Answer:
    """The game up to the shown position as PGN text (a pair's as bughouse
    PGN)."""
    done = _pair(request)
    if done is not None:
        return {"ok": True, "pgn": write_bpgn(done.pair, Event="variantkit playground")}
    here = Position(request)
    return {"ok": True, "pgn": write_pgn(here.game, here.style, Event="variantkit playground")}


def search_limits(request: Answer) -> tuple[float | None, int]:
    """A search request's `seconds` (None: the depth decides) and `depth`,
    capped; a RequestError for a value of the wrong kind.  Cheap, so that
    the server checks them before it starts a search process."""
    seconds = _field(request, "seconds", (int, float))
    depth = _field(request, "depth", int)
    if seconds is not None:
        if not math.isfinite(seconds):  # min and max would let NaN through
            raise RequestError("'seconds' should be a finite number")
        seconds = min(max(float(seconds), 0.1), MAX_ENGINE_SECONDS)
    return seconds, min(max(depth or MAX_ENGINE_DEPTH, 1), MAX_ENGINE_DEPTH)


def search(request: Answer, report: Callable[[Answer], None]) -> Answer:
    """The engine's move, deepening one ply at a time and reporting each
    depth's evaluation and main line; `seconds` or `depth` bound it (both
    capped)."""
    seconds, depth = search_limits(request)
    done = _pair(request)
    if done is not None:  # the engine plays one board's side to move
        board = _field(request, "board", str, "A")
        if board not in BOARDS:
            raise RequestError(f"'board' should be A or B, not {quote(board)}")
        variant, style, prefix = done.pair.variant, done.style, f"{board}:"
        game = done.pair.game(board)
        if not done.pair.legal_moves(board):
            raise RequestError("the game is over")
    else:
        here = Position(request)
        variant, style, prefix, game = here.variant, here.style, "", here.game
    if not game.legal_moves():
        raise RequestError("the game is over")
    engine = Engine(variant)
    # Without a time the depth decides, yet the search never passes the cap.
    budget = seconds if seconds is not None else MAX_ENGINE_SECONDS
    deadline = time.perf_counter() + budget
    best: Answer = {}
    for d in range(1, depth + 1):
        left = deadline - time.perf_counter()
        if d > 1 and left <= 0:
            break
        move = engine.best_move(game, depth=d, time_limit=max(left, 0.01))
        info = engine.info
        best = {"move": f"{prefix}{move}", "text": prefix + move_text(game, move, style),
                "depth": info.depth, "score": info.score_text, "nodes": info.nodes,
                "pv": _line(game, info.pv, style)}
        report(best)
        if info.depth < d:
            break  # the time ran out inside this depth
    return {"ok": True, **best}


def _line(game: Game, moves: list[Move], style: str) -> list[str]:
    """A main line as the move list writes it, in `style`."""
    texts = []
    for move in moves:
        texts.append(move_text(game, move, style))
        game.push(move)
    for _ in moves:
        game.pop()
    return texts


TASKS: dict[str, Callable[[Answer], Answer]] = {
    "position": position, "source": source, "perft": perft, "explain": explain, "pgn": pgn,
}


def run(task: Callable[..., Answer], *args: Any) -> Answer:
    """A task's answer, with every foreseen failure as problems."""
    try:
        return task(*args)
    except VariantError as exc:
        return {"ok": False, "problems": [problem_record(p) for p in exc.problems]}
    except InvalidFenError as exc:
        return failure(f"bad position string: {exc}", "bad-position")
    except IllegalMoveError as exc:
        return failure(str(exc), "illegal-move")
    except RequestError as exc:
        return failure(str(exc), "bad-request")
    except (MemoryError, RecursionError):
        return failure("the variant needs more memory than the playground allows",
                       "too-large")
