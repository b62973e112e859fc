// Speech bubbles: what a matador's holder says out loud, at their seat, for a few seconds.
import { make } from "../lib/dom.js";
import { pieceSVG } from "../lib/pieces.js";
import { seatOf } from "./ring.js";

const SHOWN_MS = 6000;
const bubbles = {};

export function bubble(seat, text, piece) {
  const node = seatOf(seat);
  if (!node) return;
  unbubble(seat);
  const b = make("div", { class: `sj-bubble ${node.dataset.side || "up"}`, role: "note" });
  b.innerHTML = piece ? pieceSVG(piece, { label: false }) : ""; // our own drawing
  b.append(make("span", { text }));
  node.append(b);
  bubbles[seat] = { node: b, timer: setTimeout(() => unbubble(seat), SHOWN_MS) };
}

export function unbubble(seat) {
  const b = bubbles[seat];
  if (!b) return;
  clearTimeout(b.timer);
  b.node.remove();
  delete bubbles[seat];
}

// The announcements of the round before are old news once the next round moves.
export const unbubbleAll = () => Object.keys(bubbles).forEach((seat) => unbubble(Number(seat)));
