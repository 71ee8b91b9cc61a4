"""Commands that play games with the built-in engine: play, selfplay.

    variantkit play VARIANT [--as white|black] [--depth N | --time S] [--fen F] [--pgn FILE]
    variantkit selfplay VARIANT [--games N] [--depth D] [--seed S] [--max-plies P]
                        [--random-plies R] [--fen F] [--pgn FILE]

`play` reads one entry a line, so it also works with piped input.  A game
on two boards (bughouse: `variantkit.pair`) is played as a pair: the user's
team is named by its colour on board A, moves name their board (`A:e2e4`,
`B:P@e5`), and the engine plays the other team's seat on each board.
"""

from __future__ import annotations

import datetime
import random
import sys
from collections import Counter
from collections.abc import Iterator

import click

from variantkit.cli.common import (
    check_output,
    cli,
    fail,
    game_for,
    input_files,
    load_variant,
    play_moves,
    position_options,
    use_color,
    write_output,
)
from variantkit.cli.options import (
    depth_option,
    games_option,
    max_plies_option,
    pgn_option,
    random_plies_option,
    seed_option,
    think_time_option,
)
from variantkit.drawing.terminal import board_text
from variantkit.engine.search import DEFAULT_DEPTH, Engine
from variantkit.errors import IllegalMoveError, InvalidFenError
from variantkit.game import Game, Move
from variantkit.notation.san import legal_san
from variantkit.pair import BOARDS, Pair, PairOutcome, plays_on_two_boards, write_bpgn
from variantkit.pgn import result_token, write_pgn
from variantkit.public_types import SIDES, Outcome

HELP = """\
Enter a move in SAN (Nf3, exd5, O-O, e8=Q, D~g2, a drop P@e4) or as a move
string (e2e4, e7e8q, Ae1Bg1, f1~g2), a cell to list its moves, or:
  moves   the legal moves, in SAN
  undo    take back the engine's last move and yours
  fen     the position string
  resign  give up the game
  help    this text
  quit    stop without a result"""
PAIR_HELP = """\
Enter a move with its board first, in SAN or as a move string: A:e4, B:Nf3,
A:P@e5, B:e7e5 (your team plays White on board A and Black on board B, or
the other way round), or:
  moves   the legal moves of your seats, in SAN
  undo    take back your last move and the engine's moves since
  fen     the pair's position string (board A's | board B's)
  resign  give up the game
  help    this text
  quit    stop without a result"""
MOVE_LIMIT = "move limit"


@cli.command()
@click.argument("variant")
@click.option("--as", "side", type=click.Choice(SIDES), default="white", show_default=True,
              help="The side you play.")
@depth_option(None, shown=DEFAULT_DEPTH)
@think_time_option("Engine thinking time per move, in seconds (instead of --depth).")
@position_options
@pgn_option("Add the game to FILE as PGN at the end (also after Ctrl-C).")
def play(variant: str, side: str, depth: int | None, seconds: float | None, fen: str | None,
         moves: tuple[str, ...], pgn_path: str | None) -> None:
    """Play a game against the engine in the terminal.

    On two boards (bughouse), --as names your team by its colour on board A
    and moves name their board: A:e4, B:P@e5."""
    if depth is not None and seconds is not None:
        fail("give --depth or --time, not both")
    pair = pair_for(variant, fen, moves)
    if pair is not None:
        play_pair(pair, SIDES.index(side), depth, seconds, pgn_path)
        return
    game = game_for(variant, fen, moves)
    check_output(pgn_path, input_files(game.variant), "a")
    engine = Engine(game.variant)
    human = SIDES.index(side)
    click.echo(f"{game.variant.name}: you play {side}; type 'help' for commands.\n")
    show(game)
    result = "*"
    while True:
        if (ended := game.outcome()) is not None:
            result = game_over(ended)
            break
        if game.position.stm != human:
            move = think(engine, game, depth, seconds)
            if move is None:
                click.echo("\nStopped: game left unfinished.")
                break
            written = game.san(move)
            mover = game.turn.capitalize()
            game.push(move)
            info = engine.info
            click.echo(f"{mover} plays {written} (depth {info.depth}, "
                       f"score {info.score_text}, {info.nodes:,} nodes, {info.seconds:.2f} s)\n")
            show(game)
            continue
        entry = next_entry(f"{game.turn} to move")
        if entry == "quit":
            click.echo("\nGame left unfinished.")
            break
        if entry == "resign":
            winner = SIDES[1 - human]
            click.echo(f"You resign: {winner} wins.")
            result = result_token(winner)
            break
        answer(game, entry)
    if pgn_path:
        names = {side: "you", SIDES[1 - human]: engine_name(depth, seconds)}
        write_output(pgn_path, write_pgn(game, Event="variantkit play", Site="terminal",
                                 Date=datetime.date.today().strftime("%Y.%m.%d"),
                                 White=names["white"], Black=names["black"],
                                 Result=result), "a")
        click.echo(f"Game saved to {pgn_path}.")


def pair_for(variant_name: str, fen: str | None, moves: tuple[str, ...]) -> Pair | None:
    """The pair a command works on when the variant is played on two boards:
    its setup or `fen` (a pair's position string, `A | B`), then `moves`,
    each with its board (`A:e2e4`).  None for a variant of one board, or
    when `fen` is one board's position string (that board alone)."""
    variant = load_variant(variant_name)
    if not plays_on_two_boards(variant) or (fen is not None and "|" not in fen):
        return None
    try:
        pair = Pair(variant, fen)
    except InvalidFenError as exc:
        fail(f"bad position string: {exc}")
    play_moves(pair.push_text, moves)
    return pair


def team_of(board: str, side: int) -> int:
    """The team (0: board A's White and board B's Black) of `side` on `board`."""
    return side if board == "A" else 1 - side


def play_pair(pair: Pair, team: int, depth: int | None, seconds: float | None,
              pgn_path: str | None) -> None:
    """`play` on two boards: the engine plays the other team's seat on each
    board as soon as it is to move there; the user then moves on either
    board where it is the user's turn."""
    check_output(pgn_path, input_files(pair.variant), "a")
    engine = Engine(pair.variant)
    click.echo(f"{pair.variant.name} on two boards: your team plays {SIDES[team]} on board A "
               f"and {SIDES[1 - team]} on board B; type 'help' for commands.\n")
    show_pair(pair, team)
    result = "*"
    while True:
        if (ended := pair.outcome()) is not None:
            result = game_over(ended)
            break
        waiting = [b for b in BOARDS if team_of(b, pair.game(b).position.stm) != team]
        if waiting:
            board = waiting[0]
            game = pair.game(board)
            move = think(engine, game, depth, seconds)
            if move is None:
                click.echo("\nStopped: game left unfinished.")
                break
            written = game.san(move)
            mover = game.turn.capitalize()
            pair.push(board, move)
            click.echo(f"Board {board}: {mover} plays {written}\n")
            show_pair(pair, team)
            continue
        entry = next_entry("your move (A:... or B:...)")
        if entry == "quit":
            click.echo("\nGame left unfinished.")
            break
        if entry == "resign":
            click.echo(f"You resign: {SIDES[1 - team]}'s team wins.")
            result = result_token(SIDES[1 - team])
            break
        answer_pair(pair, team, entry)
    if pgn_path:
        mine, theirs = "you", engine_name(depth, seconds)
        seats = dict(zip(("WhiteA", "BlackB", "BlackA", "WhiteB"),
                         (mine, mine, theirs, theirs) if team == 0 else
                         (theirs, theirs, mine, mine), strict=True))
        write_output(pgn_path, write_bpgn(pair, Event="variantkit play", Site="terminal",
                                          Date=datetime.date.today().strftime("%Y.%m.%d"),
                                          Result=result, **seats), "a")
        click.echo(f"Game saved to {pgn_path}.")


def show_pair(pair: Pair, team: int) -> None:
    """Both boards, each drawn with the user's seat at the bottom."""
    click.echo(pair.text(flip=team == 1, color=use_color()))


def answer_pair(pair: Pair, team: int, entry: str) -> None:
    """Carry out the player's entry on a pair: a command or a move."""
    if entry in ("help", "?"):
        click.echo(PAIR_HELP)
    elif entry == "moves":
        for board in BOARDS:
            game = pair.game(board)
            if team_of(board, game.position.stm) == team:
                click.echo(f"{board}: {' '.join(sorted(legal_san(game)))}")
    elif entry == "fen":
        click.echo(pair.fen())
    elif entry == "undo":
        taken: list[tuple[str, Move]] = []
        while pair.move_stack:
            board, _ = pair.move_stack[-1]
            mover = 1 - pair.game(board).position.stm
            taken.append(pair.pop())
            if team_of(board, mover) == team:
                break
        else:  # none of the moves was the user's: the engine's opening stays
            for board, move in reversed(taken):
                pair.push(board, move)
            click.echo("Nothing to undo.")
            return
        click.echo(f"Taken back: {', '.join(f'{b}:{m}' for b, m in taken)}.\n")
        show_pair(pair, team)
    elif entry:
        try:
            pair.push_text(entry)
        except IllegalMoveError as exc:
            click.echo(f"{exc} (type 'moves' for all legal moves, 'help' for commands)")
            return
        click.echo()
        show_pair(pair, team)


def engine_name(depth: int | None, seconds: float | None) -> str:
    """The engine's name in the PGN tags of a game it played: with its
    time or depth a move."""
    return "variantkit " + (f"{seconds:g} s a move" if seconds
                            else f"depth {depth or DEFAULT_DEPTH}")


def game_over(ended: Outcome | PairOutcome) -> str:
    """Say how the game ended; its PGN result."""
    click.echo(f"Game over: {ended}.")
    return result_token(ended.winner)


def next_entry(prompt: str) -> str:
    """The user's next entry; `quit` at the end of the input or on Ctrl-C."""
    try:
        return str(click.prompt(prompt, prompt_suffix="> ")).strip()
    except click.Abort:
        return "quit"


def think(engine: Engine, game: Game, depth: int | None, seconds: float | None) -> Move | None:
    """The engine's move, with a note on a terminal that it is thinking;
    None when the user stops it with Ctrl-C (the position is restored)."""
    plies = game.plies
    try:
        if not sys.stdout.isatty():
            return engine.best_move(game, depth=depth, time_limit=seconds)
        from rich.console import Console
        with Console().status(f"{game.turn} is thinking (Ctrl-C stops the game)..."):
            return engine.best_move(game, depth=depth, time_limit=seconds)
    except KeyboardInterrupt:
        while game.plies > plies:  # the search was cut short inside a line
            game.pop()
        return None


def show(game: Game) -> None:
    click.echo(board_text(game, color=use_color()))


def answer(game: Game, entry: str) -> None:
    """Carry out the player's entry: a command, a cell or a move."""
    if entry in ("help", "?"):
        click.echo(HELP)
    elif entry == "moves":
        click.echo(" ".join(sorted(legal_san(game))))
    elif entry == "fen":
        click.echo(game.fen())
    elif entry == "undo":
        if len(game.move_stack) < 2:
            click.echo("Nothing to undo.")
            return
        # The engine's moves since yours, then yours (where a turn has
        # several moves, `turns:`, the engine's may be more than one).
        human, taken = game.position.stm, [game.pop()]
        while game.move_stack and game.position.stm != human:
            taken.append(game.pop())
        click.echo(f"Taken back: {' and '.join(str(m) for m in taken)}.\n")
        show(game)
    elif entry in game.variant.board.index:
        here = sorted(str(m) for m in game.legal_moves() if m.from_cell == entry)
        click.echo(f"Legal moves from {entry}: {', '.join(here)}" if here
                   else f"No legal move from {entry}.")
    elif entry:
        try:
            game.push_san(entry)
        except IllegalMoveError as exc:
            click.echo(f"{exc} (type 'moves' for all legal moves, 'help' for commands)")
            return
        click.echo()
        show(game)


@cli.command()
@click.argument("variant")
@games_option(1)
@depth_option(2)
@seed_option
@max_plies_option
@random_plies_option
@position_options
@pgn_option("Append every game to FILE as PGN.")
def selfplay(variant: str, games: int, depth: int, seed: int, max_plies: int,
             random_plies: int, fen: str | None, moves: tuple[str, ...],
             pgn_path: str | None) -> None:
    """Let the engine play itself, then print the results."""
    start = game_for(variant, fen, moves)
    check_output(pgn_path, input_files(start.variant), "a")
    engine = Engine(start.variant)
    rng = random.Random(seed)
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    plies = 0
    name = f"variantkit depth {depth}"
    for number in progress(games):
        game = start.copy()
        outcome = game.outcome()
        while outcome is None and game.plies - start.plies < max_plies:
            if game.plies - start.plies < random_plies:
                game.push(rng.choice(game.legal_moves()))
            else:
                game.push(engine.best_move(game, depth=depth))
            outcome = game.outcome()
        plies += game.plies - start.plies
        if outcome is not None:
            results[f"{outcome.winner} wins" if outcome.winner else "draws"] += 1
        reasons[outcome.reason if outcome else MOVE_LIMIT] += 1
        if pgn_path:
            write_output(pgn_path, write_pgn(game, Event="variantkit selfplay", Site="variantkit",
                                             Round=str(number + 1), White=name, Black=name)
                         + "\n", "a")
    summary = [(label, str(results[label])) for label in ("white wins", "black wins", "draws")]
    summary.append(("average length", f"{plies / games:.1f} plies"))
    ended = sorted(reasons.items())
    width = max(len(label) for label, _ in summary + ended)
    click.echo(f"{games} game(s) of {start.variant.name}, depth {depth}, seed {seed}:")
    for label, value in summary:
        click.echo(f"  {label.ljust(width)}  {value}")
    click.echo("how games ended:")
    for label, n in ended:
        click.echo(f"  {label.ljust(width)}  {n}")
    if pgn_path:
        click.echo(f"Games appended to {pgn_path}.")


def progress(count: int) -> Iterator[int]:
    """range(count), with a progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        yield from range(count)
        return
    with click.progressbar(range(count), label="playing", file=sys.stderr) as bar:
        yield from bar
