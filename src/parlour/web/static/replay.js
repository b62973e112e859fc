// The replay page (/games/<id>): a finished game step by step, each step as a spectator saw
// it (GET /games/<id>/steps.json, 500 steps an answer), drawn and told by the game's own page
// modules, and everything revealed at the end (the record, GET /games/<id>.json). The page's
// entry is the game's replay/<game>.js, which hands its drawing to startReplay: this module
// names no game. Back and forth with the buttons, the slider or the keys (arrows,
// Home and End, Page Up and Down by ten, Space plays and pauses); the address says the step
// (#step=N), so a link copied opens at that step.
import { $, make } from "./lib/dom.js";
import { hintsAlways } from "./lib/hints.js";
import { speakNot } from "./lib/speak.js";
import { seatNames } from "./lib/names.js";
import { history as gamesPlayed } from "./lib/ledger.js";
import { allSpecs } from "./lib/specs.js";

const PAGE = 500; // steps an answer holds at most
const PACE = 900; // ms a step shows while playing

hintsAlways(); // a replay shows every slap that was open, whatever the viewer chose to play with
speakNot(); // the story below is read out as it is told: the tellers must not say it again
const root = $("replay");
const id = root.dataset.table;
const table = { seat: null, seats: [], id, view: null, friends: true, watching: true, waiting: false };
const names = seatNames(table);
let game = null; // the game's drawing and telling (startReplay)

const steps = []; // every step loaded so far, by number
let total = 0;
let record = null;
let at = -1; // the step drawn
let wanted = null; // a step asked for before it was loaded
let playing = 0;

const slider = $("step-slider");
const status = (text) => { $("replay-status").textContent = text; };

async function json(url) {
  const response = await fetch(url);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status}`);
  return body;
}

const stepOfAddress = () => {
  const found = /^#step=(\d+)$/.exec(location.hash);
  return found ? Number(found[1]) : null;
};

function lineNode(line) {
  // good and bad news are ours or not: a spectator's lines are told plainly
  const tone = line.tone ? line.tone.split(" ")[0] : "";
  const plain = table.seat === null && (tone === "good" || tone === "bad");
  const item = make("li", { class: tone && !plain ? `t-${tone}` : null });
  if (line.parts) item.append(...line.parts.map(game.partNode));
  else item.textContent = line.text;
  return item;
}

function revealedAtTheEnd() {
  const end = at === total - 1;
  $("revealed").hidden = !end;
  if (end && !$("revealed-body").childElementCount) $("revealed-body").append(game.revealed(record, steps));
}

// Draws step `n` (told from where its story starts if we jumped there).
function goTo(n) {
  const target = Math.max(0, Math.min(total - 1, n));
  if (!steps[target]) {
    wanted = target;
    status(`Loading step ${target}…`);
    return;
  }
  wanted = null;
  const from = target === at + 1 ? target : game.from ? game.from(steps, target) : target;
  if (target !== at + 1) game.reset();
  let lines = [];
  for (let k = from; k <= target; k++) {
    table.view = steps[k].view;
    lines = game.step(steps[k].events, steps[k].view, k > 0 ? steps[k - 1].view : null, k === target);
  }
  at = target;
  slider.value = String(at);
  const where = `${at} of ${total - 1}`;
  $("step-where").textContent = where;
  slider.setAttribute("aria-valuetext", `Step ${where}`);
  $("story-title").textContent = at === 0 ? "The deal" : at === total - 1 ? `Step ${at}: the end` : `Step ${at}`;
  $("story").replaceChildren(...lines.map(lineNode));
  $("step-first").disabled = $("step-back").disabled = at === 0;
  $("step-next").disabled = $("step-last").disabled = at === total - 1;
  if (at === total - 1) pause();
  revealedAtTheEnd();
  history.replaceState(history.state, "", `#step=${at}`);
  status(at === total - 1 ? "The end: every hidden card is shown below." : "");
}

function pause() {
  clearInterval(playing);
  playing = 0;
  $("step-play").textContent = "Play";
}

function playOrPause() {
  if (playing) { pause(); return; }
  if (at === total - 1) goTo(0);
  $("step-play").textContent = "Pause";
  playing = setInterval(() => goTo(at + 1), PACE);
}

const by = (k) => () => { pause(); goTo(at + k); };
$("step-first").addEventListener("click", () => { pause(); goTo(0); });
$("step-back").addEventListener("click", by(-1));
$("step-next").addEventListener("click", by(1));
$("step-last").addEventListener("click", () => { pause(); goTo(total - 1); });
$("step-play").addEventListener("click", playOrPause);
slider.addEventListener("input", () => { pause(); goTo(Number(slider.value)); });
window.addEventListener("hashchange", () => {
  const n = stepOfAddress();
  if (n !== null && n !== at) goTo(n);
});

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || total === 0) return;
  const t = e.target;
  if (t.tagName === "A" || (t.tagName === "INPUT" && t !== slider)) return;
  const onSlider = t === slider; // its own keys move it (and its input event draws)
  const keys = {
    " ": playOrPause,
    ArrowLeft: by(-1), ArrowRight: by(1), PageUp: by(-10), PageDown: by(10),
    Home: () => { pause(); goTo(0); }, End: () => { pause(); goTo(total - 1); },
  };
  const act = keys[e.key];
  if (!act || (onSlider && e.key !== " ")) return;
  e.preventDefault();
  act();
});

$("share").addEventListener("click", async () => {
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    $("share").textContent = "Link copied";
    setTimeout(() => { $("share").textContent = "Copy the link to this step"; }, 2500);
  } catch (err) { // no clipboard: the link is there to copy by hand
    $("share-link").hidden = false;
    $("share-link").value = link;
    $("share-link").select();
  }
});

// Who played, as the board names them: "You" for this device's own seat.
function whoPlayed() {
  const parts = ["Played by "];
  const last = table.seats.length - 1;
  table.seats.forEach((s, i) => {
    parts.push(make("bdi", { text: names.name(i) }), s.kind === "computer" ? " (computer)" : "", i < last ? ", " : ". ");
  });
  const winner = record.outcome ? record.outcome.winner : null;
  if (typeof winner === "number") parts.push("Won by ", make("strong", {}, make("bdi", { text: names.name(winner) })), ". ");
  else if (record.outcome && record.outcome.draw === true) parts.push("A draw. ");
  if (Array.isArray(record.actions)) parts.push(`${record.actions.length} moves.`);
  $("replay-who").replaceChildren(...parts);
}

async function load() {
  try {
    const [rec, first, specs] = await Promise.all([json(`/games/${encodeURIComponent(id)}.json`),
      json(`/games/${encodeURIComponent(id)}/steps.json?first=0&count=${PAGE}`), allSpecs()]);
    record = rec;
    table.seats = Array.isArray(rec.seats) ? rec.seats : [];
    const played = gamesPlayed().find((g) => g.table === id); // this device played this game
    if (played && Number.isInteger(played.seat) && played.seat < table.seats.length) table.seat = played.seat;
    whoPlayed();
    total = first.total;
    first.steps.forEach((s) => { steps[s.step] = s; });
    slider.max = String(total - 1);
    $("replay-controls").hidden = false;
    game.build(specs.find((s) => s.name === root.dataset.game)); // the game's rules data
    goTo(stepOfAddress() ?? 0);
    for (let from = first.steps.length; from < total; from += PAGE) {
      const page = await json(`/games/${encodeURIComponent(id)}/steps.json?first=${from}&count=${PAGE}`);
      page.steps.forEach((s) => { steps[s.step] = s; });
      if (wanted !== null && steps[wanted]) goTo(wanted);
    }
  } catch (err) {
    status(`This game could not be loaded (${err.message}). Reload the page to try again.`);
  }
}

// The replay of the page's game: `makeGame(table, names)` gives what draws its board and
// tells its steps (build, reset, step, from, revealed, and partNode for lines in parts).
export function startReplay(makeGame) {
  game = makeGame(table, names);
  load();
}
