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
      if (shape.length > 2) { e.textContent = shape[2]; }
      layer.appendChild(e);
    });
    if (state.flipped) { upright(layer); }
    byId("zrec-caption").textContent = node.caption;
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
    // a board much taller than wide (a map with its legend) is kept within the window,
    // so that the buttons under it stay in view
    var box = views[g][0].querySelector("svg").viewBox.baseVal;
    document.body.classList.toggle("tall", box.height > 1.15 * box.width);
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
