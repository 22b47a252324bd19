// zrec serve, an event's page: picking a board of the round in the form that records a
// result fills the round (5.2: board 2 of round 5) and the players of its seats, in
// seat order, from the board's stored pairing (the option's data-players, one a line).
// Nothing is decided here: the server checks the record as any import does.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const board = document.getElementById("result-board");
  if (!board) return;
  const form = board.form;
  const seats = Array.from(form.querySelectorAll("input[list=players]"));
  board.addEventListener("change", () => {
    const chosen = board.options[board.selectedIndex];
    if (!chosen.value) return;
    form.elements.namedItem("round").value = chosen.value;
    const players = chosen.dataset.players.split("\n");
    seats.forEach((input, i) => { input.value = players[i] || ""; });
  });
});
