// What just happened at the Slapjack table, told from the events: the news line, a badge
// over the pile for every slap, and the seat that slapped lit up.
import { $, make, plural } from "../lib/dom.js";
import { cardName } from "../lib/cards.js";
import { speak } from "../lib/speak.js";
import { hintsOn } from "../lib/hints.js";
import { sound } from "../lib/sound.js";
import { flash, fly, replay } from "../lib/motion.js";
import { seatOf } from "./table.js";

let badgeTimer = 0;

// A slapping hand, drawn by our own code: no emoji font needed.
const HAND = '<svg class="hand" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" ' +
  'd="M7 11V5.5a1.5 1.5 0 0 1 3 0V10h.5V3.5a1.5 1.5 0 0 1 3 0V10h.5V4.5a1.5 1.5 0 0 1 3 0V11h.5V7.5a1.5 1.5 0 0 1 3 0V15' +
  'c0 4-3 7-7 7h-1c-2.5 0-4.2-1.2-5.4-3L3.3 14a1.5 1.5 0 0 1 2.4-1.8L7 14z"/></svg>';

function badge(text, tone) {
  const node = $("pile-badge");
  node.innerHTML = HAND; // our own drawing
  node.append(make("span", { text }));
  node.className = `badge ${tone}`;
  node.hidden = false;
  clearTimeout(badgeTimer);
  badgeTimer = setTimeout(() => { node.hidden = true; }, 1400);
}

const isJack = (card) => card[0] === "J";

// tell(event, view) for the page: `say` is its news line.
export function teller(table, names, say) {
  const { name, lower, mine, verb } = names;
  let taken = null; // the last pile taken with a Jack: who, and at which flip
  const TELL = {
    flip(e) {
      fly($("pile").querySelector(".card-svg"), seatOf(table, e.player), 170);
      sound("flip");
      if (isJack(e.card) && hintsOn()) say(`A Jack from ${lower(e.player)}!`, "jack");
      else {
        speak(`${verb(e.player, "flip", "flips")} the ${cardName(e.card)}.`);
        if (!mine(e.player) && !$("news").matches(".good, .bad")) $("news").textContent = " "; // old news goes
      }
    },
    take(e, view) {
      taken = e.reason === "jack" ? { player: e.player, at: view ? view.flips : null } : null;
      if (e.reason !== "jack") {
        say(`Nobody has a card left to flip: ${mine(e.player) ? "you take" : `${name(e.player)} takes`} the pile.`);
        return;
      }
      badge(`${name(e.player)} slapped the Jack!`, mine(e.player) ? "good" : "other");
      sound(mine(e.player) ? "take" : "slap");
      flash(seatOf(table, e.player), "good");
      say(mine(e.player) ? `You were first and took ${plural(e.cards, "card")}.`
        : `${name(e.player)} slapped the Jack first and took ${plural(e.cards, "card")}.`, mine(e.player) ? "good" : "");
    },
    wrong_slap(e) {
      badge(`Wrong slap: ${name(e.player)}`, "bad");
      sound("slap");
      flash(seatOf(table, e.player), "bad");
      replay($("pile"), "shake");
      const what = e.penalty === "out" ? "with no card to give: out of the game"
        : e.to === null ? "a card goes under the pile" : `a card goes to ${lower(e.to)}`;
      say(`${name(e.player)} slapped the ${cardName(e.card)}: not a Jack, ${what}.`, "bad");
    },
    // a slap at the Jack someone took a moment before finds the pile empty: too late
    slap_ignored(e) {
      if (!mine(e.player)) return;
      if (e.reason === "empty" && taken && taken.at === e.at && !mine(taken.player)) {
        say(`Too late: ${name(taken.player)} took that Jack first.`);
      } else {
        say(e.reason === "empty" ? "The pile is empty: nothing to slap." : "Too late: that card is gone.");
      }
    },
    out(e) {
      say(mine(e.player) ? "You are out." : `${name(e.player)} is out.`, mine(e.player) ? "bad" : "");
    },
    win(e) {
      if (table.seat !== null) sound(mine(e.player) ? "win" : "lose");
      say(mine(e.player) ? "You won the game!" : `${name(e.player)} won the game.`, mine(e.player) ? "good" : "bad");
    },
  };
  return (event, view) => { if (TELL[event.type]) TELL[event.type](event, view); };
}
