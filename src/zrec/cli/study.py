"""``zrec study``: random self-play under one or several readings of the rules, counted."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from zrec.cli._app import (
    ClusterOpt,
    GameNameOpt,
    JobsOpt,
    OutputOpt,
    QuietOpt,
    SeatsOpt,
    app,
    check_format,
    fail,
    one_way_of_working,
    progress_bar,
    write_to,
)
from zrec.cli._readings import check_option_values

if TYPE_CHECKING:
    from collections.abc import Sequence

    from zrec.research.ranking import Ranked
    from zrec.research.study import Summary


@app.command()
def study(
    game: GameNameOpt,
    option: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--option",
            "-O",
            metavar="TAG=VALUE",
            help="A rule option or setup tag of the game, or Reading=NAME (a named "
            "reading: every option at once).  The same tag given several "
            "times makes one reading per value, side by side; several such tags make "
            "every combination (the first tag named varies slowest).  Tags not given "
            "keep their defaults.",
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", help="Games per reading.")] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", help="The same seed gives the same games and numbers.")
    ] = 0,
    player: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--player",
            metavar="NAME[:budget]",
            help="random: the engine's random move (as zrec random plays); greedy: a move "
            "that takes the most pieces, else a random one; mcts[:playouts[:moves]]: Monte "
            "Carlo tree search, playouts per move (default 200), each of at most so many "
            "moves (default 20) then scored by material; alphabeta[:depth]: material "
            "search, moves ahead (default 3; two seats, no dice).  One name for every "
            "seat, or one per seat joined by commas (mcts:50,random); given several "
            "times, each reading is played by each player set in turn.  Default: random.",
        ),
    ] = None,
    max_plies: Annotated[
        int, typer.Option("--max-plies", min=1, help="Cut a game off here (unfinished).")
    ] = 300,
    seats: SeatsOpt = None,
    jobs: JobsOpt = 1,
    cluster: ClusterOpt = None,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="text|json",
            help="text: a table for people; json: one object per reading (table: the old "
            "name of text).",
        ),
    ] = "text",
    chart: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--chart", metavar="FILE.svg", help="Also draw an SVG chart here."),
    ] = None,
    metrics: Annotated[
        str,
        typer.Option(
            "--metrics",
            metavar="all|none|NAME,...",
            help="Ludii's plausibility metrics, each with a 95% bootstrap interval "
            "(docs/study.md, Metrics): all, none or names joined by commas.  Default: "
            "DurationTurns,Completion,Drawishness,Timeouts,AdvantageP1,Balance (no extra "
            "work per ply).",
        ),
    ] = "default",
    rank: Annotated[
        bool,
        typer.Option(
            "--rank",
            help="Set aside the readings that fail the playability test and rank the "
            "rest by the score of docs/study.md (Ranking): the mean of Balance, "
            "Completion, DecisionMoves, LeadChange and 1 - Timeouts.",
        ),
    ] = False,
    max_timeouts: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option("--max-timeouts", min=0.0, max=1.0, metavar="SHARE",
                     help="--rank: a reading with more games cut off fails (default 0.2)."),
    ] = None,
    max_draws: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option("--max-draws", min=0.0, max=1.0, metavar="SHARE",
                     help="--rank: a reading with more games drawn fails (default 0.8)."),
    ] = None,
    report: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--report", metavar="DIR",
                     help="Also write an offline page of the study to DIR/index.html: the "
                     "metrics with their intervals, a chart of each, the ranking (with "
                     "--rank) and the study's chart."),
    ] = None,
    quiet: QuietOpt = False,
    output: OutputOpt = None,
) -> None:
    """Play random games under one or several readings of the rules, and compare them.

    Compares game length, decisive/drawn/unfinished shares, the first player's score,
    pieces taken and how games end.  See docs/study.md."""
    from zrec.errors import ZrecError
    from zrec.research.metrics import DEFAULT, parse_metrics
    from zrec.research.metrics_ci import kinds_for, reading_metrics
    from zrec.research.ranking import NEEDED, Playability, rank_readings
    from zrec.research.study import study_readings, study_tags
    from zrec.research.study_runs import run_study
    from zrec.rules import find_game

    output_format = check_format(output_format, ("text", "json"))
    if games < 1:
        fail(f"--games must be at least 1, not {games}")
    one_way_of_working(jobs, cluster, "play the games")
    if not rank and (max_timeouts is not None or max_draws is not None):
        given = "--max-timeouts" if max_timeouts is not None else "--max-draws"
        fail(f"{given} is a threshold of --rank: give --rank too")
    tags: list[tuple[str, str]] = []
    for item in option or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            fail(f"--option takes Tag=value, not {item!r}")
        tags.append((name.strip(), value))
    check_option_values(game, tags)
    if report is not None:
        _folder(report)  # before the games are played, not after
    try:
        names = DEFAULT if metrics == "default" else parse_metrics(metrics)
        if rank:
            names = tuple(dict.fromkeys([*names, *NEEDED]))
        rules = find_game(game)
        chosen = study_readings(study_tags(rules, tags), player or ["random"])
        bar = progress_bar(quiet, "study", "game", lambda: games * len(chosen))
        try:
            summaries = run_study(
                rules,
                chosen,
                games,
                seed,
                max_plies,
                seats,
                jobs,
                bar.update if bar is not None else None,
                kinds_for(names),
                cluster=cluster,
            )
        finally:
            if bar is not None:
                bar.close()
    except ZrecError as exc:
        fail(str(exc))
    measured = [reading_metrics(s, names) for s in summaries]
    data = [
        {**s.to_json(), "metrics": {k: v.to_json() for k, v in m.items()}}
        for s, m in zip(summaries, measured, strict=True)
    ]
    several = len({r.players for r in chosen}) > 1
    labels = [s.reading.label(several) for s in summaries]
    ranking = ""
    if rank:
        test = Playability()
        places = rank_readings(summaries, measured, Playability(
            test.max_timeouts if max_timeouts is None else max_timeouts,
            test.max_draws if max_draws is None else max_draws))
        for reading_json, place in zip(data, places, strict=True):
            reading_json["ranking"] = place.to_json()
        ranking = ranking_text(labels, [s.reading.players for s in summaries], places)
    if chart is not None or report is not None:
        from zrec.research.study_chart import study_chart

        drawn = study_chart(summaries, f"{rules.title}: self-play study", labels)
        if chart is not None:
            with write_to(chart) as out:
                out.write(drawn)
        if report is not None:
            _report(report, f"{rules.title}: self-play study", data, labels, drawn,
                    f"{games} games per reading, seed {seed}, cut off at {max_plies} plies")
    with write_to(output) as out:
        if output_format == "json":
            out.write(json.dumps(data, indent=2) + "\n")
        else:
            out.write(table(summaries, labels, data) + ranking)


def _pct(part: int, whole: int) -> str:
    """``12.5%``; ``<0.1%`` and ``>99.9%`` for shares that would print as 0.0 and 100.0
    but are not."""
    share = 100 * part / whole
    if 0 < share < 0.05:
        return "<0.1%"
    return ">99.9%" if 99.95 <= share < 100 else f"{share:.1f}%"


#: The longest label a column of the table is headed by.
LABEL_WIDTH = 16


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _folder(folder: str) -> None:
    from pathlib import Path

    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{folder}: cannot make the folder: {exc.strerror or exc}")


def _report(folder: str, title: str, data: list[dict[str, Any]], labels: list[str],
            chart: str, about: str) -> None:
    from pathlib import Path

    from zrec.research.study_report import report_page

    with write_to(Path(folder) / "index.html") as out:
        out.write(report_page(title, data, labels, chart, about))


def ranking_text(
    labels: Sequence[str], players: Sequence[tuple[str, ...]], places: Sequence[Ranked]
) -> str:
    """The ranking below the table: the playable readings best first, then the others
    with the reason each failed."""
    rows = sorted(range(len(labels)), key=lambda i: (places[i].rank is None,
                                                     places[i].rank or 0, i))
    width = max(len(label) for label in labels)
    lines = ["", "ranking: the mean of Balance, Completion, DecisionMoves, LeadChange and "
             "1 - Timeouts"]
    for i in rows:
        place, who = places[i], ",".join(players[i])
        if place.rejected is not None:
            lines.append(f"   -  {labels[i]:<{width}}  {who}  fails: {place.rejected}")
        else:
            shown = "undefined" if place.score is None else f"{place.score:.3f}"
            number = "-" if place.rank is None else str(place.rank)
            lines.append(f"{number:>4}  {labels[i]:<{width}}  {who}  {shown}")
    return "\n".join(lines) + "\n"


def table(
    summaries: list[Summary], labels: list[str], data: list[dict[str, Any]] | None = None
) -> str:
    """The statistics, one column per reading: headed by its label, or, where a label
    is longer than :data:`LABEL_WIDTH`, by its number, the labels listed above; then
    the metrics in ``data`` (the JSON objects), with their intervals."""
    from zrec.research.metrics_shown import digits, interval

    data = data or [s.to_json() for s in summaries]
    key = ""
    heads = list(labels)
    if max(len(label) for label in labels) > LABEL_WIDTH:
        key = "".join(f"{i}: {label}\n" for i, label in enumerate(labels, 1)) + "\n"
        heads = [str(i) for i in range(1, len(labels) + 1)]
    rows: list[tuple[str, list[str]]] = [("reading", heads)]

    def row(name: str, values: list[str]) -> None:
        rows.append((name, values))

    def get(path: str) -> list[Any]:
        out = []
        for d in data:
            value: Any = d
            for key in path.split("."):
                value = value[key]
            out.append(value)
        return out

    row("players", ["/".join(s.reading.players) for s in summaries])
    row("games", [str(v) for v in get("games")])
    row("plies: mean", [f"{v:.1f}" for v in get("length.mean")])
    row("plies: median", [f"{v:g}" for v in get("length.median")])
    row(
        "plies: min-max",
        [f"{a}-{b}" for a, b in zip(get("length.min"), get("length.max"), strict=True)],
    )
    for kind in ("decisive", "drawn", "unfinished"):
        row(kind, [_pct(r[kind], d["games"]) for r, d in zip(get("results"), data, strict=True)])
    seats = list(dict.fromkeys(seat for s in summaries for seat in s.seats))
    row("first player", [str(v) for v in get("first_seat")])
    row("first player's score", [_score(v) for v in get("first_player_score")])
    for seat in seats:
        row(f"score: {seat}", [_score(d["scores"].get(seat)) for d in data])
    row("pieces taken / game", [f"{v:.2f}" for v in get("captures.per_game")])
    for seat in seats:
        row(f"  by {seat}", [_number(d["captures"]["by_seat"].get(seat)) for d in data])
    codes = sorted({code for d in data for code in d["terminations"]})
    for code in codes:
        row(f"ends: {code}", [str(d["terminations"].get(code, 0)) for d in data])
    for name in dict.fromkeys(n for d in data for n in d.get("metrics", {})):
        measured = [d["metrics"].get(name) for d in data]
        places = digits(measured)  # one precision for the whole row
        row(name, [interval(m, places) for m in measured])
    width = max(len(name) for name, _ in rows)
    columns = [max(len(values[i]) for _, values in rows) for i in range(len(labels))]
    lines = []
    for name, values in rows:
        cells = [v.rjust(w) for v, w in zip(values, columns, strict=True)]
        lines.append(f"{name.ljust(width)}  " + "  ".join(cells))
    return key + "\n".join(line.rstrip() for line in lines) + "\n"
