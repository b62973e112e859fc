// A sense of progress in a long Splunk game: the cards left in each hand over the plays,
// drawn as two lines (ours gold, the other's light), the figures now beside them, and the
// same in words for a screen reader. The page keeps what it saw of this table in the tab's
// storage, so a reload keeps the lines; a game joined late starts them from then.
import { $, make, plural } from "../lib/dom.js";
import { session } from "../lib/storage.js";

const W = 280, H = 64, MOST = 400; // the drawing's size; points kept (thinned beyond)
const SVG = "http://www.w3.org/2000/svg";

export function progress(table, names) {
  let id = null;
  let points = []; // [plays, cards of seat 0, cards of seat 1]
  const key = () => `parlour.splunk.progress.${id}`;

  function line(seat, top) {
    const last = points[points.length - 1][0] || 1;
    const xy = points.map((p) => `${((p[0] / last) * (W - 4) + 2).toFixed(1)},${(H - 2 - (p[seat + 1] / top) * (H - 6)).toFixed(1)}`);
    const node = document.createElementNS(SVG, "polyline");
    node.setAttribute("points", xy.join(" "));
    node.setAttribute("class", seat === (table.seat === null ? 0 : table.seat) ? "mine" : "theirs");
    return node;
  }

  function draw(view) {
    const box = $("progress");
    if (!box) return;
    box.hidden = points.length < 2;
    if (box.hidden) return;
    const top = Math.max(1, ...points.map((p) => Math.max(p[1], p[2])));
    const svg = $("progress-lines");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.replaceChildren(line(0, top), line(1, top));
    const us = table.seat === null ? 0 : table.seat;
    $("progress-key").replaceChildren(make("i", { class: "mine" }), names.name(us),
      make("i", { class: "theirs" }), names.name(1 - us));
    const words = [us, 1 - us].map((s) => `${names.name(s)} ${plural(view.players[s].cards, "card")}`);
    $("progress-now").textContent = `After ${plural(view.plays, "play")}: ${words.join(", ")}`;
    svg.setAttribute("aria-label", `Cards in hand over ${plural(view.plays, "play")}: ` +
      [us, 1 - us].map((s) => `${names.name(s)} from ${points[0][s + 1]} to ${view.players[s].cards}`).join(", "));
  }

  return {
    // after every view: one point more when a hand changed
    add(view) {
      if (!view || view.players.length !== 2) return;
      if (table.id !== id) {
        id = table.id;
        try { points = JSON.parse(session(key()) || "[]"); } catch (e) { points = []; }
      }
      const now = [view.plays, view.players[0].cards, view.players[1].cards];
      const last = points[points.length - 1];
      if (last && now[0] < last[0]) points = []; // a new game at this table
      if (!last || last[1] !== now[1] || last[2] !== now[2] || now[0] - last[0] >= 10) {
        points.push(now);
        if (points.length > MOST) points = points.filter((_, i) => i % 2 === 0 || i === points.length - 1);
        if (id) session(key(), JSON.stringify(points));
      }
      draw(view);
    },
    forget() {
      if (id) session(key(), null);
      points = [];
      id = null;
      const box = $("progress");
      if (box) box.hidden = true;
    },
  };
}
