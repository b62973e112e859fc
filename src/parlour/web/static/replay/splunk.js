// A Splunk step in the replay, drawn and told by the Splunk page's own modules: the four
// stacks (splunk/stacks.js), the seats (lib/card-seat.js) and what happened (splunk/story.js,
// whose account entries of calls and slaps become the step's lines).
import { $ } from "../lib/dom.js";
import { drawSeat } from "../lib/card-seat.js";
import { buildStacks, drawStacks, stackName, unlabel } from "../splunk/stacks.js";
import { teller } from "../splunk/story.js";
import { dealt } from "./reveal.js";
import { partNode } from "../splunk/account.js";
import { startReplay } from "../replay.js";

export function splunkReplay(table, names) {
  let said = [];
  let entries = [];
  const book = {
    entries: [],
    add(tone, parts) {
      const entry = { tone, parts };
      book.entries.push(entry);
      entries.push(entry);
    },
    addToLast(parts) {
      const entry = book.entries[book.entries.length - 1];
      if (entry) entry.parts.push(...parts);
    },
  };
  // what the live page tells only the seat it concerns
  const plain = {
    slap_ignored: (e) => `${names.name(e.player)} slapped ${stackName(e.stack)} too late: nothing happens.`,
  };
  const seatOf = (seat) => (seat === 0 ? $("my-seat") : $("their-seat"));
  const story = teller(table, names, {
    say: (text, tone) => { if (text.trim()) said.push({ text, tone }); }, book, seatOf,
  });

  function drawSeats(view) {
    for (const seat of [0, 1]) {
      const playing = view.winner === null;
      let status = "";
      if (view.winner === seat) status = "Winner!";
      else if (playing && view.players[seat].cards === 0) status = "Last card down";
      else if (playing && view.turn === seat) status = "Playing…";
      drawSeat(seatOf(seat), { name: names.label(seat), cards: view.players[seat].cards, status,
        turn: playing && view.turn === seat, winner: view.winner === seat });
    }
  }

  return {
    build: () => buildStacks(),
    reset() {
      book.entries = [];
      for (const i of [0, 1, 2, 3]) unlabel(i);
    },
    step(events, view, before, last) {
      said = [];
      entries = [];
      drawStacks(table);
      drawSeats(view);
      if (last) {
        for (const e of events) {
          const n = said.length + entries.length;
          story.tell(e, view, before);
          if (said.length + entries.length === n && plain[e.type]) said.push({ text: plain[e.type](e), tone: "" });
        }
      }
      // the account's entry (with its cards) for a call, a slap or the win, else the news
      return entries.length ? entries : said;
    },
    revealed: (record) => dealt(record, names),
    partNode, // the account's lines come in parts (cards among the words)
  };
}

startReplay(splunkReplay); // this module is the replay page's entry for splunk
