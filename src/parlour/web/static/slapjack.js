// The Slapjack page (ruling J10): flip with your deck, Flip or F; slap with the pile, SLAP or
// Space. The server is the referee: the page draws its views, tells its events, and sends
// only what the view's `legal` offers.
import { $ } from "./lib/dom.js";
import { keys } from "./lib/keys.js";
import { legal } from "./lib/legal.js";
import { play } from "./lib/play.js";
import { pageSpec } from "./lib/specs.js";
import { hintsOn } from "./lib/hints.js";
import { lead } from "./lib/guide.js";
import { keys as keysOr } from "./lib/touch.js";
import { news } from "./lib/status.js";
import { barFor } from "./slapjack/bar.js";
import { teller } from "./slapjack/story.js";
import { buildSeats, drawPile, drawSeats } from "./slapjack/table.js";

const say = news($("news"));
const game = play(pageSpec(), {
  welcome: () => buildSeats(game.table, game.names),
  seats() { buildSeats(game.table, game.names); render(); },
  events(events, view) {
    render();
    for (const event of events) tell(event, view);
  },
  newGame: () => say(" "), // the last game's news is no news of this one
  render,
  say,
  // the buttons first: Flip, SLAP; then what can be tapped instead of them
  controls: () => [$("actions"), $("pile"), $("my-deck")],
}, { tour: [
  { at: "#pile", title: "Slapjack in five steps", text: lead() },
  { at: "#my-deck", title: "Your turn: flip",
    text: keysOr("Tap your deck or Flip to turn your top card onto the pile.", "Click your deck, Flip, or press F to turn your top card onto the pile.") },
  { at: "#slap", title: "A Jack: slap it!",
    text: keysOr("Tap the pile or SLAP.", "Click the pile or SLAP, or press Space.") },
  { at: "#bar", title: "What to do next", text: "This bar always says." },
  { at: ".speed", title: "Your opponents",
    text: "Pick the computer's speed and the number of players here. The rules are below the table; “Show me how” at the top brings this tour back." },
] });
const { table, names } = game;
const tell = teller(table, names, say);

function render() {
  const view = table.view;
  document.body.dataset.state = !view ? "waiting"
    : view.winner === null ? "playing" : view.winner === table.seat ? "won" : "lost";
  drawPile(view, hintsOn());
  const canFlip = Boolean(legal(view, "flip"));
  $("flip").disabled = $("my-deck").disabled = !canFlip;
  $("slap").disabled = !legal(view, "slap");
  $("slap").classList.toggle("hot", Boolean(view && view.slappable && hintsOn()));
  if (!view) return;
  drawSeats(table, names);
  game.setBar(...barFor(table, names));
}

function flip() {
  const view = table.view;
  if (!view || table.seat === null || view.winner !== null) return;
  const action = legal(view, "flip");
  if (action) game.act(action);
  else if (view.players[table.seat].cards === 0) say("You have no cards to flip: wait for the next Jack.");
  else if (view.slappable) say("A Jack is on top: slap it!");
  else say(`It is ${names.name(view.turn)}'s turn to flip.`);
}

// The slap names the card we saw (`at`, in `legal`): if someone was faster, it costs nothing.
function slap() {
  const action = legal(table.view, "slap");
  if (action) game.act(action);
}

$("flip").addEventListener("click", flip);
$("my-deck").addEventListener("click", flip);
$("slap").addEventListener("click", slap);
$("pile").addEventListener("click", slap);
keys({ Space: slap, f: flip }, game.menuOpen);
game.start();
