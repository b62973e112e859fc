// What just happened at the Slapjack table, told from the events: the news line, a badge
// over the pile for every slap, and the seat that slapped lit up.
import { $ } from "../lib/dom.js";
import { cardName } from "../lib/cards.js";
import { flash, fly, replay } from "../lib/motion.js";
import { seatOf } from "./table.js";

let badgeTimer = 0;

function badge(text, tone) {
  const node = $("pile-badge");
  node.textContent = text;
  node.className = `badge ${tone}`;
  node.hidden = false;
  clearTimeout(badgeTimer);
  badgeTimer = setTimeout(() => { node.hidden = true; }, 1400);
}

const isJack = (card) => card[0] === "J";

// tell(event) for the page: `say` is its news line.
export function teller(table, names, say) {
  const { name, lower, mine } = names;
  const TELL = {
    flip(e) {
      fly($("pile").querySelector(".card-svg"), seatOf(table, e.player), 170);
      if (isJack(e.card)) say(`A Jack from ${lower(e.player)}!`, "jack");
      else if (!mine(e.player) && !$("news").matches(".good, .bad")) say(" "); // old news goes
    },
    take(e) {
      if (e.reason !== "jack") {
        say(`Nobody has a card left to flip: ${mine(e.player) ? "you take" : `${name(e.player)} takes`} the pile.`);
        return;
      }
      badge(`✋ ${name(e.player)} slapped the Jack!`, mine(e.player) ? "good" : "other");
      flash(seatOf(table, e.player), "good");
      say(mine(e.player) ? `You were first and took ${e.cards} cards.`
        : `${name(e.player)} slapped the Jack first and took ${e.cards} cards.`, mine(e.player) ? "good" : "");
    },
    wrong_slap(e) {
      badge(`✋ Wrong slap: ${name(e.player)}`, "bad");
      flash(seatOf(table, e.player), "bad");
      replay($("pile"), "shake");
      const what = e.penalty === "out" ? "with no card to give: out of the game"
        : e.to === null ? "a card goes under the pile" : `a card goes to ${lower(e.to)}`;
      say(`${name(e.player)} slapped the ${cardName(e.card)}: not a Jack, ${what}.`, "bad");
    },
    slap_ignored(e) {
      if (mine(e.player)) {
        say(e.reason === "empty" ? "The pile is empty: nothing to slap." : "Too late: that card is gone.");
      }
    },
    out(e) {
      say(mine(e.player) ? "You are out." : `${name(e.player)} is out.`, mine(e.player) ? "bad" : "");
    },
    win(e) {
      say(mine(e.player) ? "You won the game!" : `${name(e.player)} won the game.`, mine(e.player) ? "good" : "bad");
    },
  };
  return (event) => { if (TELL[event.type]) TELL[event.type](event); };
}
