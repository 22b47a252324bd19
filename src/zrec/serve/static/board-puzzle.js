/* Solving a puzzle on the recording board (/board?puzzle=N): once the person has played
   a move from the puzzle's position, the record is sent to POST /api/puzzle, which says
   whether that move is the solution's (the server compares; no rule is here), and
   gives the solution once found or asked for ("Show the solution"). A wrong move is
   undone with the board's Undo, to try again. */
(function () {
  "use strict";
  var z = window.zrecBoard;
  var box = document.getElementById("board-puzzle");
  if (!z || !box) { return; }
  var id = Number(box.getAttribute("data-puzzle"));
  var judged = "";  // the first move last judged: each is asked about once

  function say(text) { z.byId("board-puzzle-said").textContent = text; }

  function ask(reveal) {
    var body = { id: id, text: z.state.text, reveal: reveal };
    return z.call("POST", "/api/puzzle", JSON.stringify(body), "application/json")
      .then(function (answer) {
        if (answer.solved) {
          say("Solved: " + answer.move + " is the move. The solution: " + answer.solution);
        } else if (answer.solution) {
          say("The solution: " + answer.solution);
        } else {
          say(answer.move + " is not the move: Undo last move, and try again.");
        }
      }).catch(z.failed);
  }

  z.watch(function () {
    var rec = z.state.rec;
    var first = rec && rec.moves.length ? rec.moves[0].label : "";
    if (!first || first === judged) { return; }
    judged = first;
    ask(false);
  });
  z.byId("board-puzzle-reveal").addEventListener("click", function () { ask(true); });
}());
