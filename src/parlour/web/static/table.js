// A table with friends: /table creates one, /table/<id> is its waiting room and the link to
// share. Everything goes through the socket (docs/protocol.md): `create`, `join`, `sit`,
// `speed`, `begin`, `leave`, answered by `seated` and `lobby`. When the host starts, each
// seated browser goes to the game page with its seat's token; others may watch.
import { $ } from "./lib/dom.js";
import { sentence } from "./lib/errors.js";
import { connect, send } from "./lib/socket.js";
import { session } from "./lib/storage.js";
import { allSpecs } from "./lib/specs.js";
import { creation, drawCreate } from "./table/create.js";
import { drawRoom, status } from "./table/room.js";

const NAME = "parlour.name";
const tokenKey = (table) => `parlour.table.${table}`;
const S = { table: location.pathname.split("/").filter(Boolean)[1] || null, token: null, seat: null, lobby: null };
if (S.table) S.token = session(tokenKey(S.table));

let specs = [];
const specOf = (game) => specs.find((s) => s.name === game);
const error = (text) => { $("error").textContent = text; };

function storedName() { try { return localStorage.getItem(NAME) || ""; } catch (e) { return ""; } }
function keepName(name) { try { localStorage.setItem(NAME, name); } catch (e) { /* private */ } }

function showRoom() {
  $("create").hidden = true;
  $("room").hidden = false;
}

function draw() {
  const spec = S.lobby && specOf(S.lobby.game);
  if (spec) drawRoom(S.lobby, spec, S, (level) => send({ type: "speed", level }));
}

const handlers = {
  seated(m) {
    Object.assign(S, { table: m.table, token: m.token, seat: m.seat });
    session(tokenKey(m.table), m.token);
    // the link to share is known now, before the room's first `lobby`
    $("link").value = `${location.origin}/table/${m.table}`;
    if (location.pathname !== `/table/${m.table}`) history.replaceState(null, "", `/table/${m.table}`);
    error("");
    showRoom();
    draw();
  },
  lobby(m) {
    S.lobby = m;
    showRoom();
    draw();
  },
  error(m) {
    if (m.code === "removed") { // the host gave our seat back to the table: we may sit again
      session(tokenKey(S.table), null);
      Object.assign(S, { token: null, seat: null });
      draw();
    }
    if (m.code === "bad_token") {
      session(tokenKey(S.table), null);
      Object.assign(S, { token: null, seat: null });
      draw();
      return;
    }
    if (m.code === "unknown_table") {
      showRoom();
      status("This table does not exist any more: it closed when everybody left.", "bad");
      $("share").hidden = true;
      $("sit-form").hidden = true;
    }
    error(sentence(m));
  },
};

$("create-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("create-name").value.trim();
  if (!name) { error("Type your name: your friends will see it."); $("create-name").focus(); return; }
  const wanted = creation(chosen());
  if (wanted.problem) { error(wanted.problem); return; }
  keepName(name);
  error("");
  send({ type: "create", name, ...wanted }); // the host sets the speed in the room
});
$("sit-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("sit-name").value.trim();
  if (!name) { error("Type your name to take a seat."); $("sit-name").focus(); return; }
  keepName(name);
  send({ type: "sit", table: S.table, name });
});
$("begin").addEventListener("click", () => send({ type: "begin" }));
$("leave").addEventListener("click", () => {
  send({ type: "leave" });
  session(tokenKey(S.table), null);
  Object.assign(S, { token: null, seat: null });
  error("");
  draw();
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
$("create-name").value = $("sit-name").value = storedName();
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
  lost: () => status("Connection lost: reconnecting…", "bad"),
});
