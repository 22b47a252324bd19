"""The replay page: one self-contained HTML file to play through recorded games.

Everything is inline (stylesheet, script, the boards as SVG), so the page works
offline from a single file.  Python does the thinking: it replays the main line and
every variation and stores, for each move, the picture layer of the position after it
(pieces, last-move arrow, ghosts), as JSON in a ``<script type="application/json">``
block in which ``<``, ``>`` and ``&`` are escaped, so no record text can end the block.
The script only switches between those positions and builds the tag table and the
move list with ``textContent``: record text never reaches ``innerHTML``.

For tests, ``page.html#autotest=ArrowRight,End,Home`` makes the page press those keys
itself (``Flip`` presses the flip button, ``node:6`` clicks the sixth move of the list,
``game:2`` chooses the second game) and write the pieces on the board after each
step into ``<pre id="zrec-test-log">``, one line a step: the key, the node number and
``square:code`` pairs in sorted order.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from zrec.notation.model import Game, Line
from zrec.outputs._boards import board_for, element, num
from zrec.outputs._layers import mark_move, position_layer
from zrec.outputs.diagram import (
    DEFAULT_CSS,
    SVG_NS,
    DiagramError,
    move_label,
    record_title,
    replay_record,
)
from zrec.rules.base import IllegalMove

__all__ = ["PageError", "replay_page"]


class PageError(ValueError):
    """A game the replay page cannot show, and why."""


def _json_for_script(data: object) -> str:
    """JSON that is safe inside ``<script>``: ``<``, ``>``, ``&`` and the JavaScript line
    separators are written as ``\\u`` escapes."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def _shapes(elements: Sequence[ET.Element]) -> list[list[Any]]:
    """SVG elements as ``[tag, {attribute: value}]`` pairs for the script to rebuild."""
    return [[e.tag, dict(sorted(e.attrib.items()))] for e in elements]


class _Walk:
    """Replays a game's lines and collects one node per position."""

    def __init__(self, game: Game, number: int) -> None:
        self.game, self.number = game, number
        try:
            self.replay = replay_record(game)
        except DiagramError as exc:
            raise PageError(f"game {number}: {exc}") from None
        self.variant = self.replay.variant
        self.board = board_for(self.variant)
        start = self.replay.start
        self.nodes: list[dict[str, Any]] = [
            {"prev": -1, "next": -1, "caption": "start position", "layer": self._layer(start)}
        ]

    def _layer(self, position: Any, last: Any = None) -> list[list[Any]]:
        return _shapes(position_layer(self.board, self.variant.pieces(position), last))

    def line(self, line: Line, position: Any, prev: int, depth: int) -> dict[str, Any]:
        ids: list[int] = []
        spaced = True  # the next second-side move needs its number written
        for node in line.moves:
            try:
                move = self.variant.resolve(position, node.turn).move
            except IllegalMove as exc:
                count, side = self.variant.turn_label(position)
                where = "the main line" if depth == 0 else "a variation"
                raise PageError(
                    f"game {self.number}: move {count} ({side}) {node.turn.text()} in {where} "
                    f"is illegal: {exc.reason}"
                ) from None
            after = self.variant.apply(position, move)
            label = move_label(self.replay, position, after, node)
            number, _, text = label.rpartition(" ")
            # A number is written before the first side's moves, and before the second
            # side's after anything that interrupts the line (as the canonical form does).
            shown = bool(number) and (
                spaced or bool(node.comments_before) or not number.endswith("...")
            )
            me = len(self.nodes)
            item: dict[str, Any] = {
                "prev": prev,
                "next": -1,
                "num": number if shown else "",
                "move": text + (node.suffix or ""),
                "nags": " ".join(f"${n}" for n in node.nags),
                "before": [c.text for c in node.comments_before],
                "after": [c.text for c in node.comments_after],
                "caption": f"after {label}" + (" (variation)" if depth else ""),
                "layer": self._layer(after, mark_move(self.variant, position, move)),
                "vars": [],
            }
            self.nodes.append(item)
            item["vars"] = [self.line(v, position, prev, depth + 1) for v in node.variations]
            if ids:
                self.nodes[ids[-1]]["next"] = me
            elif depth == 0:
                self.nodes[0]["next"] = me
            ids.append(me)
            spaced = bool(node.comments_after or node.variations or node.nags or not number)
            prev, position = me, after
        return {"moves": ids, "comments": [c.text for c in line.comments]}

    def data(self) -> dict[str, Any]:
        line = self.line(self.game.line, self.replay.start, 0, 0)
        heading = record_title(self.game, self.replay)
        board = self.board
        return {
            "wide": board.width > 2.5 * board.height,  # then the moves go under the board
            "heading": heading,
            "label": f"Game {self.number}: {heading}",
            "tags": [list(tag) for tag in self.game.tags],
            "result": self.game.result,
            "line": line,
            "nodes": self.nodes,
        }

    def views(self, index: int) -> list[ET.Element]:
        """The two boards (as White and as Black sees it) of this game, start drawn."""
        out = []
        for flip in (False, True):
            board = board_for(self.variant, flip=flip)
            svg = element(
                "svg",
                "zrec-diagram zrec-board",
                xmlns=SVG_NS,
                viewBox=f"0 0 {num(board.width)} {num(board.height)}",
                width=board.width,
                height=board.height,
                role="img",
            )
            ET.SubElement(svg, "title").text = self.replay.rules.title
            svg.append(element("rect", "background", width=board.width, height=board.height))
            group = element("g", "board")
            group.extend(board.background())
            layer = element("g", "position")
            if flip:
                x, y = board.pivot
                layer.set("transform", f"rotate(180 {num(x)} {num(y)})")
            layer.extend(position_layer(self.board, self.variant.pieces(self.replay.start), None))
            group.append(layer)
            svg.append(group)
            view = ET.Element("div", {"class": "view", "data-game": str(index)})
            view.set("data-flipped", "1" if flip else "0")
            if flip or index:
                view.set("hidden", "hidden")
            view.append(svg)
            out.append(view)
        return out


def replay_page(games: Sequence[Game], *, numbers: Sequence[int] | None = None) -> str:
    """The replay page of these games (``numbers``: their numbers in the file, for
    messages and the selector; default 1, 2, ...).  Raises :class:`PageError` when a
    game cannot be replayed (no engine, an illegal move in any line)."""
    if not games:
        raise PageError("there is no game to show")
    walks = [_Walk(g, n) for g, n in zip(games, numbers or range(1, len(games) + 1), strict=True)]
    data = {"games": [w.data() for w in walks]}

    html = ET.Element("html", {"lang": "en"})
    head = ET.SubElement(html, "head")
    ET.SubElement(head, "meta", {"charset": "utf-8"})
    ET.SubElement(
        head, "meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}
    )
    ET.SubElement(head, "title").text = f"{data['games'][0]['heading']} — zrec replay"
    ET.SubElement(head, "style").text = "\n" + DEFAULT_CSS + PAGE_CSS
    body = ET.SubElement(html, "body")
    header = ET.SubElement(body, "header")
    ET.SubElement(header, "h1", {"id": "zrec-title"}).text = data["games"][0]["heading"]
    chooser = ET.SubElement(header, "label", {"class": "chooser"})
    if len(walks) < 2:
        chooser.set("hidden", "hidden")
    chooser.text = "Game "
    ET.SubElement(chooser, "select", {"id": "zrec-game"})
    main = ET.SubElement(body, "main")
    panel = ET.SubElement(main, "section", {"class": "board-panel"})
    boards = ET.SubElement(panel, "div", {"class": "boards"})
    for i, walk in enumerate(walks):
        boards.extend(walk.views(i))
    ET.SubElement(
        panel, "p", {"id": "zrec-caption", "class": "position-caption"}
    ).text = "start position"
    controls = ET.SubElement(panel, "div", {"class": "controls"})
    for ident, text, hint in (
        ("zrec-home", "|\u25c0", "Start (Home)"),
        ("zrec-back", "\u25c0", "Back (left arrow)"),
        ("zrec-forward", "\u25b6", "Forward (right arrow)"),
        ("zrec-end", "\u25b6|", "End of the line (End)"),
        ("zrec-flip", "Flip board", "View the board from the other side"),
    ):
        button = ET.SubElement(
            controls, "button", {"id": ident, "type": "button", "title": hint, "aria-label": hint}
        )
        button.text = text
    ET.SubElement(
        panel, "p", {"class": "hint"}
    ).text = "Keys: \u2190 \u2192 Home End. Click a move to see the position after it."
    ET.SubElement(panel, "noscript").text = "The moves need JavaScript; the board shows the start."
    record = ET.SubElement(main, "section", {"class": "record", "id": "zrec-record"})
    ET.SubElement(record, "table", {"id": "zrec-tags", "class": "tags"})
    ET.SubElement(record, "div", {"id": "zrec-moves", "class": "moves"})
    store = ET.SubElement(body, "script", {"id": "zrec-data", "type": "application/json"})
    store.text = _json_for_script(data)
    ET.SubElement(body, "script").text = PAGE_SCRIPT
    for node in html.iter():
        node.attrib = dict(sorted(node.attrib.items()))
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"


PAGE_CSS = """\
body { margin: 0; color: #111; background: #f7f7f5;
  font-family: Georgia, 'Times New Roman', serif; }
header { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: baseline;
  padding: 12px 20px; background: #fff; border-bottom: 1px solid #ddd; }
h1 { font-size: 1.3em; margin: 0; }
main { display: flex; flex-wrap: wrap; gap: 20px; padding: 16px 20px; align-items: flex-start; }
.board-panel { flex: 3 1 520px; min-width: 0; }
.view svg { display: block; width: 100%; height: auto; background: #fff; }
body.wide .board-panel { flex-basis: 100%; }
body.wide .record { max-height: none; }
.position-caption { margin: 8px 0; font-size: 1.1em; text-align: center; }
.controls { display: flex; gap: 6px; justify-content: center; flex-wrap: wrap; }
.controls button { font: inherit; padding: 4px 14px; cursor: pointer; }
.hint { color: #666; font-size: 0.9em; text-align: center; }
.record { position: relative; flex: 2 1 320px; min-width: 0; max-height: 88vh; overflow: auto;
  background: #fff; border: 1px solid #ddd; padding: 10px 16px; }
.tags { border-collapse: collapse; margin-bottom: 12px; font-size: 0.95em; }
.tags th { text-align: left; font-weight: normal; color: #666; padding: 1px 16px 1px 0;
  vertical-align: top; }
.tags td { padding: 1px 0; overflow-wrap: anywhere; }
.moves { line-height: 1.9; }
.moves .step { white-space: nowrap; }
.moves .number { color: #777; margin-left: 4px; }
.moves button.move { font: inherit; color: inherit; background: none; border: 0;
  padding: 1px 4px; border-radius: 3px; cursor: pointer; }
.moves button.move:hover { background: #eee; }
.moves button.move.current { background: #a8322d; color: #fff; }
.moves .nags { color: #555; font-size: 0.85em; }
.moves .comment { color: #2d4a63; font-style: italic; margin: 0 4px; overflow-wrap: anywhere; }
.moves .variation { display: block; margin-left: 1.4em; padding-left: 0.6em;
  border-left: 2px solid #e2e2e2; color: #444; }
.moves .result { font-weight: bold; margin-left: 6px; }
"""

PAGE_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("zrec-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var state = { game: 0, node: 0, flipped: false };
  var views = [];
  var buttons = {};

  function byId(id) { return document.getElementById(id); }
  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function clear(e) { while (e.firstChild) { e.removeChild(e.firstChild); } }

  document.querySelectorAll(".view").forEach(function (view) {
    var g = Number(view.getAttribute("data-game"));
    var f = Number(view.getAttribute("data-flipped"));
    views[g] = views[g] || [];
    views[g][f] = view;
  });

  function currentView() { return views[state.game][state.flipped ? 1 : 0]; }

  function draw() {
    var game = data.games[state.game];
    var node = game.nodes[state.node];
    views.forEach(function (pair, g) {
      pair.forEach(function (view, f) {
        view.hidden = !(g === state.game && f === (state.flipped ? 1 : 0));
      });
    });
    var layer = currentView().querySelector("g.position");
    clear(layer);
    node.layer.forEach(function (shape) {
      var e = document.createElementNS(NS, shape[0]);
      Object.keys(shape[1]).forEach(function (k) { e.setAttribute(k, shape[1][k]); });
      layer.appendChild(e);
    });
    byId("zrec-caption").textContent = node.caption;
    var old = document.querySelector("button.move.current");
    if (old) { old.classList.remove("current"); }
    var now = buttons[state.node];
    if (now) {
      now.classList.add("current");
      reveal(now);
    }
  }

  function reveal(button) {
    // Scroll the move list (never the page) so that the current move is in view.
    var box = byId("zrec-record");
    var top = button.offsetTop;
    var bottom = top + button.offsetHeight;
    if (top < box.scrollTop) {
      box.scrollTop = top - 8;
    } else if (bottom > box.scrollTop + box.clientHeight) {
      box.scrollTop = bottom - box.clientHeight + 8;
    }
  }

  function go(id) {
    if (id >= 0 && id !== state.node) { state.node = id; draw(); }
  }

  function lineEnd(id) {
    var nodes = data.games[state.game].nodes;
    while (nodes[id].next >= 0) { id = nodes[id].next; }
    return id;
  }

  function comments(box, list) {
    list.forEach(function (text) { box.appendChild(make("span", "comment", text)); });
  }

  function renderLine(game, line, box) {
    comments(box, line.comments);
    line.moves.forEach(function (id) {
      var node = game.nodes[id];
      comments(box, node.before);
      var step = make("span", "step");
      if (node.num) { step.appendChild(make("span", "number", node.num)); }
      var button = make("button", "move", node.move);
      button.type = "button";
      button.addEventListener("click", function () { go(id); });
      buttons[id] = button;
      step.appendChild(button);
      box.appendChild(step);
      if (node.nags) { box.appendChild(make("span", "nags", node.nags)); }
      comments(box, node.after);
      node.vars.forEach(function (variation) {
        var inner = make("span", "variation");
        inner.appendChild(document.createTextNode("( "));
        renderLine(game, variation, inner);
        inner.appendChild(document.createTextNode(" )"));
        box.appendChild(inner);
      });
    });
  }

  function renderRecord() {
    var game = data.games[state.game];
    byId("zrec-title").textContent = game.heading;
    document.title = game.heading + " \u2014 zrec replay";
    var table = byId("zrec-tags");
    clear(table);
    game.tags.forEach(function (tag) {
      var row = make("tr");
      row.appendChild(make("th", null, tag[0]));
      row.appendChild(make("td", null, tag[1]));
      table.appendChild(row);
    });
    var moves = byId("zrec-moves");
    clear(moves);
    buttons = {};
    renderLine(game, game.line, moves);
    moves.appendChild(make("span", "result", game.result));
  }

  function choose(g) {
    state.game = g;
    state.node = 0;
    document.body.classList.toggle("wide", data.games[g].wide);
    renderRecord();
    draw();
  }

  var select = byId("zrec-game");
  data.games.forEach(function (game, g) {
    var option = make("option", null, game.label);
    option.value = String(g);
    select.appendChild(option);
  });
  select.addEventListener("change", function () { choose(Number(select.value)); });

  var actions = {
    ArrowRight: function () { go(data.games[state.game].nodes[state.node].next); },
    ArrowLeft: function () { go(data.games[state.game].nodes[state.node].prev); },
    Home: function () { go(0); },
    End: function () { go(lineEnd(state.node)); }
  };
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "select" || tag === "input" || tag === "textarea") { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var action = actions[event.key];
    if (action) { event.preventDefault(); action(); }
  });
  byId("zrec-home").addEventListener("click", actions.Home);
  byId("zrec-back").addEventListener("click", actions.ArrowLeft);
  byId("zrec-forward").addEventListener("click", actions.ArrowRight);
  byId("zrec-end").addEventListener("click", actions.End);
  byId("zrec-flip").addEventListener("click", function () {
    state.flipped = !state.flipped;
    draw();
  });

  choose(0);

  function placement() {
    var out = [];
    currentView().querySelectorAll(".piece").forEach(function (piece) {
      out.push(piece.getAttribute("data-square") + ":" + piece.getAttribute("data-piece"));
    });
    return out.sort().join(" ");
  }
  var test = /[#&]autotest=([^&]*)/.exec(location.hash);
  if (test) {
    var log = make("pre");
    log.id = "zrec-test-log";
    var lines = ["start\t" + state.node + "\t" + placement()];
    decodeURIComponent(test[1]).split(",").forEach(function (step) {
      if (step === "Flip") {
        byId("zrec-flip").click();
      } else if (step.indexOf("node:") === 0) {
        buttons[Number(step.slice(5))].click();
      } else if (step.indexOf("game:") === 0) {
        select.value = String(Number(step.slice(5)) - 1);
        select.dispatchEvent(new Event("change"));
      } else {
        document.dispatchEvent(new KeyboardEvent("keydown", { key: step, bubbles: true }));
      }
      lines.push(step + "\t" + state.node + "\t" + placement());
    });
    log.textContent = lines.join("\n");
    document.body.appendChild(log);
  }
})();
"""
