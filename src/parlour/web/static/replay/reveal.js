// The end of a card game's replay: the deal that nobody saw, each seat's cards as the
// server says the game dealt them (the record's `dealt`).
import { make } from "../lib/dom.js";
import { cardName, cardText, isCard, isRed } from "../lib/cards.js";

const card = (c) => make("span", { class: `replay-card${isRed(c) ? " red" : ""}`, title: cardName(c), text: cardText(c) });

export function dealt(record, names) {
  const hands = Array.isArray(record.dealt) ? record.dealt : [];
  if (!hands.length) return make("p", { text: "The deal is not in the record." });
  const seats = hands.map((hand, seat) => make("li", {},
    make("b", { text: names.name(seat) }), ": ", ...hand.filter(isCard).map(card)));
  return make("div", {}, make("p", { text: "The deal, each seat's cards from its top card down:" }),
    make("ul", { class: "revealed-deal" }, ...seats));
}
