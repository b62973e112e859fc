// The seats of the big screen, round the edge of the whole screen: seat 0 at the top left,
// then clockwise. The seats share the edge, so 42 seats fill a TV's four sides and 2 sit
// facing each other at the top and the bottom; the middle is left to the table itself (the
// pot, the pile or the stacks, and the news).
import { make } from "../lib/dom.js";

// A seat's box: as wide as the edge allows with a little air between, at most MAX px and
// nearly as high (a name of two lines, the chips and a note); the type inside scales with
// it (screen.css reads --seat-w).
const MAX = 340;
const AIR = 1.03;

// How many seats of width `w` (height `h`) fit on each side: the top and bottom rows run
// the whole width, corners included; the sides, between them.
const fits = (w, h, width, height) => {
  const row = Math.floor(width / (w * AIR));
  const column = Math.max(0, Math.floor((height - 2 * h) / (h * AIR)));
  return [row, column, row, column];
};

// Where each of `n` seats goes in a `width` x `height` box: {x, y} of its middle and the side
// of the screen it is on, and the size of every seat {w, h}. The seats share the sides in
// proportion to their length (largest remainders), clockwise from the top left.
export function ringPlaces(n, width, height) {
  let w = Math.min(MAX, width / 3);
  let h = Math.min(w * 0.95, height / 6);
  while (w > 40 && fits(w, h, width, height).reduce((a, b) => a + b) < n) {
    w -= 2;
    h = Math.min(w * 0.95, height / 6);
  }
  const room = fits(w, h, width, height);
  const lengths = [width, height - 2 * h, width, height - 2 * h];
  const total = lengths.reduce((a, b) => a + b);
  const share = lengths.map((l) => (n * l) / total);
  const count = share.map((x, i) => Math.min(room[i], Math.floor(x)));
  const order = [0, 1, 2, 3].sort((a, b) => (share[b] - Math.floor(share[b])) - (share[a] - Math.floor(share[a])));
  for (let left = n - count.reduce((a, b) => a + b), k = 0; left > 0 && k < 40; k += 1) {
    const side = order[k % 4];
    if (count[side] < room[side]) { count[side] += 1; left -= 1; }
  }
  const places = [];
  const across = (i, c) => ((i + 0.5) * width) / c;
  const down = (i, c) => h + ((i + 0.5) * (height - 2 * h)) / c;
  for (let i = 0; i < count[0]; i += 1) places.push({ x: across(i, count[0]), y: h / 2, side: "top" });
  for (let i = 0; i < count[1]; i += 1) places.push({ x: width - w / 2, y: down(i, count[1]), side: "right" });
  for (let i = 0; i < count[2]; i += 1) places.push({ x: width - across(i, count[2]), y: height - h / 2, side: "bottom" });
  for (let i = 0; i < count[3]; i += 1) places.push({ x: w / 2, y: height - down(i, count[3]), side: "left" });
  return { places, w, h, sides: count[1] + count[3] > 0 };
}

// The seats' list items, made once per table (their contents: drawSeats).
export function buildRing(list, n) {
  list.replaceChildren(...Array.from({ length: n }, (_, seat) =>
    make("li", { class: "screen-seat", "data-seat": seat },
      make("span", { class: "seat-name" }),
      make("span", { class: "seat-line" }),
      make("span", { class: "seat-note" }))));
  placeRing(list);
}

// Puts the seats in their places for the screen's size now (and the middle inside them).
export function placeRing(list) {
  const box = list.parentElement.getBoundingClientRect();
  const seats = [...list.children];
  const { places, w, h, sides } = ringPlaces(seats.length, box.width, box.height);
  const root = list.parentElement.style;
  root.setProperty("--seat-w", `${w}px`);
  root.setProperty("--seat-h", `${h}px`);
  // with no seat at the sides (a few seats face each other), the middle takes the width
  root.setProperty("--side-w", `${sides ? w : 0}px`);
  list.parentElement.dataset.sides = sides ? "some" : "none";
  seats.forEach((node, seat) => {
    const p = places[seat];
    node.style.left = `${p.x - w / 2}px`;
    node.style.top = `${p.y - h / 2}px`;
    node.dataset.side = p.side;
  });
}

export const seatNode = (seat) => document.querySelector(`.screen-seat[data-seat="${seat}"]`);
