// The Slapjack table: the other seats across it, ours below, and the pile in the middle.
import { $, make, plural } from "../lib/dom.js";
import { cardSVG } from "../lib/cards.js";
import { drawSeat, seatNode } from "../lib/card-seat.js";

// The other seats, clockwise from our left; a spectator has every seat across the table.
export function buildSeats(table, names) {
  const box = $("opponents");
  const n = table.seats.length;
  const first = table.seat === null ? 0 : table.seat + 1;
  const nodes = [];
  for (let k = 0; k < (table.seat === null ? n : n - 1); k++) {
    const node = seatNode((first + k) % n);
    node.querySelector(".name").textContent = names.label((first + k) % n);
    nodes.push(node);
  }
  box.replaceChildren(...nodes);
  box.dataset.count = String(nodes.length);
  $("my-seat").dataset.seat = String(table.seat);
  $("my-seat").hidden = table.seat === null;
}

export function seatOf(table, seat) {
  if (seat === table.seat) return $("my-seat");
  return $("opponents").querySelector(`.seat[data-seat="${seat}"]`);
}

export function drawSeats(table, names) {
  const view = table.view;
  const playing = view.winner === null;
  view.players.forEach((p, seat) => {
    const node = seatOf(table, seat);
    if (!node) return;
    let status = "";
    if (view.winner === seat) status = "Winner!";
    else if (p.out) status = "Out";
    else if (p.waiting) status = "Next Jack or out"; // the view's J7
    else if (view.turn === seat && playing) status = names.mine(seat) ? "Your turn" : "Flipping…";
    drawSeat(node, {
      name: names.mine(seat) ? undefined : names.label(seat), cards: p.cards, status,
      turn: view.turn === seat && playing, out: p.out, waiting: p.waiting,
      winner: view.winner === seat,
    });
  });
}

let shown; // the card on top as drawn: `${flips}:${card}`

// `hints`: a Jack on top glows.
export function drawPile(view, hints) {
  const pile = $("pile");
  const top = view && view.top !== null ? `${view.flips}:${view.top}` : null;
  if (!view || top !== shown) {
    shown = view ? top : undefined;
    // the button's name is what it shows, after what it does: "Slap the pile: Jack of Spades"
    const does = make("span", { class: "sr-only", text: "Slap the pile: " });
    if (top === null || !view) {
      pile.replaceChildren(does, make("span", { class: "pile-empty", text: view ? "Empty pile" : "Dealing…" }));
    } else {
      const box = make("span");
      box.innerHTML = cardSVG(view.top); // our own drawing: no text from outside
      pile.replaceChildren(does, ...box.childNodes);
      const card = pile.querySelector(".card-svg");
      if (card) card.style.rotate = `${((view.flips * 37) % 15) - 7}deg`;
    }
  }
  pile.dataset.flips = String(view ? view.flips : 0);
  pile.classList.toggle("jack", Boolean(view && view.slappable && hints));
  pile.classList.toggle("stacked", Boolean(view && view.pile > 1));
  $("pile-count").textContent = view && view.pile ? `${plural(view.pile, "card")} in the pile` : "";
}
