"""Commands that study the rules themselves: ``perft`` and ``readings``.

``perft`` counts the legal move sequences from a game's standard start (the reference
counts of ``docs/perft.md``); ``readings`` replays a record under every combination of
its game's rule options (``docs/readings.md``).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    ClusterOpt,
    Found,
    GameNameOpt,
    JobsOpt,
    OutputOpt,
    QuietOpt,
    TextJsonOpt,
    app,
    check_format,
    fail,
    one_way_of_working,
    open_input,
    write_to,
)
from zrec.errors import ZrecError
from zrec.notation.inputs import display_name, read_input

if TYPE_CHECKING:
    from zrec.check.readings import GameReadings, Group
    from zrec.research.perft import Divided, Progress


def _tty_progress(depth: int) -> Progress | None:
    """A progress line on standard error, when it is a terminal (else ``None``)."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int, move: str, count: int) -> None:
        if done == total:  # the table follows: leave no progress line behind
            sys.stderr.write("\r\x1b[K")
        else:
            line = f"perft depth {depth}: {done}/{total} first moves ({move}: {count:,})"
            sys.stderr.write(f"\r{line}\x1b[K")
        sys.stderr.flush()

    return show


@app.command("perft")
def perft_command(
    game: GameNameOpt,
    depth: Annotated[
        str, typer.Option("--depth", help="Count move sequences of 1 to N moves.", metavar="N")
    ],
    option: Annotated[
        Optional[list[str]],  # noqa: UP045 - typer reads the annotation at run time
        typer.Option(
            "--option",
            "-O",
            metavar="TAG=VALUE",
            help="A rule option, e.g. -O Jumps=bent (others: their defaults), or a named "
            "reading, -O Reading=piecepack (every option at once).",
        ),
    ] = None,
    output_format: TextJsonOpt = "text",
    output: OutputOpt = None,
    divide: Annotated[
        bool,
        typer.Option(
            "--divide",
            help="Split the depth-N count by first move, each as the notation writes it.",
        ),
    ] = False,
) -> None:
    """Count the legal move sequences from the standard start, depths 1 to N.

    A whole capture chain is one move; a position where the game is over has no
    moves.  The output is a table of depth and count, or with --format json an array
    of the counts for depths 1..N.  With --divide: each first move and its share of
    the depth-N count, then the total (JSON: {"depth": N, "total": count, "moves":
    {move: count}}).  A game with dice has no perft.  Exit code 2 for an unknown game,
    option or value, or a bad depth.  See docs/perft.md.
    """
    from zrec.play.overrides import parse_assignments
    from zrec.research.perft import perft as count
    from zrec.rules import find_game

    as_json = check_format(output_format, ("text", "json")) == "json"
    try:
        n = int(depth.strip())
    except ValueError:
        fail(f"--depth takes a whole number from 1 up, not {depth!r}")
    if n < 1:
        fail(f"--depth takes a whole number from 1 up, not {n}")
    try:
        options = parse_assignments(option or [])
        rules = find_game(game)
        divided = count(rules, options, n, divide=True, progress=_tty_progress(n))
    except ZrecError as exc:  # a bad option or value, an unknown game, a game with dice
        fail(str(exc))
    with write_to(output) as out:
        out.write(_perft_text(divided, n, divide, as_json))


def _perft_text(divided: Divided, n: int, divide: bool, as_json: bool) -> str:
    """What perft prints: the counts by depth, or (``divide``) the depth-N count by
    first move; a table, or JSON."""
    if divide:
        total = divided.counts[-1]
        if as_json:
            document = {"depth": n, "total": total, "moves": dict(divided.moves)}
            return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        width = max([len("total"), *(len(m) for m, _ in divided.moves)])
        lines = [f"{move:<{width}}  {share:>{len(f'{total:,}')},}"
                 for move, share in divided.moves]
        return "\n".join([*lines, "", f"{'total':<{width}}  {total:,}"]) + "\n"
    if as_json:
        return json.dumps(divided.counts) + "\n"
    width = max(len("count"), *(len(f"{c:,}") for c in divided.counts))
    lines = [f"depth  {'count':>{width}}"]
    lines += [f"{d:>5}  {c:>{width},}" for d, c in enumerate(divided.counts, 1)]
    return "\n".join(lines) + "\n"


@app.command("readings")
def readings_command(
    files: Annotated[
        list[str],
        typer.Argument(metavar="FILE...", help="A .zrec file, or - for standard input; with "
                       "--fit, record files or one archive (a SQLite file or "
                       "postgresql://...)."),
    ],
    output_format: TextJsonOpt = "text",
    output: OutputOpt = None,
    fit: Annotated[
        bool,
        typer.Option("--fit", help="Rank the readings by how well they explain the "
                     "records: the share legal under each, and the log-likelihood per "
                     "move of the legal ones under a player model, a softmax over the "
                     "values --model gives the legal moves (docs/readings.md, Fit)."),
    ] = False,
    beta: Annotated[
        float,
        typer.Option("--beta", min=0.0, max=100.0,
                     help="--fit: the model's beta, 0 to 100 (0: every legal move alike; "
                     "larger: the moves of higher value more likely)."),
    ] = 1.0,
    seed: Annotated[
        int, typer.Option("--seed", help="--fit: the seed of the intervals' resamples.")
    ] = 0,
    model: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--model", metavar="greedy|alphabeta[:D]",
                     help="--fit: the value of a move that the softmax weighs: greedy, the "
                     "pieces it takes (the default); alphabeta:D, the alphabeta player's "
                     "search value of the position it leaves, D - 1 moves deeper (D 3 "
                     "unless given; two seats, no dice)."),
    ] = None,
    jobs: JobsOpt = 1,
    cluster: ClusterOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Replay a record under every combination of its game's rule options.

    For each game of FILE: every combination of the values of its game's options (a
    free-valued setup tag, such as an inline map, stays as the record has it), and for
    each whether the record is legal under it, or else the ply and the validator's
    message of its first error.  With --format json: an array with one object per
    game, its "readings" each {"options", "legal"} and, when illegal, "ply" and
    "reason".  Exit code 1 when a game cannot be read or replayed at all (or FILE
    holds no game), 2 when FILE cannot be read.  See docs/readings.md.
    """
    from zrec.check.readings import file_readings

    as_json = check_format(output_format, ("text", "json")) == "json"
    if fit:
        from zrec.cli._fit import fit_command

        one_way_of_working(jobs, cluster, "fit the records")
        fit_command(files, as_json, beta, seed, model or "greedy", jobs, cluster, quiet,
                    output)
        return
    for name, given in (("--model", model is not None), ("--jobs", jobs > 1),
                        ("--cluster", cluster is not None)):
        if given:
            fail(f"{name} goes with --fit")
    if len(files) != 1:
        fail("give one FILE (--fit reads several)")
    file = files[0]
    name = display_name(file)
    found = Found()
    try:
        with open_input(file) as stream:
            games = list(file_readings(found.of(read_input(stream, file, name), file), name))
    except ZrecError as exc:
        fail(f"{name}: {exc}")
    with write_to(output) as out:
        if as_json:
            out.write(json.dumps([g.to_json() for g in games], ensure_ascii=False, indent=2))
            out.write("\n")
        elif games:
            out.write("\n\n".join(_table(g) for g in games) + "\n")
    found.check()
    if any(g.problem is not None for g in games):
        raise typer.Exit(EXIT_INVALID)


def _table(found: GameReadings) -> str:
    """One game's readings as text: a heading, the count, a line per legal reading,
    then the illegal readings grouped by their first error (and the refused
    combinations by their refusal), each group with the options its readings share."""
    from zrec.check.readings import group_readings

    head = f"game {found.number} (line {found.line})"
    about = " — ".join(part for part in (found.title, found.heading) if part)
    lines = [f"{head}: {about}" if about else head]
    if found.problem is not None:
        lines.append(f"  {found.problem}")
        return "\n".join(lines)
    summary = f"  legal under {len(found.legal)} of {len(found.readings)} readings"
    if found.refused:
        many = "combination" if len(found.refused) == 1 else "combinations"
        summary += f" ({len(found.refused)} more {many} of options refused)"
    lines.append(summary)
    names = found.options
    legal = found.legal
    if legal:
        widths = [max(len(n), *(len(r.options[n]) for r in legal)) for n in names]
        cells = "  ".join(f"{n:<{w}}" for n, w in zip(names, widths, strict=True))
        lines.append(f"  {cells}  reading")
        for r in legal:
            cells = "  ".join(f"{r.options[n]:<{w}}" for n, w in zip(names, widths, strict=True))
            marks = [r.name] if r.name is not None else []
            if r.options == found.own:
                marks.append("the record's own")
            mark = f"  ({'; '.join(marks)})" if marks else ""
            lines.append(f"  {cells}  legal{mark}".rstrip())
    illegal = found.illegal
    if illegal:
        lines.append(f"  illegal under {len(illegal)}, by first error:")
        lines += _groups(group_readings(illegal, found.readings), found.own, "illegal ")
    if found.refused:
        lines.append(f"  refused ({len(found.refused)} combinations, not readings):")
        lines += _groups(group_readings(found.refused, found.refused), None, "")
    return "\n".join(lines)


def _groups(groups: list[Group], own: dict[str, str] | None, verdict: str) -> list[str]:
    """Each group of readings: how many, the options they share, the named readings
    and the record's own among them; then the error they share."""
    lines = []
    width = max(len(str(len(g.readings))) for g in groups)
    for g in groups:
        shared = " ".join(f"{t}={v}" for t, v in g.shared.items()) or "(no option alike)"
        if g.alike > len(g.readings):
            shared += f" ({len(g.readings)} of the {g.alike} readings with these)"
        marks = list(g.names)
        if own is not None and any(r.options == own for r in g.readings):
            marks.append("the record's own")
        if marks:
            shared += f"; among them {', '.join(marks)}"
        lines.append(f"    {len(g.readings):>{width}}  {shared}")
        where = "" if g.ply is None else f"at ply {g.ply}: "
        lines.append(f"    {'':>{width}}  {verdict}{where}{g.reason}".rstrip())
    return lines
