/* The recording board's record panel (/board): the edits of the record (a typed move,
   comments, NAGs, the result, tags), the downloads, saving to the archive, and the
   form that starts a game or opens a record (then the record given, if any, is loaded). It only
   sends what the user typed to the JSON API and shows the answers as text; the board
   itself, and the calls to the API, are in board.js, which hands them over as
   window.zrecBoard. No rule of any game is written here. */
(function () {
  "use strict";
  var z = window.zrecBoard;
  if (!z) { return; }
  /* ---- the record's edits ---- */

  z.byId("board-typed").addEventListener("submit", function (event) {
    event.preventDefault();
    var written = z.byId("board-typed-move").value.trim();
    if (written) {  // (played as board.js plays a clicked move: the clicks and roll reset)
      z.byId("board-typed-move").value = "";
      z.state.clicks = [];
      z.state.roll = null;
      z.edit("play", { move: written });
    }
  });
  z.byId("board-reread").addEventListener("click", function () {
    z.load(z.byId("board-text").value, z.state.at);
  });
  z.byId("board-comment-save").addEventListener("click", function () {
    z.edit("comment", { comment: z.byId("board-comment").value });
  });
  z.suffixes.forEach(function (mark) {
    var b = z.make("button", "board-nag", mark);
    b.type = "button";
    b.title = "mark the move " + mark + " (again: take it off)";
    b.addEventListener("click", function () { if (z.state.at) { z.edit("nag", { nag: mark }); } });
    z.byId("board-nags").appendChild(b);
  });
  z.byId("board-result-save").addEventListener("click", function () {
    var termination = z.byId("board-termination").value.trim();
    z.state.at = z.state.end[0];
    z.edit("result", { result: z.byId("board-result-value").value.trim(), termination: termination || null });
  });
  z.byId("board-tags").addEventListener("submit", function (event) {
    event.preventDefault();
    var changes = {};
    var changed = false;
    Array.prototype.forEach.call(z.byId("board-tag-rows").querySelectorAll("input[data-tag]"), function (input) {
      var name = input.getAttribute("data-tag");
      var before = z.state.rec.tags.filter(function (p) { return p[0] === name; })[0];
      if (!input.readOnly && before && before[1] !== input.value) {
        changes[name] = input.value.trim() ? input.value.trim() : null;
        changed = true;
      }
    });
    var name = z.byId("board-tag-name").value.trim();
    if (name) { changes[name] = z.byId("board-tag-value").value.trim() || null; changed = true; }
    if (!changed) { return; }
    z.byId("board-tag-name").value = "";
    z.byId("board-tag-value").value = "";
    z.edit("tags", { tags: changes });
  });

  /* ---- files and the archive ---- */

  function fileName(ext) {
    var tags = {};
    (z.state.rec ? z.state.rec.tags : []).forEach(function (p) { tags[p[0]] = p[1]; });
    var parts = [tags.Game, tags.Event, tags.Round].filter(function (t) { return t && t !== "?"; });
    return (parts.join("-").replace(/[^A-Za-z0-9._-]+/g, "_") || "game") + ext;
  }
  function download(blob, name) {
    var link = z.make("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
  }
  z.byId("board-download").addEventListener("click", function () {
    download(new Blob([z.state.text], { type: "text/plain" }), fileName(".zrec"));
  });
  z.byId("board-download-json").addEventListener("click", function () {
    z.call("POST", "/api/json", z.state.text).then(function (data) {
      download(new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" }), fileName(".json"));
    }).catch(z.failed);
  });

  function report(doc) {
    var box = z.byId("board-report");
    z.clear(box);
    box.hidden = false;
    var counts = Object.keys(doc).filter(function (k) {
      return typeof doc[k] === "number" && (doc[k] || k === "added");
    }).map(function (k) { return doc[k] + " " + k; });
    box.appendChild(z.make("p", "board-summary", "Saved: " + counts.join(", ")));
    var list = z.make("ul");
    doc.reports.forEach(function (r) {
      var item = z.make("li", "board-report-" + r.kind, r.kind + ": " + r.message);
      if (r.id) {
        item.appendChild(document.createTextNode(" "));
        var a = z.make("a", null, "game #" + r.id);
        a.href = "/games/" + r.id;
        item.appendChild(a);
      }
      list.appendChild(item);
    });
    if (doc.reports.length) { box.appendChild(list); }
    var event = z.state.rec.tags.filter(function (p) { return p[0] === "Event"; })[0];
    if (event && event[1] && event[1] !== "?") {
      var p = z.make("p");
      var link = z.make("a", null, "the standings of " + event[1]);
      link.href = "/events/" + encodeURIComponent(event[1]);
      p.appendChild(link);
      box.appendChild(p);
    }
  }
  if (z.byId("board-save")) {
    z.byId("board-save").addEventListener("click", function () {
      z.call("POST", "/api/games", z.state.text).then(report).catch(z.failed);
    });
  }

  /* ---- starting ---- */

  var chooser = z.byId("board-game");
  function showGame() {
    Array.prototype.forEach.call(document.querySelectorAll(".board-game-fields"), function (f) {
      var here = f.getAttribute("data-game") === chooser.value;
      f.hidden = !here;
      f.disabled = !here;
    });
  }
  chooser.addEventListener("change", showGame);
  showGame();
  z.byId("board-open").addEventListener("submit", function (event) {
    event.preventDefault();
    var file = z.byId("board-file").files[0];
    if (file) {
      var reader = new FileReader();
      reader.onload = function () { z.load(String(reader.result), null); };
      reader.readAsText(file);
    } else if (z.byId("board-paste").value.trim()) {
      z.load(z.byId("board-paste").value, null);
    }
  });
  if (z.state.text.trim()) { z.load(z.state.text, null); }
}());
