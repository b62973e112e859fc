// The connection line of a race game's page (docs/protocol.md, "Races at network latency"):
// the server measures each seat's delay and settles slap races by reaction time, up to a cap;
// the page shows the player their own delay ("Connection: 45 ms"), says when it is past the
// cap (races can no longer be made fair), and at a table with friends each seat's too.
// Names reach the page as text only (lib/dom.js).

import { $, make } from "./dom.js";

const CAP_MS = 175; // parlour.live.lag.CAP_ONE_WAY

let mySeat = null;
let names = [];

// Every welcome says which seat is ours and who sits where.
export function noteWelcome(m) {
  mySeat = m.seat;
  names = (m.seats || []).map((s) => s.name);
}

function line(seat) {
  const mine = seat.seat === mySeat;
  const who = mine ? "Connection" : names[seat.seat] || `Seat ${seat.seat + 1}`;
  const words = [`${who}: ${seat.ms} ms`];
  if (!seat.fair) {
    words.push(mine
      ? ` - slower than ${CAP_MS} ms, so slap races can no longer be made fair`
      : ` - too slow for fair slap races`);
  }
  return make("span", { class: seat.fair ? "lag" : "lag slow", text: words.join("") });
}

// {type: "connection", seats: [{seat, ms, fair}]}: our own seat first, then the others.
export function showConnection(m) {
  const node = $("connection");
  if (!node) return;
  const seats = [...(m.seats || [])].sort((a, b) => (b.seat === mySeat) - (a.seat === mySeat) || a.seat - b.seat);
  const parts = [];
  for (const seat of seats) {
    if (parts.length) parts.push(" · ");
    parts.push(line(seat));
  }
  node.replaceChildren(...parts);
  node.hidden = parts.length === 0;
  node.title = "Your delay to the server, one way. Slaps are timed by reaction, allowing for "
    + `each player's delay up to ${CAP_MS} ms.`;
}
