// Speech bubbles: what a matador's holder says out loud, at their seat, for a few seconds.
// A bubble opens towards the middle of the table, or to another side of its seat where that
// one would leave the screen or cover the pot, the bag or another bubble; one that fits no
// side is kept inside the screen's width.
import { make } from "../lib/dom.js";
import { pieceSVG } from "../lib/pieces.js";
import { seatOf } from "./ring.js";

const SHOWN_MS = 6000;
const SIDES = ["up", "down", "left", "right"];
const bubbles = {};

const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// What a bubble must not cover: the counters in the middle of the table, the other bubbles.
function kept(except) {
  const boxes = [...document.querySelectorAll(".sj-pot, .sj-bag")].map((n) => n.getBoundingClientRect());
  for (const b of Object.values(bubbles)) if (b.node !== except) boxes.push(b.node.getBoundingClientRect());
  return boxes;
}

function place(b, first) {
  const width = document.documentElement.clientWidth;
  const scrollTop = -window.scrollY;
  let best = null;
  for (const side of [first, ...SIDES.filter((s) => s !== first)]) {
    b.className = `sj-bubble ${side}`;
    b.style.marginLeft = "";
    const r = b.getBoundingClientRect();
    const out = Math.max(0, 4 - r.left) + Math.max(0, r.right - (width - 4)) + Math.max(0, scrollTop - r.top);
    const covers = kept(b).some((k) => meets(r, k));
    const cost = out + (covers ? 1000 : 0);
    if (!best || cost < best.cost) best = { side, cost, r };
    if (cost === 0) return;
  }
  b.className = `sj-bubble ${best.side}`;
  const r = b.getBoundingClientRect();
  const dx = r.left < 4 ? 4 - r.left : r.right > width - 4 ? width - 4 - r.right : 0;
  if (dx) b.style.marginLeft = `${Math.round(dx)}px`;
}

export function bubble(seat, text, piece) {
  const node = seatOf(seat);
  if (!node) return;
  unbubble(seat);
  const b = make("div", { class: `sj-bubble ${node.dataset.side || "up"}`, role: "note" });
  b.innerHTML = piece ? pieceSVG(piece, { label: false }) : ""; // our own drawing
  b.append(make("span", { text }));
  node.append(b);
  bubbles[seat] = { node: b, side: node.dataset.side || "up", timer: setTimeout(() => unbubble(seat), SHOWN_MS) };
  place(b, bubbles[seat].side);
}

// Each bubble placed again, once the table is drawn anew (its middle may have moved).
export function placeBubbles() {
  for (const b of Object.values(bubbles)) place(b.node, b.side);
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
