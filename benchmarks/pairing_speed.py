"""How long the Dutch pairing takes per round, with our matching and with networkx's.

A tournament is made by ``zrec pair --random-tournament`` (``--players``, ``--rounds``,
``--seed``); every round of it is paired again (as ``zrec pair --check`` does) with
:mod:`zrec.tournament.matching` and with networkx's ``max_weight_matching``
(the peer: the same blossom method on a graph's dictionaries), alternately, round by
round, ``--repeat`` times.  Both must give the same pairings; the script says so, and
prints the median seconds per round of each and their ratio.  With ``--bbp PATH``
bbpPairings (C++) pairs the same rounds too, for scale.

Usage::

    python benchmarks/pairing_speed.py [--players 60] [--rounds 9] [--seed 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import networkx as nx

from zrec.tournament import dutch
from zrec.tournament.matching import max_weight_matching
from zrec.tournament.swiss import Pairing, before_round, pair_round
from zrec.tournament.trf import Trf, read_trf
from zrec.tournament.trfwrite import trf_text


def networkx_matching(weights: Sequence[Sequence[int]]) -> list[int]:
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(weights)))
    for a, row in enumerate(weights):
        for b in range(a):
            if row[b] > 0:
                graph.add_edge(a, b, weight=row[b])
    mate = list(range(len(weights)))
    for a, b in nx.max_weight_matching(graph):
        mate[a], mate[b] = b, a
    return mate


def pair_all(trf: Trf, matcher: Callable[[Sequence[Sequence[int]]], list[int]]) -> tuple[
        list[Pairing], list[float]]:
    dutch.max_weight_matching = matcher  # type: ignore[attr-defined,assignment]
    pairings, seconds = [], []
    for n in range(1, trf.rounds + 1):
        start = time.perf_counter()
        pairings.append(pair_round(before_round(trf.players, n), n, trf.rounds,
                                   trf.first_colour, trf.forbidden))
        seconds.append(time.perf_counter() - start)
    return pairings, seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bbp", help="bbpPairings' executable, to time it too")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.trf"
        subprocess.run(
            [sys.executable, "-m", "zrec", "pair", "--random-tournament", "--players",
             str(args.players), "--rounds", str(args.rounds), "--seed", str(args.seed),
             "-o", str(path)], check=True)
        trf = read_trf(path.read_text(encoding="utf-8"), str(path))
        ours_t: list[float] = []
        peer_t: list[float] = []
        for _ in range(args.repeat):
            ours, t1 = pair_all(trf, max_weight_matching)
            peer, t2 = pair_all(trf, networkx_matching)
            if ours != peer:
                print("the two matchings gave different pairings", file=sys.stderr)
                return 1
            ours_t.append(sum(t1) / len(t1))
            peer_t.append(sum(t2) / len(t2))
        a, b = statistics.median(ours_t), statistics.median(peer_t)
        print(f"{args.players} players, {trf.rounds} rounds, same pairings: yes")
        print(f"zrec's matching: {a:.3f} s per round; networkx's: {b:.3f} s "
              f"({b / a:.1f} times as long)")
        if args.bbp:
            start = time.perf_counter()
            for n in range(1, trf.rounds + 1):
                cut = Path(tmp) / f"r{n}.trf"
                cut.write_text(trf_text(replace(trf, players=before_round(trf.players, n))),
                               encoding="utf-8")
                subprocess.run([args.bbp, "--dutch", str(cut), "-p", str(Path(tmp) / "o")],
                               check=True, capture_output=True)
            print(f"bbpPairings: {(time.perf_counter() - start) / trf.rounds:.3f} s per round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
