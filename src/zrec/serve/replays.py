"""The replay pages of stored games (as ``zrec html`` makes them), kept: :data:`PAGES`.

A 200-ply game takes ~60 ms of CPU to walk and draw, and its page is 30 to 300 kB, so
each worker keeps the last pages it made (:class:`_Pages`); the game page
(:mod:`zrec.serve.games`) adds its own parts around one.
"""

from __future__ import annotations

import io
import threading
import xml.etree.ElementTree as ET
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zrec.render.replay_page import Evaluation

__all__ = ["PAGES"]


#: the largest page kept, in characters: 32 pages stay under 32 MB a worker
_KEPT_MOST = 1_000_000


class _Pages:
    """The replay pages of stored games' records (as ``zrec html`` makes them), kept:
    the last :attr:`size` made (a 200-ply game takes ~60 ms of CPU to walk and draw;
    its page is 30 to 300 kB).  A page asked for by several requests at once is made
    once, the others waiting for it.  Kept by each worker for itself: another worker
    makes its own, and a game whose text changes is made again."""

    def __init__(self, size: int = 32) -> None:
        self.size, self.made, self.hits = size, 0, 0
        self._kept: OrderedDict[tuple[str, int, str], str] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[tuple[str, int, str], threading.Lock] = {}

    def _kept_page(self, key: tuple[str, int, str]) -> str | None:
        with self._lock:
            page = self._kept.get(key)
            if page is not None:
                self._kept.move_to_end(key)
                self.hits += 1
            return page

    def page(self, text: str, gid: int, evaluation: Evaluation | None = None) -> str:
        """The page of game ``gid`` of this text (``evaluation``: its stored analysis's
        values and marks, drawn where the record carries none)."""
        key = (text, gid, repr(evaluation) if evaluation is not None else "")
        page = self._kept_page(key)
        if page is not None:
            return page
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            page = self._kept_page(key)
            if page is not None:
                return page
            try:
                page = _made(text, gid, evaluation)
            finally:
                with self._lock:
                    self._making.pop(key, None)
            with self._lock:
                self.made += 1
                if len(page) <= _KEPT_MOST:  # (a page of a very long game is not kept)
                    self._kept[key] = page
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
            return page

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.made = self.hits = 0


def _made(text: str, gid: int, evaluation: Evaluation | None = None) -> str:
    from zrec.notation.reader import read_game
    from zrec.render.replay_page import write_page

    out = io.StringIO()
    write_page([(read_game(text, f"game #{gid}"), 1, None)], out, nav=_bar(), linked="/static/",
               evaluations=[evaluation])
    return out.getvalue()


PAGES = _Pages()


def _bar() -> ET.Element:
    """The bar of links above a game's board (the site's own, as ``base.html`` has)."""
    bar = ET.Element("header", {"class": "zrec-site-bar"})
    nav = ET.SubElement(bar, "nav")
    for text, href in (("zrec archive", "/"), ("Search", "/search"), ("Explorer", "/explorer"),
                       ("Board", "/board"), ("Ratings", "/ratings")):
        ET.SubElement(nav, "a", {"href": href}).text = text
    ET.SubElement(bar, "div", {"class": "account"})
    return bar
