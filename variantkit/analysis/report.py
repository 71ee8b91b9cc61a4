"""The balance report: the figures of `stats` for one or more variants as
one self-contained HTML page.  Plots are drawn with matplotlib and embedded
as inline SVG (text as paths), so the page needs no network and no other
file; several variants share each plot and each table, side by side.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable, Sequence
from typing import Any

Summary = dict[str, Any]
PERCENT = "{:.1%}"

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 68em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: 0.25em 0.8em; border-bottom: 1px solid #e4e4e4; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: 0.92em; max-width: 60em; }
.warning { color: #8a1c00; font-weight: bold; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
pre { background: #f6f6f6; padding: 1em; overflow-x: auto; font-size: 0.85em; }
"""


def _figure(draw: Callable[[Any], None], height: float = 3.4) -> str:
    """A plot drawn by `draw(axes)`, as inline SVG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "variantkit"}):
        fig, axes = plt.subplots(figsize=(8, height))
        try:
            draw(axes)
            fig.tight_layout()
            buffer = io.StringIO()
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        finally:
            plt.close(fig)
    svg = re.sub(r"<metadata>.*?</metadata>", "", buffer.getvalue(), flags=re.DOTALL)
    return "<figure>" + svg[svg.index("<svg"):] + "</figure>"


def _legend(axes: Any) -> None:
    """A legend, when something was drawn (a stopped run may have no games)."""
    if axes.get_legend_handles_labels()[0]:
        axes.legend()


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _rate(entry: dict[str, Any]) -> str:
    low, high = entry["ci"]
    return f"{entry['rate']:.1%} ({low:.1%}-{high:.1%})"


def _results_section(summaries: Sequence[Summary]) -> str:
    rows = [["games played"] + [s["played"] for s in summaries]]
    for label in ("white", "black", "draw"):
        name = "draws" if label == "draw" else f"{label} wins"
        rows.append([name] + [_rate(s["results"][label]) for s in summaries])
    rows.append(["first mover's score"] + [
        f"{s['results']['first_mover']['score']:.3f} "
        f"({s['results']['first_mover']['ci'][0]:.3f}-{s['results']['first_mover']['ci'][1]:.3f})"
        for s in summaries])
    rows.append(["mean length (plies)"] + [f"{s['length']['mean']:.1f}" for s in summaries])
    rows.append(["mean branching factor"] + [f"{s['branching']['mean']:.1f}" for s in summaries])

    def draw(axes: Any) -> None:
        labels = ("white", "draw", "black")
        width = 0.8 / len(summaries)
        for i, s in enumerate(summaries):
            rates = [s["results"][k]["rate"] for k in labels]
            low = [r - s["results"][k]["ci"][0] for r, k in zip(rates, labels, strict=True)]
            high = [s["results"][k]["ci"][1] - r for r, k in zip(rates, labels, strict=True)]
            axes.bar([x + i * width for x in range(3)], rates, width, yerr=[low, high],
                     capsize=4, label=s["variant"])
        axes.set_xticks([x + width * (len(summaries) - 1) / 2 for x in range(3)],
                        ["White wins", "draws", "Black wins"])
        axes.set_ylabel("share of games (95% interval)")
        axes.set_ylim(0, 1)
        _legend(axes)

    return ("<h2>Results by side</h2>"
            + _table(["", *(s["variant"] for s in summaries)], rows) + _figure(draw)
            + '<p class="note">Rates with 95% Wilson score intervals; the first mover\'s '
              "score counts a win 1 and a draw 1/2 (0.5 is balance), with a 95% normal "
              "interval.</p>")


def _terminations_section(summaries: Sequence[Summary]) -> str:
    reasons = sorted({r for s in summaries for r in s["terminations"]})
    rows = [[r] + [s["terminations"].get(r, 0) for s in summaries] for r in reasons]

    def draw(axes: Any) -> None:
        width = 0.8 / len(summaries)
        for i, s in enumerate(summaries):
            played = max(s["played"], 1)
            axes.bar([x + i * width for x in range(len(reasons))],
                     [s["terminations"].get(r, 0) / played for r in reasons], width,
                     label=s["variant"])
        axes.set_xticks([x + width * (len(summaries) - 1) / 2 for x in range(len(reasons))],
                        reasons)
        axes.set_ylabel("share of games")
        _legend(axes)

    return ("<h2>How games end</h2>" + _table(["", *(s["variant"] for s in summaries)], rows)
            + (_figure(draw) if reasons else "")
            + '<p class="note">move-limit: stopped at the ply cap and scored as a draw.</p>')


def _length_section(summaries: Sequence[Summary]) -> str:
    rows = [[key] + [s["length"][key] for s in summaries]
            for key in ("min", "median", "mean", "max")]

    def draw(axes: Any) -> None:
        for s in summaries:
            if s["length"]["plies"]:
                histogram = s["length"]["histogram"]
                axes.stairs(histogram["counts"], histogram["edges"], label=s["variant"],
                            linewidth=2)
        axes.set_xlabel("game length (plies)")
        axes.set_ylabel("games")
        _legend(axes)

    return ("<h2>Game length</h2>" + _table(["plies", *(s["variant"] for s in summaries)],
                                            [[r[0], *map(_number, r[1:])] for r in rows])
            + _figure(draw))


def _branching_section(summaries: Sequence[Summary]) -> str:
    def draw(axes: Any) -> None:
        for s in summaries:
            # Late plies reached by a few games only would drown the curve in noise.
            enough = max(2, s["played"] // 10)
            points = [p for p in s["branching"]["by_ply"] if p["games"] >= enough]
            if not points:
                continue
            plies = [p["ply"] for p in points]
            line, = axes.plot(plies, [p["mean"] for p in points], label=s["variant"])
            axes.fill_between(plies, [p["q1"] for p in points], [p["q3"] for p in points],
                              alpha=0.2, color=line.get_color())
        axes.set_xlabel("ply")
        axes.set_ylabel("legal moves")
        _legend(axes)

    return ("<h2>Branching factor over the game</h2>" + _figure(draw)
            + '<p class="note">The mean number of legal moves at each ply (line) and the '
              "middle half of the games (band), at the plies reached by at least a tenth of "
              "the games (all plies are in the JSON).</p>")


def _pieces_section(summary: Summary) -> str:
    table = summary["pieces"]
    names = [n for n, row in table.items() if sum(row["moves"]) or sum(row["lost"])]
    rows = [[n, _pair(table[n]["moves"]), PERCENT.format(table[n]["move_share"]),
             _pair(table[n]["captures"]), PERCENT.format(table[n]["capture_share"]),
             _pair(table[n]["lost"])] for n in names]

    def draw(axes: Any) -> None:
        y = range(len(names))
        axes.barh([i - 0.2 for i in y], [table[n]["move_share"] for n in names], 0.4,
                  label="share of moves")
        axes.barh([i + 0.2 for i in y], [table[n]["capture_share"] for n in names], 0.4,
                  label="share of captures")
        axes.set_yticks(list(y), names)
        axes.invert_yaxis()
        _legend(axes)

    return (f"<h3>{html.escape(summary['variant'])}</h3>"
            + _table(["piece", "moves (W/B)", "of all moves", "captures (W/B)",
                      "of all captures", "lost (W/B)"], rows)
            + (_figure(draw, 0.5 + 0.4 * len(names)) if names else ""))


def _material_section(summary: Summary) -> str:
    material = summary["material"]
    unit = ("pawns, scaled on the " + material["reference"]
            if material["scale"] == "pawns" else "logits per piece (no positive reference)")
    rows = []
    for name, entry in material["values"].items():
        if entry["value"] is None:
            rows.append([name, "never unbalanced", "", _number(entry["engine"])])
        else:
            rows.append([name, f"{entry['value']:.2f}",
                         f"{entry['ci'][0]:.2f} to {entry['ci'][1]:.2f}",
                         _number(entry["engine"])])
    return (f"<h3>{html.escape(summary['variant'])}</h3>"
            + _table(["piece", f"estimate ({unit})", "about 95%", "engine's value"], rows)
            + f'<p class="note">From {material["positions"]} positions.</p>')


def _lost_section(summaries: Sequence[Summary]) -> str:
    rows = [[s["variant"], lost["game"], lost["seed"], lost["error"] or "",
             " ".join(lost["moves"]) or "(not known)"]
            for s in summaries for lost in s["lost"]]
    unplayed = [s for s in summaries if s["not_played"]]
    if not rows and not unplayed:
        return ""
    text = "<h2>Games lost or not played</h2>"
    for s in unplayed:
        text += (f'<p class="warning">{html.escape(s["variant"])}: {s["not_played"]} of '
                 f'{s["settings"]["games"]} games were not played (the run was stopped: '
                 f'{html.escape(s["stopped_by"] or "Ctrl-C")}).</p>')
    if rows:
        text += _table(["variant", "game", "seed", "why", "moves"], rows)
    return text


def _pair(values: Sequence[int]) -> str:
    return f"{values[0]}/{values[1]}"


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return "" if value is None else str(value)


def render_report(summaries: Sequence[Summary], pgn: str | None = None) -> str:
    """The report of one or more tournaments as one HTML page."""
    names = ", ".join(s["variant"] for s in summaries)
    settings = summaries[0]["settings"]
    engine = (f"depth {settings['depth']}" if settings["time"] is None
              else f"{settings['time']} s a move")
    if settings.get("engine", "builtin") != "builtin":
        engine = f"{html.escape(settings['engine'])}, {engine}"
    head = (f"<h1>Balance report: {html.escape(names)}</h1>"
            f"<p>{settings['games']} games a variant; engine {engine}; "
            f"{settings['random_plies']} random opening plies; ply cap "
            f"{settings['max_plies']}; seed {settings['seed']}.</p>")
    for s in summaries:
        if s["interrupted"]:
            head += (f'<p class="warning">The run was stopped '
                     f'({html.escape(s["stopped_by"] or "Ctrl-C")}): a partial report of '
                     f'{s["played"]} games of {html.escape(s["variant"])}.</p>')
    body = (head + _lost_section(summaries) + _results_section(summaries)
            + _terminations_section(summaries) + _length_section(summaries)
            + _branching_section(summaries)
            + "<h2>Pieces: moves and captures</h2>"
            + "".join(_pieces_section(s) for s in summaries)
            + '<p class="note">A capture is a move that removes or converts (suborns) '
              "an enemy piece.</p>"
            + "<h2>Material values from the games</h2>"
            + "".join(_material_section(s) for s in summaries)
            + '<p class="note">A logistic regression of each game\'s result on the '
              "material balance of its positions after the random opening; each game "
              "weighs one. Rough below a few hundred games.</p>")
    if pgn is not None:
        body += ("<h2>Games (PGN)</h2><details><summary>show</summary><pre>"
                 + html.escape(pgn) + "</pre></details>")
    page = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>Balance report: {html.escape(names)}</title>"
            f"<style>{STYLE}</style></head><body>{body}</body></html>\n")
    return re.sub(r"<!--.*?-->", "", page, flags=re.DOTALL)
