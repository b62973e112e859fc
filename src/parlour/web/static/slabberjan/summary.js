// The reveal at the end of a round, in the middle of the table: who paid a chip and why
// (the view's `reveal.pays`, ruling S10), who went out and who won (from the events, when
// this page saw them happen).
import { $, make } from "../lib/dom.js";
import { pieceSVG } from "../lib/pieces.js";

// `round`: `seen` (the reveal happened while this page watched), `outs`, `spared`.
export function drawSummary(table, names, round) {
  const box = $("summary");
  const view = table.view;
  const reveal = view && view.reveal;
  box.hidden = !reveal;
  if (!reveal) return;
  const { name, mine, verb } = names;
  const items = [];
  reveal.pays.forEach((reason, seat) => {
    if (!reason) return;
    const piece = reveal.pieces[seat];
    const out = round.outs.includes(seat);
    const what = out ? verb(seat, "are out", "is out") : round.spared ? verb(seat, "would pay", "would pay")
      : verb(seat, "pay", "pays");
    const item = make("li", { class: out ? "pays out" : "pays" });
    item.innerHTML = piece ? pieceSVG(piece, { label: false }) : ""; // our own drawing
    item.append(make("span", { text: what + (piece ? ` (${piece}${reason === "fool" ? "" : ", the weakest"})` : "") }));
    items.push(item);
  });
  for (const seat of round.outs) {
    if (!reveal.pays[seat]) items.push(make("li", { class: "pays out", text: `${name(seat)} ${mine(seat) ? "are" : "is"} out` }));
  }
  if (round.spared) items.push(make("li", { text: "Nobody is out: all would have been" }));
  if (view.winner !== null) items.push(make("li", { class: "win", text: `${verb(view.winner, "win", "wins")} the game!` }));
  box.replaceChildren(
    make("p", { class: "sj-summary-title", text: round.seen ? `Round ${reveal.round}: the reveal` : "Last reveal" }),
    make("ul", {}, ...items));
}
