// A Slapjack step in the replay, drawn and told by the Slapjack page's own modules: the
// seats and the pile (slapjack/table.js), what happened (slapjack/story.js).
import { cardName } from "../lib/cards.js";
import { buildSeats, drawPile, drawSeats } from "../slapjack/table.js";
import { teller } from "../slapjack/story.js";
import { dealt } from "./reveal.js";
import { startReplay } from "../replay.js";

export function slapjackReplay(table, names) {
  let lines = [];
  const tell = teller(table, names, (text, tone) => { if (text.trim()) lines.push({ text, tone }); });
  // what the live page leaves to the pile itself: a card flipped, a slap too late
  const plain = {
    flip: (e) => `${names.name(e.player)} flipped the ${cardName(e.card)}.`,
    slap_ignored: (e) => `${names.name(e.player)} slapped ${e.reason === "empty" ? "an empty pile" : "too late"}: nothing happens.`,
    deal: (e) => `The deck is dealt: ${e.cards.join(", ")} cards.`,
  };
  return {
    build: () => buildSeats(table, names),
    reset() {},
    step(events, view, before, last) {
      lines = [];
      drawPile(table.view, true);
      drawSeats(table, names);
      if (!last) return [];
      for (const e of events) {
        const n = lines.length;
        tell(e);
        if (lines.length === n && plain[e.type]) lines.push({ text: plain[e.type](e), tone: "" });
      }
      return lines;
    },
    revealed: (record) => dealt(record, names),
  };
}

startReplay(slapjackReplay); // this module is the replay page's entry for slapjack
