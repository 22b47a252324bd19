/* The recording board of zrec serve (/board): shows what the JSON API answers (the
   board drawn by the server, the moves that can be clicked, the record as zrec fmt
   writes it) and sends the clicks and edits back. No rule of any game is written
   here: every move is offered and checked by the engines behind /api/position and
   /api/edit. A record's text is never parsed as HTML: the board's SVG is read with
   DOMParser and imported, everything else is set as text. */
(function () {
  "use strict";
  var app = document.getElementById("board-app");
  if (!app) { return; }
  function byId(id) { return document.getElementById(id); }
  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function clear(e) { while (e.firstChild) { e.removeChild(e.firstChild); } }

  var state = {
    text: byId("board-text").value, at: null, clicks: [], roll: null, pos: null,
    rec: null, nodes: {}, next: {}, prev: {}, end: {}
  };
  var suffixes = (app.getAttribute("data-suffixes") || "").split(" ").filter(Boolean);
  var watchers = [];  // told each position drawn (board-player.js)
  var named = {};  // the words of each named choice offered ("=s": "the sum divided: 1 each")

  function problem(message) {
    var p = byId("board-problem");
    p.textContent = message || "";
    p.hidden = !message;
  }

  var pending = 0;  // requests under way: data-busy on the app while there are some
  function busy(step) {
    pending += step;
    if (pending) { app.setAttribute("data-busy", "1"); } else { app.removeAttribute("data-busy"); }
  }
  function call(method, url, body, type) {
    var init = { method: method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      init.body = body;
      init.headers["Content-Type"] = type || "text/plain; charset=utf-8";
    }
    if (method === "POST" && app.getAttribute("data-csrf")) {
      init.headers["X-CSRF-Token"] = app.getAttribute("data-csrf");
    }
    busy(1);
    return fetch(url, init).then(function (answer) {
      return answer.text().then(function (text) {
        busy(-1);
        var data = null;
        try { data = JSON.parse(text); } catch (e) { data = null; }
        if (!answer.ok) {
          var said = data && data.error ? data.error.message : text;
          var error = new Error(said || ("the server answered " + answer.status));
          error.code = data && data.error ? data.error.code : "";
          throw error;
        }
        return data;
      });
    }, function (error) { busy(-1); throw error; });
  }
  function failed(error) { problem(error.message); }

  /* ---- the record: its text, moves, tags ---- */

  function load(text, at) {
    byId("board-text").value = text;
    byId("board-layout").hidden = false;
    return call("POST", "/api/record", text).then(function (rec) {
      state.rec = rec;
      state.text = rec.text;
      document.querySelector(".board-start").open = false;
      byId("board-text").value = rec.text;
      listMoves(rec);
      listTags(rec);
      state.at = at;
      state.clicks = [];
      state.roll = null;
      return position();
    }).catch(failed);
  }

  function listMoves(rec) {
    var box = byId("board-moves");
    clear(box);
    state.nodes = {}; state.next = {}; state.prev = {}; state.end = {};
    var start = make("span", "board-move board-start-node", "start");
    start.setAttribute("data-node", "0");
    box.appendChild(start);
    box.appendChild(document.createTextNode(" "));
    if (rec.comment) { box.appendChild(make("span", "board-comment", rec.comment)); }
    line(box, rec.moves, 0);
    state.end[0] = rec.moves.length ? state.end[rec.moves[0].node] : 0;
  }

  function line(box, moves, before) {
    if (moves.length) { state.next[before] = state.next[before] || moves[0].node; }
    var last = moves.length ? moves[moves.length - 1].node : before;
    moves.forEach(function (item, i) {
      state.nodes[item.node] = item;
      state.prev[item.node] = item.before;
      state.end[item.node] = last;
      if (i + 1 < moves.length) { state.next[item.node] = moves[i + 1].node; }
      if (item.comment_before) {
        box.appendChild(make("span", "board-comment", item.comment_before));
        box.appendChild(document.createTextNode(" "));
      }
      var move = make("span", "board-move", item.label + (item.nags.length ? " " + item.nags.join(" ") : ""));
      move.setAttribute("data-node", String(item.node));
      box.appendChild(move);
      box.appendChild(document.createTextNode(" "));
      if (item.comment) {
        box.appendChild(make("span", "board-comment", item.comment));
        box.appendChild(document.createTextNode(" "));
      }
      item.variations.forEach(function (variation) {
        var v = make("span", "board-variation");
        v.appendChild(document.createTextNode("( "));
        line(v, variation, item.before);
        v.appendChild(document.createTextNode(") "));
        box.appendChild(v);
      });
    });
  }

  function listTags(rec) {
    var rows = byId("board-tag-rows");
    clear(rows);
    rec.tags.forEach(function (pair) {
      var row = make("tr");
      row.appendChild(make("th", null, pair[0]));
      var cell = make("td");
      var input = make("input");
      input.type = "text";
      input.value = pair[1];
      input.setAttribute("data-tag", pair[0]);
      input.setAttribute("aria-label", pair[0]);
      if (pair[0] === "Game" || pair[0] === "Result") { input.readOnly = true; }
      cell.appendChild(input);
      row.appendChild(cell);
      rows.appendChild(row);
    });
  }

  function edit(op, fields, at) {
    var body = { text: state.text, at: at === undefined ? state.at || 0 : at, op: op };
    Object.keys(fields || {}).forEach(function (k) { body[k] = fields[k]; });
    return call("POST", "/api/edit", JSON.stringify(body), "application/json")
      .then(function (done) { return load(done.text, done.at); })
      .catch(failed);
  }

  /* ---- the position: the board, whose turn, the choices ---- */

  function position() {
    var query = [];
    if (state.at !== null) { query.push("at=" + state.at); }
    if (state.roll) { query.push("roll=" + encodeURIComponent(state.roll)); }
    if (state.clicks.length) { query.push("clicks=" + encodeURIComponent(state.clicks.join(","))); }
    return call("POST", "/api/position" + (query.length ? "?" + query.join("&") : ""), state.text)
      .then(function (pos) {
        problem("");
        state.pos = pos;
        state.at = pos.at;
        draw(pos);
        watchers.forEach(function (watch) { watch(pos); });
        var c = pos.choices;
        if (c.move && !c.options.length && c.clicks.length) { play(c.move); }
      }, function (error) {
        problem(error.message);
        if (state.clicks.length || state.roll) {  // back to the turn's start
          state.clicks = [];
          state.roll = null;
          return position();
        }
        if (state.at !== null && error.code === "bad-node") {  // a node the text lost
          state.at = null;
          return position();
        }
        return null;
      });
  }

  function drawView(pos) {
    // the drawing's own <style> is left out before parsing (the CSP allows no inline
    // style; the same rules are /static/diagram.css); text in the SVG is escaped, so
    // no "<style" of a record's text can be matched here
    var drawn = pos.view.replace(/<style>[\s\S]*?<\/style>/g, "");
    var svg = new DOMParser().parseFromString(drawn, "image/svg+xml").documentElement;
    var view = byId("board-view");
    clear(view);
    if (svg.nodeName.toLowerCase() === "svg") {
      view.appendChild(document.importNode(svg, true));
      // a long board (over 2.2 times as wide as high) takes the whole width, the record under it
      var wide = Number(svg.getAttribute("width")) > 2.2 * Number(svg.getAttribute("height"));
      byId("board-layout").classList.toggle("board-wide", wide);
    }
  }

  function marked(name) {
    var q = CSS.escape(name);
    return byId("board-view").querySelectorAll("[data-square=\"" + q + "\"], [data-point=\"" + q + "\"]");
  }

  function button(text, cls, action) {
    var b = make("button", cls, text);
    b.type = "button";
    b.addEventListener("click", action);
    byId("board-choices").appendChild(b);
    return b;
  }

  function draw(pos) {
    drawView(pos);
    var c = pos.choices;
    var turn = pos.to_move ? pos.to_move + " to move" + (pos.number ? " (move " + pos.number + ")" : "")
      : "The game is over" + (pos.outcome ? ": " + pos.outcome.result + (pos.outcome.reason ? " (" + pos.outcome.reason + ")" : "") : "");
    if (pos.roll && pos.roll.given) { turn += " · rolled " + pos.roll.given.join(""); }
    byId("board-turn").textContent = turn;
    var rollBox = byId("board-roll");
    rollBox.hidden = !pos.roll;
    if (pos.roll) {
      byId("board-dice").textContent = "Roll " + pos.roll.dice;
      byId("board-roll-typed").value = pos.roll.given ? pos.roll.given.join("") : "";
    }
    var prompt = pos.to_move ? c.prompt : "";
    if (c.clicks.length) {
      var said = c.clicks.map(function (k) { return named[k] || k; });
      prompt = (prompt ? prompt + " · " : "") + "so far: " + said.join(" → ");
    }
    byId("board-prompt").textContent = prompt;
    clear(byId("board-choices"));
    showLanding(c);
    c.clicks.forEach(function (name) {
      Array.prototype.forEach.call(marked(name), function (e) { e.classList.add("board-chosen"); });
    });
    c.options.forEach(function (option) {
      var found = option.click.charAt(0) === "=" ? [] : marked(option.click);
      if (found.length) {
        Array.prototype.forEach.call(found, function (e) { e.classList.add("board-option"); });
      } else {
        named[option.click] = option.label;
        button(option.label, "board-named", function () { click(option.click); })
          .setAttribute("data-click", option.click);
      }
    });
    enlarge();
    if (c.move && (!c.clicks.length || c.options.length)) {
      button((c.clicks.length ? "Stop here: " : "Play ") + c.move, "board-play-move",
        function () { play(c.move); });
    }
    byId("board-cancel").disabled = !c.clicks.length;
    byId("board-undo").disabled = !pos.at;
    showCurrent(pos);
  }

  /* Mid-chain, the piece is drawn where the clicks so far have taken it: the server
     says where it stands (choices.stands, from the rules: a click on a jumped piece,
     which chooses a chain, is no landing); the piece first clicked is drawn on that
     point, a faint copy left on its start. Only the drawing moves. */
  function showLanding(choices) {
    var view = byId("board-view");
    if (!choices.stands || !choices.clicks.length) { return; }
    var piece = view.querySelector(".piece[data-square=\"" + CSS.escape(choices.clicks[0]) + "\"]");
    var q = CSS.escape(choices.stands);
    var point = view.querySelector("circle.point[data-point=\"" + q + "\"]");
    if (!piece || !point || piece.tagName.toLowerCase() !== "circle") { return; }
    var left = piece.cloneNode(false);
    left.removeAttribute("data-square");
    left.setAttribute("class", "board-left " + (piece.getAttribute("class") || ""));
    piece.parentNode.insertBefore(left, piece);
    piece.setAttribute("cx", point.getAttribute("cx"));
    piece.setAttribute("cy", point.getAttribute("cy"));
    piece.setAttribute("data-square", choices.stands);  // (it stands there now)
    piece.classList.add("board-moving");
    piece.parentNode.appendChild(piece);  // (drawn over the point)
  }

  /* A point or piece to click that is drawn smaller than a finger (a long board on a
     phone) gets a ring around it, as large as its neighbours leave room for: at most
     44 px across, and never over another one's. */
  function enlarge() {
    var view = byId("board-view");
    var svg = view.querySelector("svg");
    Array.prototype.forEach.call(view.querySelectorAll(".board-hit"), function (e) { e.remove(); });
    if (!svg || !svg.viewBox || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) { return; }
    var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (!scale) { return; }
    var spots = [];
    Array.prototype.forEach.call(view.querySelectorAll("circle.board-option"), function (e) {
      var name = e.getAttribute("data-square") || e.getAttribute("data-point");
      var x = Number(e.getAttribute("cx")), y = Number(e.getAttribute("cy"));
      if (!spots.some(function (s) { return s.name === name; })) {
        spots.push({ name: name, x: x, y: y, r: e.getBoundingClientRect().width / 2,
                     attr: e.hasAttribute("data-point") ? "data-point" : "data-square",
                     parent: e.parentNode });
      }
    });
    var circles = Array.prototype.map.call(svg.querySelectorAll("circle.point, circle.piece"), function (e) {
      return { x: Number(e.getAttribute("cx")), y: Number(e.getAttribute("cy")) };
    });
    spots.forEach(function (spot) {
      var room = 22;  // px: half of 44
      circles.forEach(function (c) {
        var d = Math.hypot(c.x - spot.x, c.y - spot.y) * scale;
        if (d > 0.5) { room = Math.min(room, d / 2); }
      });
      if (spot.r >= room) { return; }
      var ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      ring.setAttribute("class", "board-hit board-option");
      ring.setAttribute("cx", String(spot.x));
      ring.setAttribute("cy", String(spot.y));
      ring.setAttribute("r", String(room / scale));
      ring.setAttribute(spot.attr, spot.name);
      spot.parent.appendChild(ring);  // (in its group: the same coordinates)
    });
  }
  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(enlarge, 100);
  });

  function showCurrent(pos) {
    var box = byId("board-moves");
    Array.prototype.forEach.call(box.querySelectorAll(".board-move"), function (m) {
      var here = m.getAttribute("data-node") === String(pos.at);
      m.classList.toggle("board-current", here);
      if (here) {
        m.setAttribute("aria-current", "step");
        var top = m.offsetTop;  // (within the list, which scrolls; not the page)
        if (top < box.scrollTop || top + m.offsetHeight > box.scrollTop + box.clientHeight) {
          box.scrollTop = top - box.clientHeight / 2;
        }
      } else { m.removeAttribute("aria-current"); }
    });
    var item = state.nodes[pos.at];
    byId("board-comment").value = item ? item.comment : (state.rec ? state.rec.comment : "");
    Array.prototype.forEach.call(byId("board-nags").querySelectorAll("button"), function (b) {
      b.disabled = !pos.at;
    });
    var atEnd = pos.at === state.end[0];
    byId("board-result").hidden = !atEnd;
    if (atEnd) {
      var outcome = pos.outcome;
      byId("board-outcome").textContent = outcome && outcome.reason ? "The end: " + outcome.reason
        : (state.rec.result === "*" ? "The game goes on: set a result when it ends." : "");
      byId("board-result-value").value = outcome ? outcome.result : state.rec.result;
      byId("board-termination").value = outcome ? outcome.termination : "";
    }
  }

  function click(name) {
    state.clicks.push(name);
    position();
  }

  function play(move) {
    state.clicks = [];
    state.roll = null;
    edit("play", { move: move });
  }

  function go(node) {
    if (node === undefined || node === null || !state.pos) { return; }
    state.at = node;
    state.clicks = [];
    state.roll = null;
    position();
  }

  byId("board-view").addEventListener("click", function (event) {
    if (!state.pos) { return; }
    var wanted = state.pos.choices.options.map(function (o) { return o.click; });
    var hit = event.target.closest ? event.target.closest("[data-square], [data-point]") : null;
    var pick = null;
    if (hit) {
      [hit.getAttribute("data-square"), hit.getAttribute("data-point")].forEach(function (n) {
        if (!pick && n && wanted.indexOf(n) >= 0) { pick = n; }
      });
    }
    if (!pick) {  // near a marked point: the points themselves are small
      var best = 1e9;
      Array.prototype.forEach.call(byId("board-view").querySelectorAll(".board-option"), function (e) {
        var r = e.getBoundingClientRect();
        var d = Math.hypot(r.left + r.width / 2 - event.clientX, r.top + r.height / 2 - event.clientY);
        var name = e.getAttribute("data-square") || e.getAttribute("data-point");
        if (d < Math.max(24, r.width) && d < best && wanted.indexOf(name) >= 0) { best = d; pick = name; }
      });
    }
    if (pick) { click(pick); }
  });

  byId("board-moves").addEventListener("click", function (event) {
    var move = event.target.closest(".board-move");
    if (move) { go(Number(move.getAttribute("data-node"))); }
  });

  function cancel() {
    if (state.clicks.length) { state.clicks = []; position(); }
  }

  var actions = {
    ArrowRight: function () { go(state.next[state.at]); },
    ArrowLeft: function () { go(state.prev[state.at]); },
    Home: function () { go(0); },
    End: function () { go(state.end[state.at]); },
    Escape: cancel
  };
  document.addEventListener("keydown", function (event) {
    // (keys typed into a field, or with a modifier, are the browser's)
    var typing = event.target.closest && event.target.closest("input, textarea, select");
    var action = actions[event.key];
    if (!action || typing || event.altKey || event.ctrlKey || event.metaKey || !state.pos) { return; }
    event.preventDefault();
    action();
  });
  byId("board-home").addEventListener("click", actions.Home);
  byId("board-back").addEventListener("click", actions.ArrowLeft);
  byId("board-forward").addEventListener("click", actions.ArrowRight);
  byId("board-end").addEventListener("click", actions.End);
  byId("board-cancel").addEventListener("click", cancel);
  /* Undo takes back the last move of the line shown, wherever the board stands in it. */
  byId("board-undo").addEventListener("click", function () {
    var last = state.end[state.at || 0];
    if (last) { edit("cut", {}, last); }
  });
  byId("board-cut").addEventListener("click", function () { if (state.at) { edit("cut"); } });

  /* ---- dice ---- */

  function useRoll(digits) {
    state.roll = digits;
    state.clicks = [];
    byId("board-roll-typed").value = digits;
    position();
  }
  byId("board-roll-use").addEventListener("click", function () {
    useRoll(byId("board-roll-typed").value.replace(/[^0-9]/g, ""));
  });
  byId("board-roll-typed").addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); byId("board-roll-use").click(); }
  });
  byId("board-roll-server").addEventListener("click", function () {
    if (!state.pos || !state.pos.roll) { return; }
    call("GET", "/api/roll?faces=" + state.pos.roll.faces.join(",")).then(function (rolled) {
      useRoll(rolled.roll.join(""));
    }).catch(failed);
  });

  /* The record's edits, the files and the archive are in board-record.js, which
     takes what it needs from window.zrecBoard. */
  window.zrecBoard = {
    state: state, byId: byId, make: make, clear: clear, call: call, edit: edit, load: load,
    failed: failed, suffixes: suffixes, problem: problem,
    watch: function (watch) { watchers.push(watch); }
  };

}());
