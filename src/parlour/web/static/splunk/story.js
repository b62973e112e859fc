// What just happened at the Splunk table, told from the events: the news line, a label over
// the stack a call or slap settled, and the account of every call and slap.
import { capital, plural } from "../lib/dom.js";
import { cardName } from "../lib/cards.js";
import { flash, fly } from "../lib/motion.js";
import { hintsOn } from "../lib/hints.js";
import { sound } from "../lib/sound.js";
import { KIND_NAME, label, stackName, stackNodes, unlabel } from "./stacks.js";

const WIN_HOW = {
  last_play_stood: "the last card stood",
  no_card_for_base: "no card left for a new base",
  last_card_as_base: "the last card went down as a new base",
};

// `seatOf(seat)` is a seat's node; `book` the account; `say` the news line.
export function teller(table, names, { say, book, seatOf }) {
  const { name, lower, mine } = names;
  const me = () => table.seat;
  const takes = (seat) => (mine(seat) ? "you take" : `${name(seat)} takes`);
  const took = (seat, cards) => ({ b: `${name(seat)} took the ${plural(cards, "card")}.` });

  function start(first, view) {
    if (book.entries.some((entry) => entry.tone === "start")) return;
    book.add("start", [{ tag: "Start" }, { b: view && view.jokers ? "New game with jokers" : "New game" },
      `: ${names.verb(first, "play", "plays")} first.`]);
  }

  const TELL = {
    first: (e, view) => start(e.player, view),
    play(e) {
      const cards = stackNodes()[e.stack].querySelectorAll(".stack-pile > .slot");
      const card = cards[cards.length - 1];
      fly(card, seatOf(e.player).querySelector(".deck"), 180);
      sound("flip");
      unlabel(e.stack); // a new card on top: the label of an old call or slap is gone
      const where = `on ${stackName(e.stack)}`;
      if (e.kind === "joker" && hintsOn()) say(`${name(e.player)} played a joker ${where}!`, "jack");
      else if (e.kind === "joker") say(`${name(e.player)} played a joker ${where}.`);
      else if (e.kind && hintsOn()) say(`${name(e.player)} played the ${cardName(e.card)} ${where}: ${KIND_NAME[e.kind]}!`, "jack");
      else say(`${name(e.player)} played the ${cardName(e.card)} ${where}.`);
    },
    call(e) {
      const sum = [];
      e.cards.forEach((card, i) => { if (i) sum.push(" + "); sum.push({ card }); });
      book.add(e.over ? "call-right" : "call-wrong", [
        { tag: "Call" }, { b: `${name(e.player)} called ${lower(e.accused)} out` }, ` on ${stackName(e.stack)}. `,
        "The base was ", { card: e.base }, ": ", ...sum, " = ", { b: String(e.total) },
        e.over ? ": over 21, a right call. " : ": not over 21, a wrong call. ", took(e.taker, e.cards.length),
      ]);
      label(e.stack, `${e.total}: ${e.over ? "over 21!" : "not over"}`, e.over === mine(e.player) ? "good" : "bad");
      sound("take");
      say(`${name(e.player)} called ${lower(e.accused)} out: ${e.total}, ${e.over ? "over 21" : "not over 21"}. ` +
        `${capital(takes(e.taker))} the stack.`, me() === null ? "" : mine(e.taker) ? "bad" : "good");
      if (me() !== null) flash(seatOf(e.taker), "bad");
    },
    slap(e) {
      book.add("slap", [
        { tag: "Slap" }, { b: `${name(e.player)} slapped ${KIND_NAME[e.kind]}` },
        ` on ${stackName(e.stack)} first. `, took(e.taker, e.cards),
      ]);
      label(e.stack, `Slapped by ${lower(e.player)}!`, mine(e.player) ? "good" : "other");
      sound("slap");
      say(`${mine(e.player) ? "You were" : `${name(e.player)} was`} first: ${takes(e.taker)} ${plural(e.cards, "card")}.`,
        me() === null ? "" : mine(e.player) ? "good" : "bad");
      flash(seatOf(e.player), "good");
    },
    wrong_slap(e) {
      const why = e.reason; // the referee's words, written for people: no second derivation
      book.add("wrong", [
        { tag: "Wrong slap" }, { b: `Wrong slap by ${lower(e.player)}` }, ` on ${stackName(e.stack)} (${why}). `,
        took(e.taker, e.cards),
      ]);
      label(e.stack, "Wrong slap", "bad");
      sound("slap");
      say(`${name(e.player)} slapped ${stackName(e.stack)} wrongly (${why}): ${takes(e.taker)} it.`, "bad");
      flash(seatOf(e.player), "bad");
    },
    base(e) {
      if (e.reason !== "setup") book.addToLast([` ${name(e.player)} laid a new base on ${stackName(e.stack)}.`]);
    },
    slap_ignored(e) {
      if (mine(e.player)) say("Too late: that card was already dealt with.");
    },
    win(e) {
      const how = WIN_HOW[e.reason];
      book.add("win", [{ tag: "Win" }, { b: `${name(e.player)} won` }, how ? `: ${how}.` : "."]);
      if (me() !== null) sound(mine(e.player) ? "win" : "lose");
      if (mine(e.player)) say("You won the game!", "good");
      else say(`${name(e.player)} won the game.`, me() === null ? "" : "bad");
    },
  };

  return {
    tell: (event, view, before) => { if (TELL[event.type]) TELL[event.type](event, view, before); },
    // a game whose deal came before this connection gets its first line here
    start,
  };
}
