// A table with friends: /table creates one, /table/<id> is its waiting room and the link to
// share. Everything goes through the socket (docs/protocol.md): `create`, `join`, `sit`,
// `speed`, `remove`, `begin`, `leave`, `rematch`, answered by `seated` and `lobby`. When the
// host starts, each seated browser goes to the game page with its seat's token; others may
// watch. Once the game is over the room shows its result, its replay and the rematch. The
// seat's token is kept on this device (lib/ledger.js): the link brings the seat back in
// another tab, or after the browser was closed.
import { $ } from "./lib/dom.js";
import { sentence } from "./lib/errors.js";
import { connect, send } from "./lib/socket.js";
import { session } from "./lib/storage.js";
import { allSpecs } from "./lib/specs.js";
import { ask } from "./lib/dialog.js";
import { forgetSeat, keepSeat, seatAt, seatDone } from "./lib/ledger.js";
import { nameField, nameProblem } from "./lib/name-field.js";
import { creation, drawCreate } from "./table/create.js";
import { drawRoom, status } from "./table/room.js";

const NAME = "parlour.name";
const tokenKey = (table) => `parlour.table.${table}`; // this tab's, from before the ledger
const S = {
  table: location.pathname.split("/").filter(Boolean)[1] || null, token: null, seat: null, lobby: null,
  orphan: null, // our token, refused here: the rematch holds our seat now
};
if (S.table) S.token = (seatAt(S.table) || {}).token || session(tokenKey(S.table));

let specs = [];
const specOf = (game) => specs.find((s) => s.name === game);
const error = (text) => { $("error").textContent = text; };

function storedName() { try { return localStorage.getItem(NAME) || ""; } catch (e) { return ""; } }
function keepName(name) { try { localStorage.setItem(NAME, name); } catch (e) { /* private */ } }

function showRoom() {
  $("create").hidden = true;
  $("room").hidden = false;
}

function forget() {
  if (S.table) {
    session(tokenKey(S.table), null);
    forgetSeat(S.table);
  }
  Object.assign(S, { token: null, seat: null });
}

async function remove(seat, name) {
  const yes = await ask({
    title: `Give ${name}'s seat back to the table?`,
    text: "Their link no longer holds the seat; they may take a free seat again.",
    yes: "Remove", no: "Keep them",
  });
  if (yes) send({ type: "remove", seat });
}

function draw() {
  const spec = S.lobby && specOf(S.lobby.game);
  if (spec) drawRoom(S.lobby, spec, S, { speed: (level) => send({ type: "speed", level }), remove });
}

const handlers = {
  seated(m) {
    Object.assign(S, { table: m.table, token: m.token, seat: m.seat, orphan: null });
    session(tokenKey(m.table), m.token);
    const kept = seatAt(m.table);
    keepSeat({ game: m.game, table: m.table, token: m.token, seat: m.seat, friends: true,
      done: Boolean(kept && kept.done) });
    // the link to share is known now, before the room's first `lobby`
    $("link").value = `${location.origin}/table/${m.table}`;
    if (location.pathname !== `/table/${m.table}`) history.replaceState(null, "", `/table/${m.table}`);
    if (S.lobby && S.lobby.table !== m.table) S.lobby = null; // the rematch's room comes next
    error("");
    showRoom();
    draw();
  },
  lobby(m) {
    if (m.table !== S.table) return; // the room we left for the rematch
    S.lobby = m;
    if (S.orphan && typeof m.rematch !== "string") S.orphan = null; // no seat anywhere
    if (m.phase === "finished") seatDone(m.table); // kept for the rematch, no longer in play
    if (m.phase === "closed") forgetSeat(m.table);
    showRoom();
    draw();
  },
  // someone asked for this table's rematch: the lobby that follows says so too
  rematch() {},
  error(m) {
    if (m.code === "removed") { // the host gave our seat back to the table: we may sit again
      forget();
      error(sentence(m));
      draw();
      return;
    }
    if (m.code === "bad_token") {
      // after a rematch our token holds our seat there, not here: the room says where
      const token = S.token;
      forget();
      S.orphan = token;
      draw();
      return;
    }
    if (m.code === "unknown_table") {
      showRoom();
      status(sentence(m), "bad");
      $("share").hidden = true;
      $("sit-form").hidden = true;
    }
    error(sentence(m));
  },
};

$("create-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("create-name").value.trim();
  const problem = nameProblem(name);
  if (problem) { error(problem); $("create-name").focus(); return; }
  const wanted = creation(chosen());
  if (wanted.problem) { error(wanted.problem); return; }
  keepName(name);
  error("");
  send({ type: "create", name, ...wanted }); // the host sets the speed in the room
});
$("sit-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("sit-name").value.trim();
  const problem = nameProblem(name);
  if (problem) { error(problem); $("sit-name").focus(); return; }
  keepName(name);
  send({ type: "sit", table: S.table, name });
});
$("begin").addEventListener("click", () => send({ type: "begin" }));
$("leave").addEventListener("click", () => {
  send({ type: "leave" });
  forget();
  error("");
  draw();
});
$("rematch").addEventListener("click", () => {
  const rematch = S.lobby && S.lobby.rematch;
  if (S.token) {
    status("Opening the rematch…", "");
    send({ type: "rematch" }); // answered by `seated` for the rematch's room
  } else if (S.orphan && rematch) {
    keepSeat({ game: S.lobby.game, table: rematch, token: S.orphan, friends: true });
    location.assign(`/table/${encodeURIComponent(rematch)}`);
  }
});
$("copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("link").value);
    $("copy").textContent = "Copied";
  } catch (e) {
    $("link").select(); // no clipboard (plain http): the person copies it
  }
});

let chosen = () => null;
let offline = false;
$("create-name").value = $("sit-name").value = storedName();
nameField($("create-name"), $("create-name-note"));
nameField($("sit-name"), $("sit-name-note"));
if (S.table) showRoom();
allSpecs().then((games) => {
  specs = games;
  if (!S.table) chosen = drawCreate(specs);
  draw();
}).catch(() => error("Could not load the games: reload the page."));
connect({
  // on each (re)connect, join the room we are in
  hello: () => (S.table ? { type: "join", table: S.table, ...(S.token ? { token: S.token } : {}) } : null),
  handlers,
  lost() {
    if (offline) return; // said once, however many tries it takes
    offline = true;
    status("Connection lost: reconnecting…", "bad");
  },
  back() {
    if (offline) status("Connected again: back to the table…", "");
    offline = false;
  },
});
