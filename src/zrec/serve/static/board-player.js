/* The recording board's opponent (/board): a person plays one of zrec's study players
   (random, greedy, mcts:N, alphabeta:D). Whenever the board stands at the end of a
   line and a seat other than the person's is to move, the page asks POST /api/reply
   for the player's move (chosen, and its dice rolled, by the server's engines) and
   plays it as a clicked move, through POST /api/edit. No rule of any game is written
   here: the seats come from /api/position, the moves from the server. */
(function () {
  "use strict";
  var z = window.zrecBoard;
  if (!z) { return; }
  var playing = null;  // {player, seat, seed, last} while a game against a player goes on
  var asking = false;
  var seats = "";
  var game = 0;  // bumped at every start and stop: a reply to an earlier game is dropped

  function status(text) { z.byId("board-opponent-status").textContent = text; }

  function stop(said) {
    playing = null;
    game += 1;
    z.byId("board-opponent-stop").disabled = true;
    z.byId("board-opponent-start").disabled = false;
    status(said || "");
  }

  function fillSeats(pos) {
    var chooser = z.byId("board-opponent-seat");
    if (pos.seats.join("\n") === seats) { return; }
    if (playing && seats) { stop("Another game is on the board: press Start to play it."); }
    seats = pos.seats.join("\n");
    var kept = chooser.value;
    z.clear(chooser);
    pos.seats.forEach(function (seat) {
      var option = z.make("option", null, seat);
      option.value = seat;
      chooser.appendChild(option);
    });
    if (pos.seats.indexOf(kept) >= 0) { chooser.value = kept; }
  }

  function ask(pos) {
    var mine = game;
    asking = true;
    status(playing.player + " is thinking (" + pos.to_move + ")…");
    var body = { text: z.state.text, at: pos.at, player: playing.player };
    if (playing.seed !== null) { body.seed = playing.seed; }
    z.call("POST", "/api/reply", JSON.stringify(body), "application/json").then(function (reply) {
      asking = false;
      if (!playing || mine !== game) { return null; }
      status(playing.player + " played " + reply.move + " (" + reply.seat + ")");
      return z.edit("play", { move: reply.move }, reply.at);
    }).catch(function (error) {
      asking = false;
      if (mine !== game) { return; }
      stop();
      z.failed(error);
    });
  }

  /* The player moves at the end of a line (not while the person steps back through
     the record) when its seat is to move. A line's end older than the last one seen
     is a move undone: the game against the player stops there, so that Undo is not
     answered by the same move at once; Start goes on from that position. */
  function turn(pos) {
    if (!playing || asking || z.state.clicks.length) { return; }
    if (!pos.to_move) {
      stop("The game is over" + (pos.outcome ? ": " + pos.outcome.result : "") + ".");
      return;
    }
    if (z.state.end[pos.at] !== pos.at) { return; }
    if (pos.at < playing.last) {
      stop("Stopped after a move was undone: press Start to play on from here.");
      return;
    }
    playing.last = pos.at;
    if (pos.to_move !== playing.seat) { ask(pos); }
  }
  z.watch(function (pos) { fillSeats(pos); turn(pos); });

  z.byId("board-opponent").addEventListener("submit", function (event) {
    event.preventDefault();
    var player = z.byId("board-opponent-player").value.trim();
    var seed = z.byId("board-opponent-seed").value.trim();
    if (!player || !z.state.pos) { return; }
    if (seed && !/^[0-9]{1,15}$/.test(seed)) {
      z.problem("the seed is a whole number of at most 15 digits (0, 1, 2...), or none");
      return;
    }
    game += 1;
    playing = { player: player, seat: z.byId("board-opponent-seat").value,
                seed: seed ? Number(seed) : null, last: -1 };
    z.byId("board-opponent-start").disabled = true;
    z.byId("board-opponent-stop").disabled = false;
    z.problem("");
    status("You play " + playing.seat + " against " + player + ".");
    turn(z.state.pos);
  });
  z.byId("board-opponent-stop").addEventListener("click", function () { stop(); });
}());
