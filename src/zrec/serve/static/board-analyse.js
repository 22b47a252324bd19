/* The recording board's "Analyse this game" (/board): the record is sent to
   POST /api/analyse with the player chosen (or none: the game's), the server judges
   every move with a search player and answers the record with its analysis written in
   (marks, comments, best lines, a summary), which the board then shows in place of its
   own record, at the start. No rule of any game is here, nor any judging. */
(function () {
  "use strict";
  var z = window.zrecBoard;
  if (!z) { return; }
  var form = z.byId("board-analyse");
  if (!form) { return; }

  function status(text) { z.byId("board-analyse-status").textContent = text; }

  // the record as it was before the last analysis, and that analysis's record: asked
  // again on the analysed record, the board sends the record as it was written (the
  // server refuses a record analysed already)
  var written = null, shown = null;

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!z.state.text) { return; }
    var player = z.byId("board-analyse-player").value.trim();
    var text = z.state.text === shown && written !== null ? written : z.state.text;
    var body = { text: text };
    if (player) { body.player = player; }
    var start = z.byId("board-analyse-start");
    start.disabled = true;
    z.problem("");
    status("Analysing…");
    z.call("POST", "/api/analyse", JSON.stringify(body), "application/json").then(function (done) {
      start.disabled = false;
      status("Analysed by " + done.player + ": " + done.summary.map(function (s) {
        return s.seat + " " + s.accuracy.toFixed(1) + "% (" + ["?!", "?", "??"].map(function (m) {
          return m + " " + s.marks[m];
        }).join(", ") + ")";
      }).join("; ") + ".");
      return z.load(done.text, 0).then(function () {
        written = text;
        shown = z.state.text;  // (as the board holds it)
      });
    }).catch(function (error) {
      start.disabled = false;
      status("");
      z.failed(error);
    });
  });
}());
