"""``zrec pair``: the FIDE Dutch system on a TRF-16 file.

``zrec pair FILE`` pairs a round (by default the next) and prints it as bbpPairings'
and JaVaFo's ``-p`` file (the number of pairs, then ``WHITE BLACK``, the bye as
``B 0``) or as JSON; ``--check`` re-pairs every round of a finished file and lists
those the Dutch system pairs otherwise; ``--random-tournament`` writes a random event
paired round by round by the engine, for tests.  The library side is
:mod:`zrec.tournament.pairtools` and :mod:`~zrec.tournament.randomswiss`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    EXIT_USAGE,
    OutputOpt,
    app,
    check_format,
    fail,
    file_text,
    write_to,
)

if TYPE_CHECKING:
    from zrec.tournament.swiss import Pairing
    from zrec.tournament.trf import Trf

FORMATS = ("pairs", "json")


def read_file(file: Path, to_pair: bool = True) -> Trf:
    """The TRF file's event; exits 2 with the line at fault, or (``to_pair``) when the
    file does not declare its rounds."""
    from zrec.tournament.trf import TrfError, read_trf

    _, text = file_text(file)  # older TRF files are Latin-1
    try:
        trf = read_trf(text, str(file))
    except TrfError as exc:
        fail(str(exc), EXIT_USAGE)
    if to_pair and not any(line.startswith("XXR") for line in text.splitlines()):
        fail(f"{file}: no XXR line: the number of rounds is needed to pair", EXIT_USAGE)
    return trf


def pairs_format(pairing: Pairing) -> str:
    """The ``-p`` output of bbpPairings and JaVaFo."""
    lines = [f"{w} {b}" for w, b in pairing.pairs]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"


def json_format(pairing: Pairing) -> str:
    items: list[dict[str, int]] = [{"white": w, "black": b} for w, b in pairing.pairs]
    if pairing.bye is not None:
        items.append({"bye": pairing.bye})
    return json.dumps(items) + "\n"


def _pair(file: Path, number: int | None, form: str, output: str | None) -> None:
    from zrec.tournament.pairtools import next_round, pair_file, refusal
    from zrec.tournament.swiss import PairingError

    check_format(form, FORMATS)
    trf = read_file(file)
    chosen = next_round(trf) if number is None else number
    why = refusal(trf, chosen)
    if why is not None:
        if number is None and chosen > trf.rounds:
            why = f"every round is paired already ({trf.rounds}, as XXR declares)"
        fail(f"{file}: {why}", EXIT_USAGE)
    try:
        pairing = pair_file(trf, chosen)
    except PairingError as exc:
        fail(f"{file}: {exc}", EXIT_USAGE)
    with write_to(output) as out:
        out.write(pairs_format(pairing) if form == "pairs" else json_format(pairing))


def _check(file: Path) -> None:
    from zrec.tournament.pairtools import check, pairs_text

    checked, found = check(read_file(file, to_pair=False))
    if not checked:
        typer.echo(f"{file}: no round is paired yet: nothing to check")
        return
    for difference in found:
        typer.echo(f"round {difference.round}: the pairing differs from the Dutch system's")
        typer.echo(f"  file:  {pairs_text(difference.actual)}")
        if difference.expected is None:
            typer.echo(f"  Dutch: cannot pair it: {difference.error}")
        else:
            typer.echo(f"  Dutch: {pairs_text(difference.expected)}")
    if found:
        verb = "differs" if len(found) == 1 else "differ"
        typer.echo(f"{file}: {len(found)} of the {checked} rounds {verb} from the Dutch system")
        raise typer.Exit(EXIT_INVALID)
    typer.echo(f"{file}: the {checked} rounds agree with the Dutch system")


def _random(players: int, rounds: int, seed: int, output: str | None) -> None:
    from zrec.tournament.randomswiss import random_tournament
    from zrec.tournament.swiss import PairingError
    from zrec.tournament.trfwrite import trf_text

    try:
        trf = random_tournament(players, rounds, seed)
    except PairingError as exc:
        fail(f"random tournament (seed {seed}): {exc}", EXIT_USAGE)
    with write_to(output) as out:
        out.write(trf_text(trf))


RANDOM_HELP = (
    "Write a random Swiss tournament (TRF-16, XXR and XXC white1) of --players players "
    "and --rounds rounds from --seed: ratings 1400-2600, pairing numbers by rating, every "
    "round paired by the Dutch system. Each game: 3% a forfeit, else 30% a draw, else "
    "won by the Elo expectation. Each player and round: 4% a half-point bye announced "
    "before the round (not the last), 2% a withdrawal (from round 2); 5% of the players "
    "enter late, in round 2 or 3. The same seed gives the same file."
)


@app.command()
def pair(
    file: Annotated[
        Optional[Path],  # noqa: UP045 - typer reads the annotation at run time
        typer.Argument(metavar="FILE", dir_okay=False,
                       help="A TRF-16 file (lines ending in CR, LF or CRLF)."),
    ] = None,
    number: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--round", min=1, metavar="N",
                     help="The round to pair (default: the next, one past the last round "
                          "anybody was paired in)."),
    ] = None,
    form: Annotated[
        Optional[str], typer.Option("--format", metavar="pairs|json",  # noqa: UP045
                          help="pairs: the count, then WHITE BLACK lines and 'B 0' for the "
                               "bye (bbpPairings' -p file); json: "
                               '[{"white": W, "black": B}, ..., {"bye": B}]. '
                               "Default: pairs."),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check",
                           help="Re-pair every round of a finished FILE and list each round "
                                "whose pairings or colours differ (exit code 1 if any).")
    ] = False,
    random_tournament: Annotated[
        bool, typer.Option("--random-tournament", help=RANDOM_HELP)
    ] = False,
    players: Annotated[
        Optional[int], typer.Option("--players", min=2, max=1000, metavar="N",  # noqa: UP045
                                    help="Players of --random-tournament (default 16; a "
                                         "round of 200 takes some 15 s).")
    ] = None,
    rounds: Annotated[
        Optional[int], typer.Option("--rounds", min=1, max=99, metavar="R",  # noqa: UP045
                                    help="Rounds of --random-tournament (default 7).")
    ] = None,
    seed: Annotated[
        Optional[int], typer.Option("--seed", metavar="S",  # noqa: UP045
                                    help="Seed of --random-tournament (default 1).")
    ] = None,
    output: OutputOpt = None,
) -> None:
    """Pair a Swiss round by the FIDE Dutch system (C.04.3) from a TRF-16 file.

    Players already given an absence or a bye in the round's own column (0000 - H, Z
    or F) are not paired; XXC white1|black1 gives the first colour, XXP lines the pairs
    that must not meet.
    """
    if random_tournament:
        if file is not None or check or number is not None or form is not None:
            fail("--random-tournament writes a new file: give no FILE, --check, --round or "
                 "--format")
        _random(players or 16, rounds or 7, 1 if seed is None else seed, output)
        return
    given = [name for name, value in (("--players", players), ("--rounds", rounds),
                                      ("--seed", seed)) if value is not None]
    if given:
        fail(f"{', '.join(given)}: only with --random-tournament")
    if file is None:
        fail("give a TRF file to pair (or --random-tournament)")
    if check:
        if number is not None or form is not None:
            fail("--check re-pairs every round and lists the differences: give no --round "
                 "or --format")
        _check(file)
        return
    _pair(file, number, form or "pairs", output)
