(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("zrec-data").textContent);
  var tables = data.tables;
  var labels = data.labels || data.games.map(function (game) { return game.label; });
  var NS = "http://www.w3.org/2000/svg";
  var state = { game: 0, node: 0, flipped: false };
  var games = [];  // each game once built from its data: its nodes and lines
  var waiting = {};  // a game's file being loaded: what to do once it is there
  var views = [];
  var buttons = {};
  var MARKS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };  // a move's class
  var EVERY = 64;  // the pieces are kept at every 64th node, and worked out between

  function byId(id) { return document.getElementById(id); }
  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function clear(e) { while (e.firstChild) { e.removeChild(e.firstChild); } }

  document.querySelectorAll(".view").forEach(function (view) {
    var b = Number(view.getAttribute("data-board"));
    var f = Number(view.getAttribute("data-flipped"));
    views[b] = views[b] || [];
    views[b][f] = view;
  });

  // Shapes and changes are named by their number in the page's tables, or written out.
  function shape(ref) { return typeof ref === "number" ? tables.shapes[ref] : ref; }
  function change(ref) { return typeof ref === "number" ? tables.changes[ref] : ref; }

  // The nodes of a game from its items, in order (the start is node 0): each knows the
  // node before it and after it in its line; each line its comments and its moves.
  function build(raw) {
    var items = raw.items;
    var nodes = [{ prev: -1, next: -1, c: items[0][2], caption: "start position" }];
    var main = { comments: raw.comments, moves: [] };
    var stack = [{ line: main, last: -1, prev: 0 }];
    for (var i = 1; i < items.length; i++) {
      var item = items[i];
      var top = stack[stack.length - 1];
      if (item === 0) { stack.pop(); continue; }
      if (!Array.isArray(item)) {  // a variation of the line's last move
        var parent = nodes[top.last];
        var line = { comments: item.v, moves: [] };
        parent.vars.push(line);
        stack.push({ line: line, last: -1, prev: parent.prev });
        continue;
      }
      var id = nodes.length;
      var extra = item[3] || {};
      var n = item[1];
      var number = typeof n === "string" ? n : n > 0 ? n + "." : n < 0 ? -n + "..." : "";
      var depth = stack.length - 1;
      nodes.push({
        prev: top.prev, next: -1, c: item[2], vars: [],
        mark: extra.m || extra.x || "", move: item[0] + (extra.x || extra.m || ""), num: typeof n === "string" ? n : "",
        nags: extra.g || "", before: extra.b || [], after: extra.a || [],
        caption: "after " + (number ? number + " " : "") + item[0] + (depth ? " (variation)" : "")
      });
      if (top.last >= 0) { nodes[top.last].next = id; } else if (depth === 0) { nodes[0].next = id; }
      top.line.moves.push(id);
      top.last = id;
      top.prev = id;
    }
    var game = {
      heading: raw.heading, tags: raw.tags, result: raw.result, wide: raw.wide,
      board: raw.board, line: main, nodes: nodes, kept: {}, last: -1, lastState: null,
      chart: raw.chart || null
    };
    game.kept[0] = apply([], nodes[0].c);
    return game;
  }

  function apply(before, ref) {
    var squares = change(ref)[1];
    var after = before.slice();
    for (var i = 0; i < squares.length; i += 2) { after[squares[i]] = squares[i + 1]; }
    return after;
  }

  // The shapes of every square at a node: from the nearest node before it whose
  // pieces are known, forward.
  function piecesAt(game, id) {
    if (id === game.last) { return game.lastState; }
    var path = [];
    var at = id;
    while (!game.kept[at] && at !== game.last) { path.push(at); at = game.nodes[at].prev; }
    var pieces = at === game.last ? game.lastState : game.kept[at];
    for (var i = path.length - 1; i >= 0; i--) {
      pieces = apply(pieces, game.nodes[path[i]].c);
      if (path[i] % EVERY === 0) { game.kept[path[i]] = pieces; }
    }
    game.last = id;
    game.lastState = pieces;
    return pieces;
  }

  function load(g, done) {
    if (games[g]) { done(); return; }
    if (data.games) {
      games[g] = build(data.games[g]);
      data.games[g] = null;
      done();
      return;
    }
    waiting[g] = done;
    var script = document.createElement("script");
    script.src = data.files[g];
    script.onerror = function () {
      byId("zrec-caption").textContent = "cannot load " + data.files[g];
    };
    document.body.appendChild(script);
  }
  window.zrecGame = function (g, raw) {
    games[g] = build(raw);
    var done = waiting[g];
    delete waiting[g];
    if (done) { done(); }
  };

  function currentView() { return views[games[state.game].board][state.flipped ? 1 : 0]; }

  function draw() {
    var game = games[state.game];
    var node = game.nodes[state.node];
    views.forEach(function (pair, b) {
      pair.forEach(function (view, f) {
        view.hidden = !(b === game.board && f === (state.flipped ? 1 : 0));
      });
    });
    var layer = currentView().querySelector("g.position");
    clear(layer);
    var marks = change(node.c);
    var shapes = marks[0].slice();
    piecesAt(game, state.node).forEach(function (square) {
      if (square) { shapes.push.apply(shapes, square); }
    });
    shapes.push.apply(shapes, marks[2]);
    shapes.forEach(function (ref) {
      var s = shape(ref);
      var e = document.createElementNS(NS, s[0]);
      Object.keys(s[1]).forEach(function (k) { e.setAttribute(k, s[1][k]); });
      if (s.length > 2) { e.textContent = s[2]; }
      layer.appendChild(e);
    });
    if (state.flipped) { upright(layer); }
    byId("zrec-caption").textContent = node.caption;
    cursor();
    var old = document.querySelector("button.move.current");
    if (old) { old.classList.remove("current"); }
    var now = buttons[state.node];
    if (now) {
      now.classList.add("current");
      reveal(now);
    }
  }

  // A token of a map and its marks (its number, its count badge, a ring) follow each
  // other in the layer.  The flipped board turns the whole layer half round; each token
  // is turned back about its own centre, so that it reads the right way up and keeps
  // its marks where they were.
  var PARTS = ["glyph-text", "count-badge", "count-text", "caught-mark", "face-down-mark"];
  function upright(layer) {
    var turn = null;
    Array.prototype.forEach.call(layer.children, function (e) {
      var cls = e.classList;
      if (cls.contains("token")) {
        var box = e.getBBox();
        turn = "rotate(180 " + (box.x + box.width / 2) + " " + (box.y + box.height / 2) + ")";
      } else if (!PARTS.some(function (part) { return cls.contains(part); })) {
        turn = null;
      }
      if (turn) { e.setAttribute("transform", turn); }
    });
  }

  // The evaluation chart of an analysed game (drawn by Python, parsed as SVG: no
  // markup of the record in it): a click on a ply's column goes to its node; the
  // cursor stands on the current move's column, or on the last move of the main line
  // played before a variation's move.
  function showChart(game) {
    var box = byId("zrec-chart");
    clear(box);
    box.hidden = !game.chart;
    if (!game.chart) { return; }
    var doc = new DOMParser().parseFromString(game.chart, "image/svg+xml");
    var svg = document.importNode(doc.documentElement, true);
    svg.addEventListener("click", function (event) {
      var column = event.target.closest("[data-node]");
      if (column) { go(Number(column.getAttribute("data-node"))); }
    });
    box.appendChild(svg);
  }

  function cursor() {
    var line = document.querySelector("#zrec-chart .eval-cursor");
    if (!line) { return; }
    var nodes = games[state.game].nodes;
    var id = state.node;
    var column = null;
    while (id >= 0 && !column) {
      column = document.querySelector('#zrec-chart [data-node="' + id + '"]');
      id = nodes[id].prev;
    }
    if (!column) { return; }
    var x = column.getAttribute("data-x");
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
    var old = document.querySelector("#zrec-chart .eval-ply.current");
    if (old) { old.classList.remove("current"); }
    column.classList.add("current");
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
    var nodes = games[state.game].nodes;
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
      var button = make("button", "move" + (MARKS[node.mark] ? " " + MARKS[node.mark] : ""),
                        node.move);
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
    var game = games[state.game];
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

  function choose(g, then) {
    load(g, function () {
      var game = games[g];
      state.game = g;
      state.node = 0;
      document.body.classList.toggle("wide", game.wide);
      // a board much taller than wide (a map with its legend) is kept within the window,
      // so that the buttons under it stay in view
      var box = views[game.board][0].querySelector("svg").viewBox.baseVal;
      document.body.classList.toggle("tall", box.height > 1.15 * box.width);
      renderRecord();
      showChart(game);
      draw();
      if (then) { then(); }
    });
  }

  var select = byId("zrec-game");
  labels.forEach(function (label, g) {
    var option = make("option", null, label);
    option.value = String(g);
    select.appendChild(option);
  });
  select.addEventListener("change", function () { choose(Number(select.value)); });

  var actions = {
    ArrowRight: function () { go(games[state.game].nodes[state.node].next); },
    ArrowLeft: function () { go(games[state.game].nodes[state.node].prev); },
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

  function placement() {
    var out = [];
    currentView().querySelectorAll(".piece").forEach(function (piece) {
      out.push(piece.getAttribute("data-square") + ":" + piece.getAttribute("data-piece"));
    });
    return out.sort().join(" ");
  }

  // The test harness: the steps of #autotest=..., one after another (choosing a game
  // of a folder waits for its file), then the log.
  function autotest(steps) {
    var log = make("pre");
    log.id = "zrec-test-log";
    var lines = ["start\t" + state.node + "\t" + placement()];
    function next(i) {
      if (i === steps.length) {
        log.textContent = lines.join("\n");
        document.body.appendChild(log);
        return;
      }
      var step = steps[i];
      function logged() {
        lines.push(step + "\t" + state.node + "\t" + placement());
        next(i + 1);
      }
      if (step === "Flip") {
        byId("zrec-flip").click();
      } else if (step.indexOf("node:") === 0) {
        buttons[Number(step.slice(5))].click();
      } else if (step.indexOf("game:") === 0) {
        select.value = String(Number(step.slice(5)) - 1);
        choose(Number(select.value), logged);
        return;
      } else {
        document.dispatchEvent(new KeyboardEvent("keydown", { key: step, bubbles: true }));
      }
      logged();
    }
    next(0);
  }

  var test = /[#&]autotest=([^&]*)/.exec(location.hash);
  choose(0, function () {
    if (test) { autotest(decodeURIComponent(test[1]).split(",")); }
  });
})();
