// The end of a card game's replay: the deal that nobody saw, from the record (records.md:
// Slapjack and Splunk deal one card at a time from seat 0 upwards, the first card dealt to
// a seat being its top card).
import { make } from "../lib/dom.js";
import { cardName, cardText, isCard, isRed } from "../lib/cards.js";

const card = (c) => make("span", { class: `replay-card${isRed(c) ? " red" : ""}`, title: cardName(c), text: cardText(c) });

export function dealt(record, names) {
  const deck = Array.isArray(record.decks) && Array.isArray(record.decks[0]) ? record.decks[0].filter(isCard) : [];
  if (!deck.length) return make("p", { text: "The deal is not in the record." });
  const n = record.players;
  const seats = Array.from({ length: n }, (_, seat) => make("li", {},
    make("b", { text: names.name(seat) }), ": ",
    ...deck.filter((_, i) => i % n === seat).map(card)));
  return make("div", {}, make("p", { text: "The deal, each seat's cards from its top card down:" }),
    make("ul", { class: "revealed-deal" }, ...seats));
}
