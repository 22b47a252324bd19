"""An archive's players: listing them, finding likely duplicates.

:func:`players` lists each player with its games and aliases.  :func:`suggest_merges`
finds players that are probably one person under spellings the normal form
(:mod:`zrec.archive.people.names`) does not join; it never merges anything.
:func:`zrec.archive.people.merging.merge` does, when asked: the games, entries and
rounds of one player go to another, and the old name becomes an alias, so that
searches and later imports under either name find the one player.

The suggestions stay fast on tens of thousands of players: names are compared only
within buckets (the same letters, the same words, the same surname and initials, a
shared spelling with one or two letters deleted), never all pairs: 27,000 made-up
names, much closer to one another than real ones, take about 3 s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from zrec.archive.people.names import (
    compatible_given,
    edits_within,
    name_words,
    normal_name,
    sort_key,
)
from zrec.archive.store import Archive
from zrec.archive.store.db import Database

__all__ = [
    "Player",
    "Suggestion",
    "candidates",
    "likely_duplicates",
    "players",
    "suggest_merges",
]

LETTERS = "same letters but for hyphens, apostrophes, spaces or special letters"
ORDER = "same words in another order"
INITIALS = "same surname, compatible given names or initials"
EDITS = ("spellings 1 edit apart", "spellings 2 edits apart")
#: the reasons, in the order they are tried: a pair is suggested for the first only
REASONS = (LETTERS, ORDER, INITIALS, *EDITS)
#: names of up to this many letters may differ by one edit, longer ones by two
SHORT = 8

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the archive keeps it: name (the first spelling met), normal form,
    games played, and the normal forms of its aliases."""

    id: int
    name: str
    norm: str
    games: int
    aliases: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "games": self.games, "aliases": [*self.aliases]}

    def matches(self, part: str) -> bool:
        """Whether ``part`` is in its name or an alias, both read as words (normal
        forms, with punctuation as spaces and ``ø`` as ``o``: :func:`name_words`)."""
        want = " ".join(name_words(normal_name(part)))
        return any(want in " ".join(name_words(norm)) for norm in (self.norm, *self.aliases))


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Players that are probably one person, most games first, and why."""

    reason: str
    names: tuple[Player, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "names": [{"name": p.name, "games": p.games} for p in self.names],
            "reason": self.reason,
        }


# -- listing ---------------------------------------------------------------------------


def players(archive: Archive, part: str | None = None) -> list[Player]:
    """Every player (or those :meth:`Player.matches` ``part``), sorted by name."""
    db = archive.db
    aliases: dict[int, list[str]] = {}
    for norm, pid in db.rows("SELECT norm, player FROM aliases"):
        aliases.setdefault(int(pid), []).append(str(norm))
    found = [
        Player(int(pid), str(name), str(norm), int(games), tuple(sorted(aliases.get(pid, ()))))
        for pid, name, norm, games in db.rows(
            "SELECT p.id, p.name, p.norm, count(DISTINCT gp.game) FROM players p "
            "LEFT JOIN game_players gp ON gp.player = p.id GROUP BY p.id, p.name, p.norm"
        )
    ]
    if part is not None:
        found = [p for p in found if p.matches(part)]
    return sorted(found, key=lambda p: sort_key(p.name))


# -- likely duplicates -----------------------------------------------------------------


def suggest_merges(archive: Archive, part: str | None = None) -> list[Suggestion]:
    """Groups of players that are probably one person (with ``part``: the groups with a
    player that matches it).  Players who sat at one game, or were paired in a round,
    are never suggested."""
    everyone = players(archive)
    found = candidates(everyone)
    involved = sorted({pid for _, ids in found for pid in ids})
    groups = likely_duplicates(everyone, found, _met(archive.db, involved))
    if part is not None:
        groups = [g for g in groups if any(p.matches(part) for p in g.names)]
    return groups


def candidates(people: Sequence[Player]) -> list[tuple[str, tuple[int, ...]]]:
    """(reason, player ids) for every group a reason joins, in the order of the reasons:
    whole groups for the same letters and for the same words, pairs for the others."""
    words = {p.id: name_words(p.norm) for p in people if name_words(p.norm)}
    found: list[tuple[str, tuple[int, ...]]] = []
    for reason, classes in (
        (LETTERS, _classes(words, "".join)),
        (ORDER, _classes(words, lambda w: " ".join(sorted(w)))),
    ):
        found.extend((reason, ids) for ids in classes)
    found.extend((INITIALS, pair) for pair in _initials(words))
    texts = {pid: " ".join(w) for pid, w in words.items()}
    for pair in sorted(_near(texts)):
        if _other_initials(words[pair[0]], words[pair[1]]):
            continue
        one, other = texts[pair[0]], texts[pair[1]]
        letters = min(len(one.replace(" ", "")), len(other.replace(" ", "")))
        edits = edits_within(one, other, 1 if letters <= SHORT else 2)
        if edits:
            found.append((EDITS[edits - 1], pair))
    return found


def _other_initials(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether two names differ in an initial (``A. Naglani``, ``B. Naglani``): another
    initial is another name, not a slip of the pen."""
    return len(mine) == len(theirs) and any(
        one != other and min(len(one), len(other)) == 1
        for one, other in zip(mine, theirs, strict=True)
    )


def likely_duplicates(
    people: Sequence[Player],
    found: Iterable[tuple[str, tuple[int, ...]]],
    met: set[Pair],
) -> list[Suggestion]:
    """The suggestions made of :func:`candidates`: each pair of players under its first
    reason only, never a pair in ``met`` (players who sat at one game or were paired in
    a round); a group with such a pair is given as its other pairs."""
    by_id = {p.id: p for p in people}
    taken: set[Pair] = set()
    groups: list[tuple[str, tuple[int, ...]]] = []
    for reason, ids in found:
        pairs = set(combinations(sorted(ids), 2))
        new = pairs - taken
        taken |= pairs
        if not new:
            continue
        if pairs & met:
            groups.extend((reason, pair) for pair in sorted(new - met))
        else:
            groups.append((reason, ids))
    out = [
        Suggestion(
            reason,
            tuple(sorted((by_id[i] for i in ids), key=lambda p: (-p.games, sort_key(p.name)))),
        )
        for reason, ids in groups
    ]
    return sorted(
        out,
        key=lambda s: (
            min(sort_key(p.name) for p in s.names),
            REASONS.index(s.reason),
            [sort_key(p.name) for p in s.names],
        ),
    )


def _classes(
    words: dict[int, tuple[str, ...]], key: Callable[[tuple[str, ...]], str]
) -> list[tuple[int, ...]]:
    """The groups of two or more players with the same ``key`` of their words."""
    buckets: dict[str, list[int]] = {}
    for pid, mine in words.items():
        buckets.setdefault(key(mine), []).append(pid)
    return [tuple(sorted(ids)) for ids in buckets.values() if len(ids) > 1]


def _initials(words: dict[int, tuple[str, ...]]) -> set[Pair]:
    """Pairs with the same surname and given names that may be one person's (see
    :func:`compatible_given`), found through indexes of the given names (whole, and
    as initials) rather than by comparing every pair with one surname."""
    whole: dict[tuple[str, ...], list[int]] = {}  # surname and given names
    short: dict[tuple[str, ...], list[int]] = {}  # surname and initials, names with one
    full: dict[tuple[str, ...], list[int]] = {}  # surname and initials, names without
    for pid, mine in words.items():
        surname, given = mine[-1], mine[:-1]
        if not given:
            continue
        sign = (surname, *(g[0] for g in given))
        whole.setdefault((surname, *given), []).append(pid)
        abbreviated = any(len(g) == 1 for g in given)
        (short if abbreviated else full).setdefault(sign, []).append(pid)
    found: set[Pair] = set()
    for pid, mine in words.items():
        surname, given = mine[-1], mine[:-1]
        sign = (surname, *(g[0] for g in given))
        for j in range(1, len(given) + 1):
            others = [*short.get(sign[: j + 1], ())]
            if j < len(given):
                others += whole.get((surname, *given[:j]), ())
                if any(len(g) == 1 for g in given[:j]):
                    others += full.get(sign[: j + 1], ())
            for other in others:
                if other != pid and compatible_given(given, words[other][:-1]):
                    found.add((min(pid, other), max(pid, other)))
    return found


def _near(texts: dict[int, str]) -> set[Pair]:
    """Pairs that may be within the edit distance allowed, found through the spellings
    with letters deleted: two names one edit apart share a spelling with at most one
    letter deleted from each, two edits apart one with at most two deleted (a change is
    a letter deleted from both, an insertion one from the longer, a swap one of the two
    letters from each).  A round per length of those spellings keeps the index small."""
    reach = {pid: 1 if len(text.replace(" ", "")) <= SHORT else 2 for pid, text in texts.items()}
    by_length: dict[int, list[int]] = {}
    for pid, text in texts.items():
        by_length.setdefault(len(text), []).append(pid)
    found: set[Pair] = set()
    for size in range(max(min(by_length, default=0) - 2, 0), max(by_length, default=0) + 1):
        first: dict[str, int] = {}  # spelling -> the first player with it
        shared: dict[str, set[int]] = {}  # spelling -> every player with it, if several
        for cut in range(3):
            for pid in by_length.get(size + cut, ()):
                if cut <= reach[pid]:
                    for variant in _deleted(texts[pid], cut):
                        if first.setdefault(variant, pid) != pid:
                            shared.setdefault(variant, {first[variant]}).add(pid)
        for ids in shared.values():
            found.update(combinations(sorted(ids), 2))
    return found


def _deleted(text: str, cut: int) -> set[str]:
    """The spellings of ``text`` with ``cut`` letters (0, 1 or 2) deleted."""
    if cut == 0:
        return {text}
    ones = {text[:i] + text[i + 1 :] for i in range(len(text))}
    if cut == 1:
        return ones
    return {one[:i] + one[i + 1 :] for one in ones for i in range(len(one))}


def _met(db: Database, ids: Sequence[int]) -> set[Pair]:
    """The pairs of these players who sat at one game, or were paired in a round."""
    wanted = set(ids)
    met: set[Pair] = set()
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        for one, other in [
            *db.rows(
                "SELECT DISTINCT a.player, b.player FROM game_players a JOIN game_players b "
                f"ON b.game = a.game AND b.player <> a.player WHERE a.player IN ({marks})",
                part,
            ),
            *db.rows(
                "SELECT DISTINCT player, opponent FROM event_rounds "
                f"WHERE opponent IS NOT NULL AND player IN ({marks})",
                part,
            ),
        ]:
            if int(other) in wanted and int(other) != int(one):
                met.add((min(int(one), int(other)), max(int(one), int(other))))
    return met
