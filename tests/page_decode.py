"""The replay page's data read back as its script reads it (src/zrec/_data/replay.js).

The tests compare what a page would draw at each node with what the engine and
:func:`zrec.render.layers.position_layer` give; this module does in Python what the
script does: number the nodes, link each to the one before and after it, apply the
changes of the shared tables.
"""

from __future__ import annotations

import json
import re
from typing import Any


def page_json(page: str) -> dict[str, Any]:
    """The page's data block, parsed (it holds no raw ``<`` or ``>``)."""
    match = re.search(r'<script id="zrec-data" type="application/json">(.*?)</script>', page, re.S)
    assert match is not None
    assert "<" not in match.group(1) and ">" not in match.group(1)
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def _shape(tables: dict[str, Any], ref: Any) -> Any:
    return tables["shapes"][ref] if isinstance(ref, int) else ref


def _change(tables: dict[str, Any], ref: Any) -> Any:
    return tables["changes"][ref] if isinstance(ref, int) else ref


def build(raw: dict[str, Any], tables: dict[str, Any]) -> dict[str, Any]:
    """One game as the script builds it: its nodes (with ``layer``: the shapes drawn
    there) and its main line."""
    items = raw["items"]
    nodes: list[dict[str, Any]] = [
        {"prev": -1, "next": -1, "c": items[0][2], "caption": "start position", "vars": []}
    ]
    main: dict[str, Any] = {"comments": raw["comments"], "moves": []}
    stack: list[dict[str, Any]] = [{"line": main, "last": -1, "prev": 0}]
    for item in items[1:]:
        top = stack[-1]
        if item == 0:
            stack.pop()
            continue
        if isinstance(item, dict):
            parent = nodes[top["last"]]
            line = {"comments": item["v"], "moves": []}
            parent["vars"].append(line)
            stack.append({"line": line, "last": -1, "prev": parent["prev"]})
            continue
        text, n, ref, *more = item
        extra = more[0] if more else {}
        number = n if isinstance(n, str) else f"{n}." if n > 0 else f"{-n}..." if n else ""
        depth = len(stack) - 1
        me = len(nodes)
        nodes.append(
            {
                "prev": top["prev"],
                "next": -1,
                "c": ref,
                "vars": [],
                "move": text + extra.get("x", ""),
                "num": n if isinstance(n, str) else "",
                "nags": extra.get("g", ""),
                "before": extra.get("b", []),
                "after": extra.get("a", []),
                "caption": f"after {number + ' ' if number else ''}{text}"
                + (" (variation)" if depth else ""),
            }
        )
        if top["last"] >= 0:
            nodes[top["last"]]["next"] = me
        elif depth == 0:
            nodes[0]["next"] = me
        top["line"]["moves"].append(me)
        top["last"] = top["prev"] = me
    squares: list[dict[int, list[Any]]] = []
    for node in nodes:
        before = squares[node["prev"]] if node["prev"] >= 0 else {}
        change = _change(tables, node["c"])
        now = dict(before)
        for square, refs in zip(change[1][::2], change[1][1::2], strict=True):
            now[square] = refs
        squares.append(now)
        refs = [*change[0], *(r for s in sorted(now) for r in now[s]), *change[2]]
        node["layer"] = [_shape(tables, r) for r in refs]
    game = {k: v for k, v in raw.items() if k != "items"}
    game.update(nodes=nodes, line=main)
    return game


def page_data(page: str) -> dict[str, Any]:
    """The games of a one-file page, each as :func:`build` gives it."""
    data = page_json(page)
    return {"games": [build(raw, data["tables"]) for raw in data["games"]]}


def layer_pieces(layer: list[list[Any]]) -> dict[str, str]:
    """The pieces a layer draws: square → piece code."""
    return {
        attrs["data-square"]: attrs["data-piece"]
        for tag, attrs, *_ in layer
        if "piece" in attrs.get("class", "").split()
    }
