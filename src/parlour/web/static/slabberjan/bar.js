// What the Slabberjan bar says to do next, from the view alone: [main line, hint, tone].
import { plural } from "../lib/dom.js";
import { legal } from "../lib/legal.js";
import { a } from "../lib/pieces.js";
import { keys } from "../lib/touch.js";

// How many players move before us this round: our place in the view's `to_play` (the seats
// still to play, the dealer last, ruling S3); null when our turn is over or never comes.
function turnsUntil(view, me) {
  if (me === null || view.players[me].out) return null;
  const k = view.to_play.indexOf(me);
  return k < 0 ? null : k;
}

function ourTurn(view, me, names) {
  const left = names.name(view.players[me].left);
  if (legal(view, "draw")) {
    return [view.bird ? "The bird stopped the swaps: you deal, draw from the bag or stand"
      : "You are the dealer: draw from the bag or stand", keys("Draw or Stand", "Draw (D) · Stand (T or Enter)"), "go"];
  }
  if (legal(view, "swap") && legal(view, "stand")) {
    return [`Your turn: swap with ${left}, or stand`, keys("Swap or Stand · free choice", "Swap (S) · Stand (T or Enter) · free choice"), "go"];
  }
  if (legal(view, "swap")) return [`Your turn: swap with ${left}`, keys("Below the inn you must try: Swap", "Below the inn you must try: Swap (S)"), "go"];
  if (view.matador) {
    return [`Your turn: you hold ${a(view.piece)}, a matador: stand`, keys("Stand", "Stand, T or Enter"), "go"];
  }
  return ["Your turn: stand", view.bag === 0 ? keys("The bag is empty: Stand", "The bag is empty: Stand, T or Enter")
    : keys("Stand", "Stand, T or Enter"), "go"];
}

export function barFor(table, names) {
  const view = table.view;
  const me = table.seat;
  const { name, mine } = names;
  if (view.winner !== null) {
    if (mine(view.winner)) {
      return ["You won!", table.friends ? "You take the pot" : "You take the pot. Press New game to play again", "good"];
    }
    return [`${name(view.winner)} won.`, me === null ? "The game is over" : table.friends ? "" : "Press New game to try again",
      me === null ? "" : "bad"];
  }
  if (me === null) return [`Watching: ${name(view.turn)}'s turn`, view.bird ? "The bird stopped the swaps" : "", ""];
  if (view.players[me].out) {
    return ["You are out.", table.friends ? "Watch the end of the game" : "Watch the end, or press New game", "bad"];
  }
  if (view.turn === me && view.legal.length) return ourTurn(view, me, names);
  const k = turnsUntil(view, me);
  const dealing = view.turn === view.dealer;
  const who = dealing ? `${name(view.turn)} (the dealer)` : name(view.turn);
  const hint = k === null ? "You have had your turn this round"
    : k === 1 ? "You are next" : `Your turn comes after ${plural(k, "more player")}`;
  return [dealing ? `${who}: draw or stand` : `${who}'s turn`, hint, ""];
}
