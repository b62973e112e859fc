// Our own place below the table: our piece, what it means, our chips, and what we learned
// in our own swaps this round (the view's `learned`).
import { $, make, plural } from "../lib/dom.js";
import { a, backSVG, pieceSVG, rank } from "../lib/pieces.js";

// `matador`: the view's word that our piece is one (the rules', S4).
function meaning(piece, matador) {
  if (matador) return ", a matador: you never swap it";
  if (piece === "fool") return ", the weakest piece";
  return rank(piece) <= 3 ? ", below zero" : "";
}

// `undone`: how many of the facts learned were undone by a cat.
export function drawMe(table, names, undone) {
  const view = table.view;
  const me = table.seat;
  $("me").classList.toggle("watching", me === null);
  const myPiece = $("my-piece");
  if (me === null || !view) {
    myPiece.innerHTML = backSVG(); // our own drawing
    delete myPiece.dataset.key;
    // a spectator at a table; before any table (the offer of a waiting game), nothing
    $("my-what").textContent = me === null && table.id !== null
      ? "Watching: every piece stays hidden until the reveal" : " ";
    $("my-chips").textContent = " ";
    $("learned").replaceChildren();
    return;
  }
  const p = view.players[me];
  const piece = view.piece;
  if (myPiece.dataset.key !== (piece || "none")) {
    myPiece.dataset.key = piece || "none";
    myPiece.innerHTML = piece ? pieceSVG(piece) : backSVG(); // our own drawing
  }
  $("my-what").textContent = p.out ? "You are out of the game" : piece ? `Your piece: ${a(piece)}${meaning(piece, view.matador)}` : " ";
  $("my-chips").textContent = plural(p.chips, "chip") +
    (view.dealer === me && !p.out && view.winner === null ? " · you deal this round" : "");
  $("learned").replaceChildren(...view.learned.map((fact, i) => make("li", {
    text: (fact.with === "bag" ? `From the bag: you set aside ${a(fact.gave)} and drew ${a(fact.got)}`
      : `With ${names.name(fact.with)}: you gave ${a(fact.gave)}, got ${a(fact.got)}`) +
      (i < undone ? " (undone by the cat)" : ""),
  })));
}
