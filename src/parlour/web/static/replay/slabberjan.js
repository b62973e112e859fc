// A Slabberjan step in the replay, drawn and told by the Slabberjan page's own modules: the
// ring of seats (slabberjan/ring.js, seat.js), the reveal (summary.js) and what happened
// (story.js, whose log lines become the step's lines). A round's marks and reveal depend
// on its earlier steps: a jump tells the round again from its deal.
import { $, make } from "../lib/dom.js";
import { knowMatadors, pieceSVG } from "../lib/pieces.js";
import { unbubbleAll } from "../slabberjan/bubbles.js";
import { clearLog } from "../slabberjan/log.js";
import { buildSeats, clearArrows, layout, seatOf } from "../slabberjan/ring.js";
import { drawSeat } from "../slabberjan/seat.js";
import { teller } from "../slabberjan/story.js";
import { drawSummary } from "../slabberjan/summary.js";
import { startReplay } from "../replay.js";

export function slabberjanReplay(table, names) {
  const round = { showReveal: false, seen: false, marks: {}, outs: [], spared: false, undone: 0 };
  const tell = teller(table, names, round);

  function draw() {
    const view = table.view;
    if (!view) return;
    view.players.forEach((p, seat) => {
      const node = seatOf(seat);
      if (node) drawSeat(node, seat, table, round);
    });
    drawSummary(table, names, round);
    $("pot").textContent = String(view.pot);
    $("bag").textContent = String(view.bag);
    $("round").textContent = view.winner !== null ? "Game over"
      : `Round ${view.round} · ${names.verb(view.dealer, "deal", "deals")}` +
        (view.bird ? " · the bird: no more swaps" : "") + (view.free_choice ? " · free choice" : "");
    $("ring").classList.toggle("reveal", round.showReveal);
  }

  let resizing = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { layout(table); draw(); }, 80);
  });

  return {
    // `spec`: the game's, from the server; it names the matadors (no spec on this page)
    build(spec) {
      knowMatadors(spec);
      buildSeats(table, names);
    },
    // where to start telling for step `n`: its round's deal
    from(steps, n) {
      for (let k = n; k > 0; k--) if (steps[k].events.some((e) => e.type === "deal")) return k;
      return 0;
    },
    reset() {
      Object.assign(round, { showReveal: false, seen: false, marks: {}, outs: [], spared: false, undone: 0 });
      unbubbleAll();
      clearArrows();
      clearLog();
    },
    step(events, view, before, last) {
      if (last) clearLog(); // the log holds this step's lines only
      for (const e of events) tell(e, view, before);
      draw();
      if (!last) return [];
      return [...$("log").children].reverse().map((li) => ({ text: li.textContent, tone: li.className }));
    },
    // every round's reveal, every piece face up
    revealed(record, steps) {
      const rows = [];
      for (const s of steps) {
        for (const e of s.events) {
          if (e.type !== "reveal" || !Array.isArray(e.pieces)) continue;
          const row = make("li", {}, make("b", { text: `Round ${s.view.reveal ? s.view.reveal.round : rows.length + 1}` }));
          e.pieces.forEach((piece, seat) => {
            if (!piece) return;
            const one = make("span", { class: "revealed-piece" });
            one.innerHTML = pieceSVG(piece, { label: false }); // our own drawing of one of the 21 kinds
            one.append(make("span", { text: names.name(seat) }));
            row.append(one);
          });
          rows.push(row);
        }
      }
      return make("div", {}, make("p", { text: "Every round's reveal: each piece as it was shown." }),
        make("ol", { class: "revealed-rounds" }, ...rows));
    },
  };
}

startReplay(slabberjanReplay); // this module is the replay page's entry for slabberjan
