/* The recording board's broadcast (/board): a logged-in arbiter's record followed
   live on /live. Broadcast sends the record to /api/live/broadcast; after that, each
   time the record changes it is sent again to /api/live/{id}/record, where the
   server plays the new moves of its main line with the engines and ends the game
   when the record has a result (then stores it like an import). No rule of any
   game is written here. */
(function () {
  "use strict";
  var z = window.zrecBoard;
  var start = z && z.byId("board-broadcast");
  if (!start) { return; }
  var id = null, sent = null, over = false;
  var said = z.byId("board-broadcast-state");
  function show(state) {
    z.clear(said);
    var a = z.make("a", null, "live game #" + id);
    a.href = "/live/" + id;
    said.appendChild(document.createTextNode("Broadcast as "));
    said.appendChild(a);
    said.appendChild(document.createTextNode(state ? " · " + state.ply + " moves" : ""));
    if (state && state.game_id) {
      over = true;
      var g = z.make("a", null, "game #" + state.game_id);
      g.href = "/games/" + state.game_id;
      said.appendChild(document.createTextNode(" · over, stored as "));
      said.appendChild(g);
    }
  }
  // one record on its way at a time, and at most four a second (the server takes five
  // moves or actions a second from a user): a change made meanwhile is sent after, the
  // newest record only; a refusal for going too fast (429) is sent again a second later
  var busy = false, last = 0, GAP = 250;
  function push() {
    if (id === null || over || busy || z.state.text === sent) { return; }
    var early = last + GAP - Date.now();
    if (early > 0) { busy = true; setTimeout(function () { busy = false; push(); }, early); return; }
    var text = z.state.text;
    busy = true;
    last = Date.now();
    z.call("POST", "/api/live/" + id + "/record", JSON.stringify({ record: text }), "application/json")
      .then(function (state) {
        busy = false;
        sent = text;
        show(state);
        push();
      }, function (e) {
        busy = false;
        if (e && e.code === "too-many-requests") { setTimeout(push, 1000); return; }
        sent = null;
        z.failed(e);
      });
  }
  start.addEventListener("click", function () {
    var text = z.state.text;
    z.call("POST", "/api/live/broadcast", JSON.stringify({ record: text }), "application/json")
      .then(function (made) {
        id = made.id;
        sent = text;
        start.hidden = true;
        show(null);
        push();
      }, z.failed);
  });
  z.watch(push);
}());
