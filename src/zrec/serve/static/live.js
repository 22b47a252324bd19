/* A live game of zrec serve (/live/{id}): the board drawn by the server, the moves
   pushed by it (Server-Sent Events, /api/live/{id}/stream), and, for the player of
   the seat to move, the clicks of a move offered and checked by the engines behind
   /api/live/{id}/position (the record with what no seat may see is the server's
   alone), the move sent to /api/live/{id}/move. A broadcast (a game recorded on
   the recording board) is only followed: its moves come from the arbiter's board,
   and the page offers no move and no action. No rule of any game is written
   here. A record's text is never parsed as HTML: the board's SVG is read with
   DOMParser and imported, everything else is set as text. */
(function () {
  "use strict";
  var app = document.getElementById("live-app");
  if (!app) { return; }
  function byId(id) { return document.getElementById(id); }
  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function clear(e) { while (e.firstChild) { e.removeChild(e.firstChild); } }
  var id = app.getAttribute("data-id");
  var user = app.getAttribute("data-user");
  var asked = app.getAttribute("data-seat");
  var game = null, pos = null, clicks = [], stamp = 0, shownAt = 0;

  function problem(message) {
    var p = byId("live-problem");
    p.textContent = message || "";
    p.hidden = !message;
  }
  function call(method, url, body, type, tries) {
    tries = tries || 0;
    var init = { method: method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      init.body = body;
      init.headers["Content-Type"] = type || "application/json";
    }
    if (method === "POST") { init.headers["X-CSRF-Token"] = app.getAttribute("data-csrf"); }
    return fetch(url, init).then(function (answer) {
      if ((answer.status === 429 || answer.status === 503) && tries < 5 && url.indexOf("/move") < 0) {
        // too many of this address's requests at once (the pool of expensive work):
        // asked again after the time the server says
        var wait = Number(answer.headers.get("Retry-After") || "1") * 1000;
        return new Promise(function (done) { setTimeout(done, Math.min(wait, 3000)); })
          .then(function () { return call(method, url, body, type, tries + 1); });
      }
      return answer.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { data = null; }
        if (!answer.ok) {
          throw new Error(data && data.error ? data.error.message : "the server answered " + answer.status);
        }
        return data;
      });
    });
  }
  function norm(name) { return (name || "").normalize("NFC").toLowerCase(); }
  function mySeats() {
    if (!game || !user || game.broadcast) { return []; }
    return Object.keys(game.seats).filter(function (s) { return norm(game.seats[s]) === norm(user); });
  }
  function myTurn() { return game && game.status === "playing" && mySeats().indexOf(game.to_move) >= 0; }

  function show(state) {
    if (game && state.version < game.version) { return; }
    var changed = !game || state.version !== game.version;
    game = state;
    stamp = Date.now();
    byId("live-record").textContent = state.record;
    var list = byId("live-moves");
    clear(list);
    state.moves.forEach(function (m) { list.appendChild(make("li", null, m)); });
    list.scrollTop = list.scrollHeight;  // (the latest move in sight)
    Object.keys(state.seats).forEach(function (s) {
      var row = document.querySelector("#live-seats tr[data-seat=\"" + CSS.escape(s) + "\"] .live-player");
      var kept = state.names[s] && state.names[s] !== "?" ? "open, kept for " + state.names[s] : "open";
      if (row) { row.textContent = state.broadcast ? state.names[s] : state.seats[s] || kept; }
    });
    var turn;
    if (state.status === "over") {
      turn = "The game is over: " + state.result + (state.termination ? " (" + state.termination + ")" : "");
    } else if (Object.keys(state.seats).some(function (s) { return !state.seats[s]; })) {
      turn = "Waiting for players";
    } else {
      turn = state.to_move + " to move" + (state.roll ? " · rolled " + state.roll.join("") : "");
      if (state.draw_offer) {
        turn += " · " + state.draw_offer + " offers a draw";
        var also = (state.draw_agreed || []).filter(function (s) { return s !== state.draw_offer; });
        if (also.length) { turn += " (" + also.join(", ") + " agreed)"; }
      }
    }
    byId("live-turn").textContent = turn;
    byId("live-stored").textContent = "";
    if (state.game_id) {
      var a = make("a", null, "game #" + state.game_id + " in the archive");
      a.href = "/games/" + state.game_id;
      byId("live-stored").appendChild(a);
    }
    if (state.not_stored) {  // (a broadcast of a stored game, or a record refused)
      byId("live-stored").appendChild(make("span", "live-not-stored", " " + state.not_stored));
    }
    you();
    var mine = mySeats();
    var actions = byId("live-actions");  // (none on a broadcast's page)
    if (actions) {
      actions.hidden = !(state.status === "playing" && mine.length);
      var agreed = state.draw_agreed || [];
      var offered = state.draw_offer && mine.some(function (s) { return agreed.indexOf(s) < 0; });
      [["resign", state.ply > 0], ["draw-offer", state.ply > 0 && !state.draw_offer],
       ["draw-accept", offered], ["abort", state.ply === 0]].forEach(function (shown) {
        actions.querySelector("button[data-action=\"" + shown[0] + "\"]").hidden = !shown[1];
      });
    }
    tick();
    if (changed || !pos) { clicks = []; position(); }
  }

  function you() {
    var box = byId("live-you");
    clear(box);
    if (!game || game.status !== "playing") { return; }
    if (game.broadcast) { box.appendChild(make("p", null, "You are watching")); return; }
    var mine = mySeats();
    if (mine.length) { box.appendChild(make("p", null, "You play " + mine.join(", "))); return; }
    if (asked && game.seats[asked] === null) {
      if (!user) {
        var login = make("a", null, "Log in to take the seat " + asked);
        login.href = "/login?next=" + encodeURIComponent(location.pathname + location.search);
        box.appendChild(login);
        return;
      }
      var kept = game.names[asked];
      if (kept && kept !== "?" && norm(kept) !== norm(user)) {  // (another's: theirs to take)
        box.appendChild(make("p", null, "The seat " + asked + " is kept for " + kept + ": you are watching"));
        return;
      }
      var b = make("button", "live-take", "Take the seat " + asked);
      b.type = "button";
      b.addEventListener("click", function () {
        call("POST", "/api/live/" + id + "/seat", JSON.stringify({ seat: asked }))
          .then(show, function (e) { problem(e.message); });
      });
      box.appendChild(b);
    } else {
      box.appendChild(make("p", null, "You are watching"));
    }
  }

  function tick() {
    if (!game || !game.clocks) { byId("live-clocks").textContent = ""; return; }
    var gone = (Date.now() - stamp) / 1000;
    byId("live-clocks").textContent = Object.keys(game.clocks).map(function (s) {
      var left = game.clocks[s];
      if (s === game.to_move && game.ply > 0 && game.status === "playing") { left = Math.max(0, left - gone); }
      var m = Math.floor(left / 60), sec = Math.floor(left % 60);
      return s + " " + m + ":" + (sec < 10 ? "0" : "") + sec;
    }).join(" · ");
  }
  setInterval(tick, 500);

  function position() {
    var query = clicks.length ? "?clicks=" + encodeURIComponent(clicks.join(",")) : "";
    var asking = game.version;
    return call("GET", "/api/live/" + id + "/position" + query)
      .then(function (p) {
        if (asking !== game.version) { return; }
        pos = p;
        problem("");
        draw(p);
        var c = p.choices;
        if (myTurn() && c.move && !c.options.length && c.clicks.length) { send(c.move); }
      }, function (e) { problem(e.message); clicks = []; });
  }

  function marked(name) {
    var q = CSS.escape(name);
    return byId("live-view").querySelectorAll("[data-square=\"" + q + "\"], [data-point=\"" + q + "\"]");
  }

  function draw(p) {
    var drawn = p.view.replace(/<style>[\s\S]*?<\/style>/g, "");
    var svg = new DOMParser().parseFromString(drawn, "image/svg+xml").documentElement;
    var view = byId("live-view");
    clear(view);
    if (svg.nodeName.toLowerCase() === "svg") { view.appendChild(document.importNode(svg, true)); }
    var box = byId("live-choices");
    clear(box);
    byId("live-prompt").textContent = "";
    shownAt = game.ply;
    app.setAttribute("data-ply", String(game.ply));
    app.setAttribute("data-version", String(game.version));
    if (!myTurn()) { return; }
    var c = p.choices;
    byId("live-prompt").textContent = c.prompt + (c.clicks.length ? " · so far: " + c.clicks.join(" → ") : "");
    c.clicks.forEach(function (name) {
      Array.prototype.forEach.call(marked(name), function (e) { e.classList.add("board-chosen"); });
    });
    c.options.forEach(function (option) {
      var found = option.click.charAt(0) === "=" ? [] : marked(option.click);
      if (found.length) {
        Array.prototype.forEach.call(found, function (e) { e.classList.add("board-option"); });
      } else {
        var b = make("button", "board-named", option.label);
        b.type = "button";
        b.addEventListener("click", function () { clicks.push(option.click); position(); });
        box.appendChild(b);
      }
    });
    if (c.move && (!c.clicks.length || c.options.length)) {  // (a turn of no click: 3: H)
      var stop = make("button", "board-play-move", (c.clicks.length ? "Stop here: " : "Play ") + c.move);
      stop.type = "button";
      stop.addEventListener("click", function () { send(c.move); });
      box.appendChild(stop);
    }
    if (c.clicks.length) {
      var cancel = make("button", null, "Cancel");
      cancel.type = "button";
      cancel.addEventListener("click", function () { clicks = []; position(); });
      box.appendChild(cancel);
    }
  }

  byId("live-view").addEventListener("click", function (event) {
    if (!pos || !myTurn()) { return; }
    var wanted = pos.choices.options.map(function (o) { return o.click; });
    var hit = event.target.closest ? event.target.closest("[data-square], [data-point]") : null;
    var pick = null;
    if (hit) {
      [hit.getAttribute("data-square"), hit.getAttribute("data-point")].forEach(function (n) {
        if (!pick && n && wanted.indexOf(n) >= 0) { pick = n; }
      });
    }
    if (!pick) {  // near a marked point: the points themselves are small
      var best = 1e9;
      Array.prototype.forEach.call(byId("live-view").querySelectorAll(".board-option"), function (e) {
        var r = e.getBoundingClientRect();
        var d = Math.hypot(r.left + r.width / 2 - event.clientX, r.top + r.height / 2 - event.clientY);
        var name = e.getAttribute("data-square") || e.getAttribute("data-point");
        if (d < best && d < 24) { best = d; pick = name; }
      });
    }
    if (pick) { clicks.push(pick); position(); }
  });

  function send(move) {
    clicks = [];
    call("POST", "/api/live/" + id + "/move", JSON.stringify({ move: move }))
      .then(show, function (e) { problem(e.message); position(); });
  }

  Array.prototype.forEach.call(document.querySelectorAll("#live-actions button"), function (b) {
    b.addEventListener("click", function () {
      call("POST", "/api/live/" + id + "/move", JSON.stringify({ action: b.getAttribute("data-action") }))
        .then(show, function (e) { problem(e.message); });
    });
  });

  // the game followed: a stream the server refused or ended (busy, too many at once,
  // a worker restarted) is opened again after a wait that grows to 30 s, from the last
  // move seen (a network error the browser retries by itself)
  var seen = 0, over = false, wait = 1000;
  function follow() {
    var source = new EventSource("/api/live/" + id + "/stream?after=" + seen);
    source.addEventListener("state", function (event) {
      var now = JSON.parse(event.data);
      show(now);
      wait = 1000;
      if (now.status !== "playing") { over = true; source.close(); }
    });
    source.addEventListener("move", function (event) {
      var m = JSON.parse(event.data);
      seen = Math.max(seen, m.ply);
      app.setAttribute("data-last-move", m.ply + ". " + m.move);
    });
    source.addEventListener("error", function () {
      if (source.readyState !== EventSource.CLOSED || over) { return; }
      setTimeout(follow, wait);
      wait = Math.min(wait * 2, 30000);
    });
  }

  call("GET", "/api/live/" + id).then(function (state) {
    show(state);
    seen = state.ply;
    follow();
  }, function (e) { problem(e.message); });
})();
