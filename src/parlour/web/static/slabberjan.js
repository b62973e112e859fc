// The Slabberjan page: 2 to 42 seats round one table, Swap / S, Stand / T / Enter and
// Draw / D. The server is the referee: the page draws its views (events only add what just
// happened: bubbles, arrows, the reveal) and sends only what the view's `legal` offers.
import { $, plural } from "./lib/dom.js";
import { link } from "./lib/address.js";
import { sentence } from "./lib/errors.js";
import { keys } from "./lib/keys.js";
import { legal } from "./lib/legal.js";
import { play } from "./lib/play.js";
import { a } from "./lib/pieces.js";
import { pageSpec } from "./lib/specs.js";
import { barFor } from "./slabberjan/bar.js";
import { placeBubbles, unbubbleAll } from "./slabberjan/bubbles.js";
import { clearLog, logIsEmpty, note } from "./slabberjan/log.js";
import { drawMe } from "./slabberjan/me.js";
import { buildSeats, clearArrows, layout, nameSeats, seatOf } from "./slabberjan/ring.js";
import { drawSeat } from "./slabberjan/seat.js";
import { teller } from "./slabberjan/story.js";
import { drawSummary } from "./slabberjan/summary.js";
import { lead } from "./lib/guide.js";
import { keys as keysOr } from "./lib/touch.js";

// The round as this page follows it: whether the reveal shows, the seats' marks, who went
// out and whether all were spared at it, and how many swaps the cat undid.
const round = { showReveal: false, seen: false, marks: {}, outs: [], spared: false, undone: 0 };
function newRound() {
  Object.assign(round, { showReveal: false, seen: false, marks: {}, outs: [], spared: false, undone: 0 });
  unbubbleAll();
  clearArrows();
}
const game = play(pageSpec(), {
  welcome() {
    newRound();
    buildSeats(table, names);
  },
  seats() { nameSeats(names); },
  state(view) {
    newRound();
    if (logIsEmpty() && view.winner === null) {
      note(`Round ${view.round}: ${names.verb(view.dealer, "deal", "deals")}.`);
      if (view.piece) note(`You drew ${a(view.piece)}.`, "mine");
    }
    render();
  },
  events(events, view, before) {
    for (const event of events) tell(event, view, before);
    render();
  },
  newGame() {
    newRound();
    clearLog();
  },
  error(m) {
    if (link.watch && m.code !== "refused" && m.code !== "rate_limited") {
      game.setBar("This table cannot be watched.", sentence(m), "bad");
    }
    return false; // and the log says it too
  },
  render,
  say: note,
  controls: () => [$("actions")],
}, { tour: [
  { at: "#centre", title: "Slabberjan in four steps", text: lead() },
  { at: "#my-piece", title: "Your piece",
    text: "Nobody else sees it. What it means, your chips and what you learned in your swaps are written beside it." },
  { at: "#swap", title: "Your turn",
    text: keysOr("Swap with your left neighbour (the next seat clockwise), Stand, or, as the dealer, Draw from the bag: only what the rules allow you now is lit.",
      "Swap (S) with your left neighbour, the next seat clockwise, Stand (T or Enter), or, as the dealer, Draw (D) from the bag: only what the rules allow you now is lit.") },
  { at: "#log", title: "What happened",
    text: "Every swap, every matador's answer (in a speech bubble at its seat) and every reveal is told here. The rules are below the table; “Show me how” brings this tour back." },
] });
const { table, names } = game;
const tell = teller(table, names, round);

function render() {
  const view = table.view;
  const watching = table.seat === null && table.id !== null;
  document.body.dataset.state = table.waiting || !view ? "waiting"
    : view.winner !== null ? (names.mine(view.winner) ? "won" : table.seat === null ? "over" : "lost")
      : watching ? "watching" : "playing";
  $("watching").hidden = !watching;
  $("wins").hidden = table.friends;
  // our move is sent: the buttons rest until the table answers
  for (const type of ["swap", "stand", "draw"]) $(type).disabled = game.acted() || !legal(view, type);
  drawSummary(table, names, round);
  drawMe(table, names, round.undone);
  if (!view) {
    $("pot").textContent = "0";
    $("bag").textContent = "–";
    $("round").textContent = " ";
    return;
  }
  view.players.forEach((p, seat) => {
    const node = seatOf(seat);
    if (node) drawSeat(node, seat, table, round);
  });
  $("pot").textContent = String(view.pot);
  $("bag").textContent = String(view.bag);
  $("bag").parentElement.title = `The bag: ${plural(view.bag, "piece")} nobody drew` +
    (view.set_aside ? `; ${view.set_aside} set aside this round` : "");
  $("round").textContent = view.winner !== null ? "Game over"
    : `Round ${view.round} · ${names.verb(view.dealer, "deal", "deals")}` +
      (view.bird ? " · the bird: no more swaps" : "") + (view.free_choice ? " · free choice" : "");
  $("ring").classList.toggle("reveal", round.showReveal);
  game.setBar(...barFor(table, names));
  placeBubbles();
}

function act(type) {
  const view = table.view;
  if (!view || table.seat === null || view.winner !== null || game.acted()) return;
  const action = legal(view, type);
  if (action) {
    game.act(action);
    render();
    return;
  }
  const open = view.legal.map((x) => x.type);
  if (view.turn !== table.seat) note(`Not your turn: it is ${names.name(view.turn)}'s.`);
  else note(`You cannot ${type} now: ${open.length ? `you may ${open.join(" or ")}` : "wait"}.`);
}

for (const type of ["swap", "stand", "draw"]) $(type).addEventListener("click", () => act(type));
keys({ s: () => act("swap"), t: () => act("stand"), Enter: () => act("stand"), d: () => act("draw") },
  game.menuOpen);

let resizing = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => { layout(table); render(); }, 80);
});

game.start();
