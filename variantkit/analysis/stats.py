"""The figures of a tournament, as plain data (what `--json` writes and the
report draws).

- Results by side: win and draw rates with 95% Wilson score intervals, and
  the first mover's score (a win 1, a draw 1/2) with a 95% normal interval.
- How games end: one count per termination (the variant's own end
  conditions as the library names them, and `move-limit` for a game stopped
  at the ply cap, scored as a draw).
- Game lengths in plies, and the branching factor (legal moves) at each ply.
- Per piece type and side: moves made, captures made (a suborn counts:
  the enemy piece is taken from the enemy), and pieces lost.
- Material values, estimated from the games: a logistic regression of the
  game's result (White's score 1, 1/2, 0) on the material balance (White's
  count minus Black's of each non-royal piece type, plus a constant for the
  first mover's edge) of every position after the random opening.  Each
  game weighs 1 in total, shared by its positions, and a small ridge
  penalty keeps types that rarely differ near zero.  A coefficient is in
  logits per piece; values are rescaled so that the cheapest piece with a
  declared value keeps it (a pawn stays 1) when its coefficient is positive.
  Intervals are approximate (two standard errors, the reference's own
  uncertainty left out); a few hundred games are needed for stable values.

Lost games (see `tournament`) are left out of every figure and listed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from statistics import mean, median
from typing import Any

from variantkit.analysis.tournament import GameRecord, Settings, material_types
from variantkit.engine.evaluation import piece_values
from variantkit.public_types import SIDES
from variantkit.variant import Variant

Z95 = 1.959964        # the 97.5% point of the normal distribution
RIDGE = 0.5           # penalty on each material coefficient, in games
NEWTON_STEPS = 50
LENGTH_BINS = 20      # at most this many bars in the length histogram


def wilson(successes: int, trials: int) -> list[float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return [0.0, 1.0]
    p, z2 = successes / trials, Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def score(record: GameRecord, side: str) -> float:
    return 0.5 if record.winner is None else float(record.winner == side)


def results(games: Sequence[GameRecord]) -> dict[str, Any]:
    n = len(games)
    out: dict[str, Any] = {}
    for label, winner in (("white", "white"), ("black", "black"), ("draw", None)):
        k = sum(1 for g in games if g.winner == winner)
        out[label] = {"count": k, "rate": k / n if n else 0.0, "ci": wilson(k, n)}
    first = games[0].first_side if games else "white"
    scores = [score(g, first) for g in games]
    value = mean(scores) if scores else 0.5
    if n > 1:
        spread = math.sqrt(sum((s - value) ** 2 for s in scores) / (n - 1) / n)
        interval = [max(0.0, value - Z95 * spread), min(1.0, value + Z95 * spread)]
    else:
        interval = [0.0, 1.0]
    out["first_mover"] = {"side": first, "score": value, "ci": interval}
    return out


def lengths(games: Sequence[GameRecord]) -> dict[str, Any]:
    plies = sorted(len(g.moves) for g in games)
    if not plies:
        return {"plies": [], "mean": 0.0, "median": 0.0, "min": 0, "max": 0,
                "histogram": {"edges": [], "counts": []}}
    width = max(1, math.ceil((plies[-1] + 1) / LENGTH_BINS))
    bins = Counter(p // width for p in plies)
    top = plies[-1] // width
    return {"plies": plies, "mean": mean(plies), "median": median(plies),
            "min": plies[0], "max": plies[-1],
            "histogram": {"edges": [i * width for i in range(top + 2)],
                          "counts": [bins[i] for i in range(top + 1)]}}


def branching(games: Sequence[GameRecord]) -> dict[str, Any]:
    by_ply = []
    longest = max((len(g.branching) for g in games), default=0)
    for ply in range(longest):
        values = sorted(g.branching[ply] for g in games if ply < len(g.branching))
        by_ply.append({"ply": ply, "games": len(values), "mean": mean(values),
                       "q1": _quantile(values, 0.25), "median": median(values),
                       "q3": _quantile(values, 0.75)})
    every = [b for g in games for b in g.branching]
    return {"mean": mean(every) if every else 0.0, "by_ply": by_ply}


def _quantile(values: Sequence[int], q: float) -> float:
    """Linear interpolation between the closest ranks of sorted `values`."""
    at = q * (len(values) - 1)
    low = math.floor(at)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (at - low)


def pieces(variant: Variant, games: Sequence[GameRecord]) -> dict[str, Any]:
    """Per piece type: moves, captures made and pieces lost, [White, Black]."""
    table: dict[str, dict[str, Any]] = {
        t.name: {"moves": [0, 0], "captures": [0, 0], "lost": [0, 0]}
        for t in variant.pieces.types}
    total_moves = total_captures = 0
    for g in games:
        first = SIDES.index(g.first_side)
        for ply, (mover, victim) in enumerate(zip(g.movers, g.captured, strict=True)):
            side = (first + ply) % 2
            table[mover]["moves"][side] += 1
            total_moves += 1
            if victim is not None:
                table[mover]["captures"][side] += 1
                table[victim]["lost"][1 - side] += 1
                total_captures += 1
    for row in table.values():
        row["move_share"] = sum(row["moves"]) / total_moves if total_moves else 0.0
        row["capture_share"] = sum(row["captures"]) / total_captures if total_captures else 0.0
    return table


def material_values(variant: Variant, games: Sequence[GameRecord]) -> dict[str, Any]:
    """Each non-royal piece type's value estimated from the games (see the
    module's docstring), beside the value the engine plays with."""
    names = material_types(variant)
    engine_values = piece_values(variant)
    rows: list[list[float]] = []
    targets: list[float] = []
    weights: list[float] = []
    for g in games:
        for balance in g.material:
            rows.append([1.0, *map(float, balance)])
            targets.append(score(g, "white"))
            weights.append(1 / len(g.material))
    out: dict[str, Any] = {"positions": len(rows), "scale": "logit", "values": {}}
    seen = [any(row[1 + i] for row in rows) for i in range(len(names))]
    coefficients, errors = _logistic(rows, targets, weights) if rows else ([], [])
    declared = {t.name: t.value for t in variant.pieces.types if t.value is not None}
    reference = min((n for i, n in enumerate(names) if n in declared and seen[i]
                     and coefficients[1 + i] > 0), key=lambda n: declared[n], default=None)
    factor = 1.0
    if reference is not None:
        factor = float(declared[reference]) / coefficients[1 + names.index(reference)]
        out["scale"], out["reference"] = "pawns", reference
    for i, name in enumerate(names):
        estimate: dict[str, Any] = {"engine": engine_values.get(name), "value": None, "ci": None}
        if seen[i]:
            value, error = coefficients[1 + i] * factor, errors[1 + i] * abs(factor)
            estimate["value"], estimate["ci"] = value, [value - 2 * error, value + 2 * error]
        out["values"][name] = estimate
    out["first_mover_logit"] = coefficients[0] if rows else None
    return out


def _logistic(rows: list[list[float]], targets: list[float],
              weights: list[float]) -> tuple[list[float], list[float]]:
    """Weighted logistic regression with fractional targets by Newton's
    method; the coefficients and their standard errors."""
    import numpy as np

    x, y, w = np.array(rows), np.array(targets), np.array(weights)
    penalty = np.full(x.shape[1], RIDGE)
    penalty[0] = 1e-6   # the constant is not pulled towards zero
    beta = np.zeros(x.shape[1])
    hessian = np.diag(penalty)
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-(x @ beta)))
        gradient = x.T @ (w * (y - p)) - penalty * beta
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-9:
            break
    errors = np.sqrt(np.diag(np.linalg.inv(hessian)))
    return [float(b) for b in beta], [float(e) for e in errors]


def summarize(variant: Variant, settings: Settings, records: Sequence[GameRecord],
              interrupted: bool = False, stopped_by: str | None = None) -> dict[str, Any]:
    """Every figure of one variant's tournament, as JSON-ready data;
    `interrupted`: the run stopped before every game was played, for the
    reason `stopped_by` (Ctrl-C when none is given)."""
    ordered = sorted(records, key=lambda g: g.index)
    games = [g for g in ordered if not g.lost]
    return {
        "variant": variant.name,
        "settings": {"games": settings.games, "depth": settings.depth, "time": settings.time,
                     "random_plies": settings.random_plies, "max_plies": settings.max_plies,
                     "seed": settings.seed, "engine": settings.engine},
        "played": len(games),
        "interrupted": interrupted,
        "stopped_by": (stopped_by or "Ctrl-C") if interrupted else None,
        "not_played": settings.games - len(ordered),
        "lost": [{"game": g.index, "seed": g.seed, "error": g.error, "moves": g.moves}
                 for g in ordered if g.lost],
        "results": results(games),
        "terminations": dict(sorted(Counter(g.termination for g in games).items())),
        "length": lengths(games),
        "branching": branching(games),
        "pieces": pieces(variant, games),
        "material": material_values(variant, games),
    }
