// The table on a big screen (/table/<id>/screen): a spectator made for a TV in the room
// where everyone plays from their phone. Before the start it is a visitor of the waiting
// room (`join`: the seats as people take them, and a large QR code of the link); from the
// start it watches (`watch`: the public view, as any spectator, so it never holds a hidden
// card). A rematch brings it to the rematch's table. Nothing here sends a move.
import { $, make } from "./lib/dom.js";
import { sentence } from "./lib/errors.js";
import { connect, send } from "./lib/socket.js";
import { allSpecs } from "./lib/specs.js";
import { buildRing, placeRing, seatNode } from "./screen/ring.js";
import { clearNews, news, placeBubbles } from "./screen/news.js";

// Each game's teller is its own module, screen/<game>.js, exporting a function of the game's
// name: loaded by name, so that a new game adds its module and changes nothing here. A game
// with none is shown by its seats and its news alone.
const plain = () => ({
  tell() {},
  seat: () => ({ line: "", note: "", turn: false, out: false, tone: "" }),
  board(view, box) { box.replaceChildren(); },
});
const tellers = new Map();
function tellerFor(game) {
  if (!tellers.has(game)) {
    tellers.set(game, /^[a-z]+$/.test(game)
      ? import(`./screen/${game}.js`).then((mod) => mod[game] || plain, () => plain)
      : Promise.resolve(plain));
  }
  return tellers.get(game).then((make) => make(name));
}
const table = location.pathname.split("/").filter(Boolean)[1];
const S = { game: null, title: "", seats: [], phase: null, watching: false, view: null, free: 0, teller: null };

const name = (seat) => (S.seats[seat] ? S.seats[seat].name : `Seat ${seat + 1}`);
const status = (text) => { $("screen-status").textContent = text; };

// The seats, built again when their number changes (a new table).
function seatsFor(n) {
  const list = $("screen-seats");
  if (list.children.length !== n) buildRing(list, n);
}

function drawSeats() {
  seatsFor(S.seats.length);
  S.seats.forEach((seat, i) => {
    const node = seatNode(i);
    const shown = S.view && S.teller ? S.teller.seat(S.view, i)
      : { line: seat.kind === "computer" ? "computer" : "", note: "", turn: false, out: false, tone: "" };
    node.querySelector(".seat-name").textContent = seat.kind === "open" ? "Free seat" : seat.name;
    node.querySelector(".seat-line").textContent = shown.line;
    node.querySelector(".seat-note").textContent = seat.away ? "away: the computer plays" : shown.note;
    node.className = `screen-seat seat-${seat.kind}` + (shown.turn ? " turn" : "") + (shown.out ? " out" : "")
      + (shown.tone ? ` ${shown.tone}` : "") + (node.classList.contains("speaking") ? " speaking" : "");
    node.setAttribute("aria-current", shown.turn ? "true" : "false");
  });
}

function draw() {
  document.body.dataset.phase = S.phase || "";
  $("screen-game").textContent = S.title ? `${S.title} with friends` : "Parlour";
  const waiting = S.phase === "waiting";
  $("screen-join").hidden = !waiting;
  if (waiting) {
    const link = `${location.origin}/table/${table}`;
    $("screen-link").textContent = link;
    const qr = `/table/${encodeURIComponent(table)}/qr.svg`;
    if ($("screen-qr").getAttribute("src") !== qr) $("screen-qr").src = qr;
    const people = S.seats.filter((s) => s.kind === "person").length;
    status(`${people} of ${S.seats.length} seats taken. The host starts the game`
      + (S.free ? "; computers take the free seats." : "."));
  } else if (S.phase === "closed") status("This table has closed.");
  if (S.view && S.teller) S.teller.board(S.view, $("screen-board"));
  else $("screen-board").replaceChildren();
  drawSeats();
}

const handlers = {
  lobby(m) { // the waiting room's news, until the start
    if (m.table !== table) return;
    Object.assign(S, { game: m.game, seats: m.seats, phase: m.phase, free: m.free });
    if (m.phase !== "waiting" && m.phase !== "closed" && !S.watching) {
      S.watching = true;
      send({ type: "watch", table });
    }
    specFor(m.game);
    draw();
  },
  welcome(m) {
    Object.assign(S, { game: m.game, seats: m.seats, phase: m.started ? m.phase : "waiting" });
    tellerFor(m.game).then((teller) => { S.teller = teller; draw(); });
    specFor(m.game);
    if (!m.started) status("Waiting for the host to start the game…");
    draw();
  },
  state(m) {
    S.view = m.view;
    clearNews();
    status(m.view.winner !== null ? "The game is over." : "");
    draw();
  },
  events(m) {
    const before = S.view;
    S.view = m.view;
    if (S.phase === "waiting") S.phase = "playing";
    if (S.teller) for (const e of m.events) S.teller.tell(e, m.view, before);
    if (m.view.winner !== null) { S.phase = "finished"; status("The game is over."); }
    draw();
  },
  seats(m) { S.seats = m.seats; draw(); },
  rematch(m) { location.assign(`/table/${encodeURIComponent(m.table)}/screen`); },
  error(m) {
    if (m.code === "unknown_table") {
      S.phase = "closed";
      draw();
    }
    news(sentence(m), "bad");
  },
};

function specFor(game) {
  if (S.title) return;
  allSpecs().then((specs) => {
    const spec = specs.find((s) => s.name === game);
    if (spec) { S.title = spec.title; draw(); }
  }).catch(() => {});
}

let resizing = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => { placeRing($("screen-seats")); placeBubbles(); }, 80);
});

connect({
  // each (re)connect: the waiting room until the start, then the game as a spectator
  hello: () => ({ type: S.watching ? "watch" : "join", table }),
  handlers,
  lost: () => status("Connection lost: reconnecting…"),
  back: () => status(""),
});
