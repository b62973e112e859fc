// The Splunk page: a stack (click, tap or 1 to 4) takes your blind card, Call or C calls out
// the other player's last card, SLAP or Space slaps the stack just played on. The server is
// the referee: the page draws its views, tells its events, and sends only what the view's
// `legal` offers.
import { $ } from "./lib/dom.js";
import { drawSeat } from "./lib/card-seat.js";
import { sentence } from "./lib/errors.js";
import { keys } from "./lib/keys.js";
import { legal } from "./lib/legal.js";
import { play } from "./lib/play.js";
import { levelTitle, pageSpec } from "./lib/specs.js";
import { hintsOn } from "./lib/hints.js";
import { lead } from "./lib/guide.js";
import { keys as keysOr } from "./lib/touch.js";
import { news } from "./lib/status.js";
import { account } from "./splunk/account.js";
import { progress } from "./splunk/progress.js";
import { barFor } from "./splunk/bar.js";
import { buildStacks, drawStacks, stackNodes } from "./splunk/stacks.js";
import { teller } from "./splunk/story.js";

const spec = pageSpec();
const say = news($("news"));
const book = account();
const jokers = (s) => Boolean(s.options.jokers);

const game = play(spec, {
  welcome(m) { book.open(m.table); },
  seats: () => render(),
  state(view) {
    document.body.dataset.table = table.id || "";
    render();
    if (!book.entries.length && view.plays === 0 && view.turn !== null) story.start(view.turn, view);
  },
  events(events, view, before) {
    render();
    for (const event of events) story.tell(event, view, before);
  },
  newGame() {
    book.forget();
    hands.forget();
    say(" "); // the last game's news is no news of this one
  },
  error(m) {
    if (m.about !== "watch" && m.about !== "resume") return false;
    game.setBar(m.about === "watch" ? "This table cannot be watched" : "This seat cannot be taken", sentence(m), "bad");
    return true;
  },
  render,
  say,
  controls: () => [$("actions"), $("stacks")],
}, {
  wins: {
    key: (s) => `${s.level}-${jokers(s) ? "jokers" : "plain"}`,
    where: (s) => `${levelTitle(spec, s.level)}, ${jokers(s) ? "with jokers" : "no jokers"}`,
  },
  tour: [
    { at: "#stacks", title: "Splunk in five steps", text: lead() },
    { at: "#my-seat", title: "Your turn: choose a stack",
      text: keysOr("Your cards, face down. On your turn, tap a stack first: only then is your top card turned face up on it.",
        "Your cards, face down. On your turn, choose a stack first (click it or press 1 to 4): only then is your top card turned face up on it.") },
    { at: "#call", title: "Call out",
      text: keysOr("Call, right after the other player's card, while that card can be called.", "Call or C, right after the other player's card, while that card can be called.") },
    { at: "#slap", title: "Slap",
      text: keysOr("SLAP, or tap a stack that glows and says “Slap!”.", "SLAP or Space, or click a stack that glows and says “Slap!”.") },
    { at: "#account", title: "Every call and slap, told",
      text: "This panel tells who called or slapped and who took the stack. The rules are below the table; “Show me how” brings this tour back." },
  ],
});
const { table, names } = game;

// Ours at the bottom; a spectator sees seat 0 there.
const bottom = () => (table.seat === null ? 0 : table.seat);
const seatOf = (seat) => (seat === bottom() ? $("my-seat") : $("their-seat"));
const story = teller(table, names, { say, book, seatOf });
const hands = progress(table, names);

function drawSeats(view) {
  for (const seat of [bottom(), 1 - bottom()]) {
    const playing = view.winner === null;
    let status = "";
    if (view.winner === seat) status = "Winner!";
    else if (playing && view.players[seat].cards === 0) status = "Last card down";
    else if (playing && view.turn === seat) status = names.mine(seat) ? "Your turn" : "Playing…";
    const node = seatOf(seat);
    node.dataset.seat = String(seat);
    drawSeat(node, { name: names.label(seat), cards: view.players[seat].cards, status,
      turn: playing && view.turn === seat, winner: view.winner === seat });
  }
}

function render() {
  const view = table.view;
  document.body.dataset.state = !view ? "waiting" : view.winner === null ? "playing"
    : table.seat === null ? "over" : view.winner === table.seat ? "won" : "lost";
  drawStacks(table);
  $("call").disabled = !legal(view, "call");
  $("slap").disabled = !(legal(view, "slap") && view.last_play !== null);
  $("slap").classList.toggle("hot", Boolean(view && hintsOn() && legal(view, "slap") && view.stacks.some((s) => s.slap)));
  $("call").classList.toggle("ready", !$("call").disabled);
  if (!view) return;
  drawSeats(view);
  hands.add(view);
  game.setBar(...barFor(table, names));
}

// ---- what our seat does ---------------------------------------------------------------------

const playing = () => table.view && table.seat !== null && table.view.winner === null;

function playOn(stack) {
  if (!playing()) return;
  const action = legal(table.view, "play", { stack });
  if (action) game.act(action);
  else say(`It is ${names.name(table.view.turn)}'s turn to play.`);
}

function call() {
  if (!playing()) return;
  const action = legal(table.view, "call");
  if (action) game.act(action);
  else if (table.view.last_play === null) say("Nothing to call out yet.");
  else say("No call is open: you can call out only the other player's card, before you play.");
}

// The slap names the play we saw (`at`, in `legal`): if someone was faster, it costs nothing.
// Space and SLAP slap the stack with a slap open on it, else the stack just played on.
function slap(stack) {
  if (!playing()) return;
  const view = table.view;
  const hot = view.stacks.findIndex((s) => s.slap !== null);
  const target = stack !== undefined ? stack : hot >= 0 ? hot : view.last_play && view.last_play.stack;
  if (target === null || target === undefined) {
    say("Nothing has been played yet: nothing to slap.");
    return;
  }
  const action = legal(view, "slap", { stack: target });
  if (action) game.act(action);
}

// A stack with a slap open on it is slapped by a click; any other stack is only ever played
// on, so a click can never be a wrong slap.
stackNodes().forEach((node, i) => node.addEventListener("click", () => {
  if (table.view && table.view.stacks[i].slap !== null) slap(i);
  else playOn(i);
}));
$("call").addEventListener("click", call);
$("slap").addEventListener("click", () => slap());
keys({ Space: () => slap(), c: call, 1: () => playOn(0), 2: () => playOn(1), 3: () => playOn(2), 4: () => playOn(3) });

buildStacks();
game.start();
