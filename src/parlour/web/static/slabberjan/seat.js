// One seat at the Slabberjan table: its piece (hidden, ours, an announced matador, or every
// piece at the reveal), its chips, the dealer's button and what the last reveal cost it.
import { plural } from "../lib/dom.js";
import { a, backSVG, pieceSVG } from "../lib/pieces.js";

// `round` is the page's: whether the reveal shows (`showReveal`) and the seats' marks.
export function drawSeat(node, seat, table, round) {
  const view = table.view;
  const p = view.players[seat];
  const revealed = round.showReveal && view.reveal ? view.reveal.pieces[seat] : null;
  let piece = null;
  if (revealed) piece = revealed;
  else if (seat === table.seat && view.piece) piece = view.piece;
  else if (p.shown) piece = p.shown;
  const face = piece ? "up" : p.out ? "none" : "back";
  const key = `${face}:${piece}`;
  const box = node.querySelector(".sj-piece");
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    // our own drawing of one of the 21 kinds: no text from outside
    box.innerHTML = face === "up" ? pieceSVG(piece, { label: node.closest("[data-size=large]") !== null })
      : face === "back" ? backSVG({ label: false }) : "";
  }
  const over = view.winner !== null;
  const chips = node.querySelector(".sj-chips");
  chips.textContent = p.out ? "Out" : `● ${p.chips}`;
  chips.title = p.out ? "Out of the game" : plural(p.chips, "chip");
  node.querySelector(".sj-dealer").hidden = view.dealer !== seat || p.out || over;
  const mark = node.querySelector(".sj-mark");
  const m = round.marks[seat];
  mark.hidden = !m;
  mark.textContent = m === "out" ? "Out" : m === "pay" ? "−1" : "";
  mark.className = `sj-mark ${m || ""}`;
  const dealer = !node.querySelector(".sj-dealer").hidden;
  node.setAttribute("aria-label", [
    `${node.title}: ${p.out ? "out" : plural(p.chips, "chip")}`,
    dealer ? "the dealer" : "", piece && seat !== table.seat ? `holds ${a(piece)}` : "",
    m === "out" ? "out at this reveal" : m === "pay" ? "pays a chip" : "",
    view.turn === seat && !over ? "to play" : "", view.winner === seat ? "the winner" : "",
  ].filter(Boolean).join(", "));
  node.classList.toggle("turn", view.turn === seat && !over);
  node.classList.toggle("out", p.out);
  node.classList.toggle("winner", view.winner === seat);
  node.classList.toggle("revealed", face === "up" && round.showReveal);
  node.classList.toggle("pays", Boolean(round.showReveal && view.reveal && view.reveal.pays[seat]));
}
