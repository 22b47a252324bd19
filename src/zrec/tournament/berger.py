"""Round-robin tables by FIDE's Berger tables (Handbook C.05, Annex 1).

For ``n`` players (an odd count gets a dummy, number ``n + 1``: its opponent sits the
round out) there are ``n - 1`` rounds of ``n / 2`` boards.  In round ``r`` the last
player, ``n``, meets player ``p``, the one number in ``1 … n - 1`` with
``2p ≡ r + 1 (mod n - 1)``, on board 1, with Black in the odd rounds and White in the
even ones; board ``k`` (from 2) has ``p + k - 1`` with White against ``p - k + 1``
(both counted round ``1 … n - 1``).  That is the published table: round 1 pairs
1–n, 2–(n−1), …; round 2 starts n–(n/2 + 1), (n/2 + 2)–(n/2), …, 1–2.  A double round
robin plays the table twice, the colours reversed the second time.
"""

from __future__ import annotations

__all__ = ["berger_rounds"]


def _wrap(x: int, m: int) -> int:
    """``x`` counted round ``1 … m``."""
    return (x - 1) % m + 1


def berger_rounds(players: int, double: bool = False) -> list[list[tuple[int, int]]]:
    """Each round's boards (white, black) by pairing number; with an odd count of
    players the dummy ``players + 1`` stands for the round off."""
    if players < 2:
        raise ValueError(f"a round robin needs 2 players or more, not {players}")
    n = players + players % 2
    m = n - 1
    rounds = []
    for r in range(1, n):
        p = next(i for i in range(1, n) if (2 * i) % m == (r + 1) % m)
        boards = [(p, n) if r % 2 else (n, p)]
        boards += [(_wrap(p + k - 1, m), _wrap(p - k + 1, m)) for k in range(2, n // 2 + 1)]
        rounds.append(boards)
    if double:
        rounds += [[(b, w) for w, b in boards] for boards in rounds]
    return rounds
