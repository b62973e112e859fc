// The waiting room of a table with friends (`lobby` messages): its seats, who hosts, the
// link to share (and its QR code), the way to the big screen, the host's speed, start and removal of a person from a seat, where to go
// once the game is on, and once it is over: its result, its replay and the rematch.
import { $, check, make } from "../lib/dom.js";
import { radioKeys } from "../lib/radios.js";
import { levelTitle } from "../lib/specs.js";

export const status = (text, tone) => {
  $("status").textContent = text;
  $("status").className = "room-status" + (tone ? ` ${tone}` : "");
};

function seatItem(m, seat, i, me, spec, remove) {
  const item = make("li", { class: `seat-${seat.kind}` + (i === me ? " seat-me" : "") },
    make("span", { class: "num", text: `Seat ${i + 1}` }),
    make("span", { class: "who", text: seat.kind === "open" ? "Free seat" : seat.name }));
  const tag = (text, kind) => item.append(make("span", { class: `tag ${kind}`, text }));
  if (i === m.host) tag("Host", "host");
  if (i === me) tag("You", "you");
  if (seat.kind === "computer") tag(`Computer, ${levelTitle(spec, seat.level)}`, "");
  if (seat.kind === "open") tag(m.phase === "waiting" ? "a computer if nobody sits" : "", "");
  if (remove && seat.kind === "person" && i !== me) {
    // the host may give a person's seat back to the table before the start
    const b = make("button", { type: "button", class: "button remove", text: "Remove",
      "aria-label": `Remove ${seat.name} from seat ${i + 1}` });
    b.addEventListener("click", () => remove(i, seat.name));
    item.append(b);
  }
  return item;
}

// The speed radios, once per game: its spec's levels.
function speeds(spec, choose) {
  const box = $("speed");
  if (box.dataset.game === spec.name) return;
  box.dataset.game = spec.name;
  radioKeys();
  box.replaceChildren(...spec.levels.map((l) => {
    const b = make("button", { type: "button", role: "radio", "data-level": l.name, "aria-checked": "false",
      text: l.title, title: l.about, class: l.beyond_rules ? "beyond" : null });
    if (l.beyond_rules) b.append(make("span", { class: "beyond-tag", text: " · beyond the rules" }));
    b.addEventListener("click", () => choose(l.name));
    return b;
  }));
}

// The words for how a game ended: "Ann won."
function result(m, me) {
  const winner = m.outcome && typeof m.outcome.winner === "number" ? m.outcome.winner : null;
  if (winner === null) return "The game is over.";
  if (winner === me.seat) return "The game is over: you won!";
  const seat = m.seats[winner];
  return `The game is over: ${seat ? seat.name : `seat ${winner + 1}`} won.`;
}

// `me`: {seat, token}; on.speed(level) is the host's choice of speed, on.remove(seat, name)
// the host's removal of a person, on.rematch() asks for the rematch (or joins it).
export function drawRoom(m, spec, me, on) {
  const waiting = m.phase === "waiting";
  const closed = m.phase === "closed";
  const finished = m.phase === "finished";
  document.title = `${spec.title} with friends - Parlour`;
  $("room-title").textContent = `${spec.title} with friends`;
  $("link").value = `${location.origin}/table/${m.table}`;
  // the same link as a QR code, drawn by the server (an image: nothing here parses markup)
  const qr = `/table/${encodeURIComponent(m.table)}/qr.svg`;
  if ($("qr").getAttribute("src") !== qr) $("qr").src = qr;
  const seated = me.seat !== null && me.token !== null;
  const host = seated && me.seat === m.host;
  $("seats").replaceChildren(...m.seats.map((seat, i) =>
    seatItem(m, seat, i, me.seat, spec, host && waiting ? on.remove : null)));
  speeds(spec, on.speed);
  check($("speed").querySelectorAll("[data-level]"), (b) => b.dataset.level === m.level);

  $("leave").hidden = !seated || closed || finished;
  $("share").hidden = !waiting;
  $("sit-form").hidden = seated || !waiting || m.free === 0;
  $("host").hidden = !host || !waiting;
  $("watch").hidden = waiting || closed || finished || seated;
  $("screen").hidden = closed || finished;
  $("over").hidden = !finished;
  if (finished) {
    const rematch = typeof m.rematch === "string" ? m.rematch : null;
    $("replay").href = `/games/${encodeURIComponent(m.table)}`;
    // a seat here is a seat at the rematch: the same token holds it there
    $("rematch").hidden = !seated && !(rematch && me.orphan);
    $("rematch").textContent = rematch ? "Join the rematch" : "Rematch";
    $("rematch-link").hidden = !rematch || !$("rematch").hidden;
    if (rematch) $("rematch-link").href = `/table/${encodeURIComponent(rematch)}`;
    $("over-note").textContent = rematch ? "A rematch is open at this table's seats: the host starts it."
      : seated ? "A rematch plays again with the same seats and people." : "";
  }
  $("watch").href = `/${m.game}?watch=${encodeURIComponent(m.table)}`;
  $("screen").href = `/table/${encodeURIComponent(m.table)}/screen`;
  const computers = m.free === 1 ? "The free seat gets a computer player" : `The ${m.free} free seats get computer players`;
  $("begin-note").textContent = m.free ? `${computers} (${levelTitle(spec, m.level)}).` : "Every seat is taken.";

  const people = m.seats.filter((s) => s.kind === "person").length;
  const hostName = m.seats[m.host] ? m.seats[m.host].name : "the host";
  if (closed) status("This table has closed.", "bad");
  else if (finished) status(result(m, me), "go");
  else if (!waiting && seated) {
    status("The game has started: taking you to your seat…", "go");
    location.assign(`/${m.game}?token=${encodeURIComponent(me.token)}`);
  } else if (!waiting) status("The game has started. You can watch it.", "go");
  else if (host) {
    status(people > 1 ? `${people} people seated. Start when everyone is here.`
      : "Send the link to your friends, then start the game.", "");
  } else if (seated) status(`You are seated. Waiting for ${hostName} (the host) to start the game…`, "");
  else if (m.free === 0) status("Every seat is taken. You can watch once the game starts.", "");
  else status(`${hostName} invites you to a game of ${spec.title}. Type your name to take a seat.`, "go");
}
