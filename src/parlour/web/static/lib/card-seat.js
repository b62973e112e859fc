// A seat at a card game (Slapjack, Splunk): a face-down deck whose shadow grows with its
// cards, the seat's name (a label, not a paragraph: it is no heading either), its count and
// one status word.
import { make, plural } from "./dom.js";

// A seat across the table; ours is in the page already.
export function seatNode(seat) {
  return make("div", { class: "seat", "data-seat": seat },
    make("div", { class: "deck small", "aria-hidden": "true" }),
    make("div", { class: "seat-info" },
      make("div", { class: "name" }), make("p", { class: "count" }), make("p", { class: "status" })));
}

// show: {name, cards, status, turn, out, waiting, winner}; a seat that is out has no count.
export function drawSeat(node, show) {
  if (show.name !== undefined) node.querySelector(".name").textContent = show.name;
  node.querySelector(".count").textContent = show.out ? "" : plural(show.cards, "card");
  node.querySelector(".status").textContent = show.status;
  node.classList.toggle("turn", Boolean(show.turn));
  node.classList.toggle("out", Boolean(show.out));
  node.classList.toggle("waiting", Boolean(show.waiting));
  node.classList.toggle("winner", Boolean(show.winner));
  const deck = node.querySelector(".deck");
  deck.classList.toggle("empty", show.cards === 0);
  deck.style.setProperty("--depth", String(Math.min(6, Math.ceil(show.cards / 5))));
}
