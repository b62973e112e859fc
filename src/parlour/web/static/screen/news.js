// What the big screen says happened: a speech bubble at the seat that spoke (a matador's
// words, a slap), the latest news in large type in the middle, and the last few lines
// under it. Every text is set as text: names come from people.
import { $, make } from "../lib/dom.js";
import { seatNode } from "./ring.js";

const LINES = 5; // lines of the log kept on screen
const bubbles = new Map(); // seat -> its bubble

const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// Puts `bubble` on the inner side of its seat, inside the screen, clear of the other bubbles
// (moved further in, a step at a time, while it meets one).
function place(bubble, seat) {
  const node = seatNode(seat);
  if (!node) return;
  const layer = $("screen-bubbles").getBoundingClientRect();
  const at = node.getBoundingClientRect();
  const side = node.dataset.side;
  const size = bubble.getBoundingClientRect();
  const gap = 10;
  const others = [...bubbles.values()].filter((b) => b !== bubble).map((b) => b.getBoundingClientRect());
  for (let step = 0; step < 6; step += 1) {
    const push = step * (side === "left" || side === "right" ? size.width : size.height) * 0.55;
    let x = at.left + at.width / 2 - size.width / 2;
    let y = at.top + at.height / 2 - size.height / 2;
    if (side === "top") y = at.bottom + gap + push;
    else if (side === "bottom") y = at.top - gap - size.height - push;
    else if (side === "left") x = at.right + gap + push;
    else x = at.left - gap - size.width - push;
    x = Math.max(layer.left + 8, Math.min(x, layer.right - 8 - size.width));
    y = Math.max(layer.top + 8, Math.min(y, layer.bottom - 8 - size.height));
    bubble.style.left = `${x - layer.left}px`;
    bubble.style.top = `${y - layer.top}px`;
    const box = { left: x, top: y, right: x + size.width, bottom: y + size.height };
    if (!others.some((o) => meets(box, o))) return;
  }
}

// A bubble at `seat` saying `text` (a tone: "matador", "bad", "good"), until clearBubbles.
export function bubble(seat, text, tone = "") {
  unbubble(seat);
  const node = seatNode(seat);
  if (!node) return;
  const b = make("p", { class: `screen-bubble ${tone}`, "data-seat": seat, "data-side": node.dataset.side, text });
  $("screen-bubbles").append(b);
  bubbles.set(seat, b);
  place(b, seat);
  node.classList.add("speaking");
}

export function unbubble(seat) {
  const b = bubbles.get(seat);
  if (b) b.remove();
  bubbles.delete(seat);
  const node = seatNode(seat);
  if (node) node.classList.remove("speaking");
}

export function clearBubbles() {
  for (const seat of [...bubbles.keys()]) unbubble(seat);
}

// Each bubble placed again (the screen changed size).
export function placeBubbles() {
  const kept = [...bubbles.entries()];
  for (const [seat, b] of kept) { bubbles.delete(seat); b.style.left = "0px"; }
  for (const [seat, b] of kept) { bubbles.set(seat, b); place(b, seat); }
}

// The news in large type, and a line in the log.
export function news(text, tone = "") {
  $("screen-news").textContent = text;
  $("screen-news").className = `screen-news ${tone}`;
  note(text, tone);
}

// A line in the log only (what matters less).
export function note(text, tone = "") {
  const log = $("screen-log");
  log.append(make("li", { class: tone, text }));
  while (log.children.length > LINES) log.firstElementChild.remove();
}

export function clearNews() {
  $("screen-news").textContent = "";
  $("screen-log").replaceChildren();
}

// Someone won: a bubble at their seat, and the news.
export function won(seat, text) {
  bubble(seat, "Winner!", "good");
  news(text, "good");
}

// A slap that was wrong: a bubble at the seat, and the news.
export function wrongSlap(seat, text) {
  bubble(seat, "Wrong slap!", "bad");
  news(text, "bad");
}
