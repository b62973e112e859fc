// The Slabberjan table on the page: a seat for every player round a wooden table, ours at
// the bottom and our left neighbour next clockwise; below a readable tile size the seats
// fall back to a grid in the same order. The middle of the table holds the pot and the bag,
// and the reveal and what happened when there is room for them.
import { $, make } from "../lib/dom.js";
import { ringPoints } from "./ring-points.js";

let placed = { grid: true, centres: {} }; // where the seats are, for the swap arrows

export const seatOf = (seat) => $("seats").querySelector(`.sj-seat[data-seat="${seat}"]`);

export function buildSeats(table, names) {
  const nodes = table.seats.map((_, seat) => {
    // a screen reader hears a seat as words (seat.js: "Computer 3: 3 chips, the dealer"),
    // not as the signs drawn in it ("● 3", "D")
    const hide = { "aria-hidden": "true" };
    const node = make("div", { class: "sj-seat" + (names.mine(seat) ? " mine" : ""), "data-seat": seat, role: "group" },
      make("span", { class: "sj-dealer", title: "Dealer", hidden: true, text: "D", ...hide }),
      make("span", { class: "sj-mark", hidden: true, ...hide }),
      make("p", { class: "sj-name", ...hide }), make("div", { class: "sj-piece", ...hide }),
      make("p", { class: "sj-chips", ...hide }));
    return node;
  });
  $("seats").replaceChildren(...nodes);
  $("arrows").replaceChildren();
  $("ring").dataset.count = String(nodes.length);
  nameSeats(names);
  layout(table);
}

export function nameSeats(names) {
  for (const node of $("seats").children) {
    const label = names.label(Number(node.dataset.seat));
    node.querySelector(".sj-name").textContent = label;
    node.title = label;
  }
  fitNames();
}

// Every seat's whole name, readable: a name too wide for its tile is set smaller, down to
// 11 px, and only then takes a second line ("Computer 29" is never "Compute…").
function fitNames() {
  // the text's own width, to the fraction of a pixel (scrollWidth is rounded: a name a
  // fraction too wide would show its ellipsis)
  const range = document.createRange();
  const wide = (name) => {
    const tile = name.parentElement;
    const style = getComputedStyle(tile);
    const room = tile.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    range.selectNodeContents(name);
    return range.getBoundingClientRect().width > room - 0.5;
  };
  for (const name of $("seats").querySelectorAll(".sj-name")) {
    name.style.fontSize = "";
    name.classList.remove("two-lines");
    // on one line first, even in small tiles (whose names may wrap): a smaller name beats
    // a second line in a tile that has no height to spare
    Object.assign(name.style, { whiteSpace: "nowrap", display: "block" });
    let size = parseFloat(getComputedStyle(name).fontSize);
    while (wide(name) && size > 11) {
      size -= 0.5;
      name.style.fontSize = `${size}px`;
    }
    if (wide(name)) {
      Object.assign(name.style, { whiteSpace: "", display: "", fontSize: "" });
      name.classList.add("two-lines"); // at its own size: two lines of it read better
    }
  }
}

function place(node, box) {
  for (const [key, value] of Object.entries(box)) node.style[key] = value;
}

const px = (n) => `${n.toFixed(1)}px`;

// Sizes the tiles and places every seat: first a guess from the perimeter, then smaller
// until no two seats touch.
export function layout(table) {
  const n = table.seats.length;
  if (!n) return;
  const ring = $("ring");
  const W = ring.clientWidth;
  const bottom = table.seat === null ? 0 : table.seat;
  const order = Array.from({ length: n }, (_, k) => (bottom + k) % n);
  // a phone held sideways: our place is a column beside the table, which gets the height
  // left under the settings (the stylesheet's rule of the same media)
  const sideways = matchMedia("(orientation: landscape) and (max-height: 500px)").matches;
  const phone = W < 600 && !sideways;
  const p = n > 8 ? 5 : 3;
  const maxW = phone ? 96 : 150;
  // a crowded ring on a desktop: the bar goes in the middle of the table, where there is
  // room, so that the table and our buttons below it fit in the window
  const crowded = !phone && !sideways && n > 24;
  document.body.classList.toggle("sj-crowded", crowded);
  const barHome = crowded ? $("centre") : $("me").parentElement;
  if ($("bar").parentElement !== barHome) barHome.prepend($("bar"));
  // on a desktop the table, the bar and our buttons fit in the window together: Swap, Stand
  // and Draw are never below the fold (a phone scrolls, and keeps them in sight below)
  const top = ring.getBoundingClientRect().top + window.scrollY;
  const room = phone ? Infinity : sideways ? Math.max(180, window.innerHeight - top - 6)
    : Math.max(300, window.innerHeight - top - $("me").parentElement.offsetHeight - 12);
  const height = (th) => (phone ? Math.max(2 * th + 190, Math.min(W * 1.05, 460))
    : sideways ? room
      : Math.min(room, Math.max(2 * th + 250, Math.min(W * 0.56, n > 24 ? 700 : n > 12 ? 640 : 440))));
  const tileHeight = (tw) => (sideways ? (tw >= 84 ? 74 : 62)
    : tw >= 110 ? 112 : tw >= 84 ? (phone ? 86 : 96) : 76);
  let H = height(110);
  let tw = Math.max(40, Math.min(maxW, ((2 * (W + H) * (p > 3 ? 0.9 : 0.8)) / n) * 0.92));
  let th = Math.min(tileHeight(tw), tw * 1.1);
  let points = [];
  for (let pass = 0; pass < 12; pass++) {
    H = height(th);
    const fit = ringPoints(n, (W - tw) / 2, (H - th) / 2, tw, th, p);
    points = fit.points;
    if (fit.room >= 1.06 && (fit.room < 1.2 || tw >= maxW)) break;
    tw *= fit.room / 1.08;
    th = Math.min(tileHeight(tw), th * fit.room / 1.08);
  }
  const grid = tw < 64;
  ring.classList.toggle("grid", grid);
  if (grid && crowded) { // no ring after all: the bar goes back above our buttons
    document.body.classList.remove("sj-crowded");
    $("me").parentElement.prepend($("bar"));
  }
  document.body.classList.toggle("sj-many", grid);
  ring.dataset.size = tw >= 110 ? "large" : tw >= 84 ? "medium" : "small";
  ring.style.maxHeight = grid && sideways ? `${Math.round(room)}px` : "";
  // rows that scroll in their own box are reached by the keyboard too
  for (const [k, v] of Object.entries({ tabindex: "0", role: "region", "aria-label": "The seats" })) {
    if (grid && sideways) ring.setAttribute(k, v);
    else ring.removeAttribute(k);
  }
  if (grid) placeGrid(order);
  else placeRing(order, points, W, H, tw, th, p);
  fitNames();
}

// The middle of the table: in the ring, or, when the seats are rows that scroll (a phone or
// a phone held sideways at a big table), at the top of our place, which stays in sight: the
// pot, the bag, the round line, the reveal and the last lines of what happened (every
// announcement among them) are never off-screen or under it.
function centreIn(home) {
  if ($("centre").parentElement !== home) home.prepend($("centre"));
}

function placeGrid(order) {
  $("ring").style.height = "";
  centreIn($("me").parentElement);
  place($("centre"), { left: "", top: "", width: "", height: "" });
  order.forEach((seat, k) => {
    const node = seatOf(seat);
    place(node, { left: "", top: "", width: "", height: "", order: String(k) });
    node.dataset.side = "down";
  });
  placed = { grid: true, centres: {} };
  placeNews(true);
}

function placeRing(order, points, W, H, tw, th, p) {
  const ring = $("ring");
  if ($("centre").parentElement !== ring) ring.append($("centre"));
  ring.style.height = `${Math.round(H)}px`;
  ring.style.setProperty("--tw", px(tw));
  ring.style.setProperty("--th", px(th));
  ring.dataset.shape = p > 3 ? "square" : "round";
  const ax = (W - tw) / 2, by = (H - th) / 2;
  const centres = {};
  const boxes = [];
  order.forEach((seat, k) => {
    const [x, y] = points[k];
    const cx = W / 2 + x, cy = H / 2 + y;
    centres[seat] = [cx, cy];
    boxes.push([x - tw / 2, y - th / 2, x + tw / 2, y + th / 2]);
    const node = seatOf(seat);
    place(node, { order: "", left: px(cx - tw / 2), top: px(cy - th / 2), width: px(tw), height: px(th) });
    // speech bubbles open towards the middle of the table
    node.dataset.side = Math.abs(y) / by >= Math.abs(x) / ax ? (y > 0 ? "up" : "down") : (x > 0 ? "left" : "right");
  });
  const [cw, ch] = middle(boxes, W, H, document.body.classList.contains("sj-crowded") ? 340 : 260);
  place($("centre"), { left: px((W - cw) / 2), top: px((H - ch) / 2), width: `${cw}px`, height: px(ch) });
  $("arrows").setAttribute("viewBox", `0 0 ${W} ${Math.round(H)}`);
  centres.bag = [W / 2, H / 2];
  placed = { grid: false, centres };
  placeNews(cw >= 300 && ch >= 180);
}

// The largest box round the middle of the table that no seat covers (up to 560 x `most`).
function middle(boxes, W, H, most) {
  let best = [0, 0];
  for (let cw = Math.min(W - 16, 560); cw >= 140; cw -= 10) {
    let ch = Math.min(H - 16, most);
    for (const [x0, y0, x1, y1] of boxes) {
      if (x1 > -cw / 2 - 6 && x0 < cw / 2 + 6) {
        const gap = y0 >= 0 ? y0 : y1 <= 0 ? -y1 : 0;
        ch = Math.min(ch, 2 * gap - 12);
      }
    }
    if (ch >= 80 && cw * Math.min(ch, 220) > best[0] * Math.min(best[1], 220)) best = [cw, ch];
  }
  return best;
}

// The reveal and what happened go in the middle of the table when there is room, else just
// below the bar.
function placeNews(inside) {
  const home = inside ? $("centre") : $("outside");
  if ($("summary").parentElement !== home) home.append($("summary"), $("log"));
}

// A swap drawn as an arrow from seat to seat (or from the bag); `mine` when it is ours.
export function arrow(from, to, mine) {
  const p = placed.centres;
  if (placed.grid || !p[from] || !p[to]) return;
  const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
  const [x1, y1] = p[from];
  const [x2, y2] = p[to];
  for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) line.setAttribute(k, v);
  line.setAttribute("class", mine ? "mine" : "");
  const arrows = $("arrows");
  arrows.append(line);
  while (arrows.childNodes.length > 8) arrows.firstChild.remove();
}

export const clearArrows = () => $("arrows").replaceChildren();
