// The waiting room of a table with friends (`lobby` messages): its seats, who hosts, the
// link to share, the host's speed and start, and where to go once the game is on.
import { $, check, make } from "../lib/dom.js";
import { radioKeys } from "../lib/radios.js";
import { levelTitle } from "../lib/specs.js";

export const status = (text, tone) => {
  $("status").textContent = text;
  $("status").className = "room-status" + (tone ? ` ${tone}` : "");
};

function seatItem(m, seat, i, me, spec) {
  const item = make("li", { class: `seat-${seat.kind}` + (i === me ? " seat-me" : "") },
    make("span", { class: "num", text: `Seat ${i + 1}` }),
    make("span", { class: "who", text: seat.kind === "open" ? "Free seat" : seat.name }));
  const tag = (text, kind) => item.append(make("span", { class: `tag ${kind}`, text }));
  if (i === m.host) tag("Host", "host");
  if (i === me) tag("You", "you");
  if (seat.kind === "computer") tag(`Computer, ${levelTitle(spec, seat.level)}`, "");
  if (seat.kind === "open") tag(m.phase === "waiting" ? "a computer if nobody sits" : "", "");
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

// `me`: {seat, token}; choose(level) is the host's choice of speed.
export function drawRoom(m, spec, me, choose) {
  const waiting = m.phase === "waiting";
  const closed = m.phase === "closed";
  document.title = `${spec.title} with friends - Parlour`;
  $("room-title").textContent = `${spec.title} with friends`;
  $("link").value = `${location.origin}/table/${m.table}`;
  $("seats").replaceChildren(...m.seats.map((seat, i) => seatItem(m, seat, i, me.seat, spec)));
  speeds(spec, choose);
  check($("speed").querySelectorAll("[data-level]"), (b) => b.dataset.level === m.level);

  const seated = me.seat !== null && me.token !== null;
  const host = seated && me.seat === m.host;
  $("leave").hidden = !seated || closed;
  $("share").hidden = !waiting;
  $("sit-form").hidden = seated || !waiting || m.free === 0;
  $("host").hidden = !host || !waiting;
  $("watch").hidden = waiting || closed || seated;
  $("watch").href = `/${m.game}?watch=${encodeURIComponent(m.table)}`;
  const computers = m.free === 1 ? "The free seat gets a computer player" : `The ${m.free} free seats get computer players`;
  $("begin-note").textContent = m.free ? `${computers} (${levelTitle(spec, m.level)}).` : "Every seat is taken.";

  const people = m.seats.filter((s) => s.kind === "person").length;
  const hostName = m.seats[m.host] ? m.seats[m.host].name : "the host";
  if (closed) status("This table has closed.", "bad");
  else if (!waiting && seated) {
    status("The game has started: taking you to your seat…", "go");
    location.assign(`/${m.game}?token=${encodeURIComponent(me.token)}`);
  } else if (m.phase === "finished") status("The game is over. You can watch how it ended.", "go");
  else if (!waiting) status("The game has started. You can watch it.", "go");
  else if (host) {
    status(people > 1 ? `${people} people seated. Start when everyone is here.`
      : "Send the link to your friends, then start the game.", "");
  } else if (seated) status(`You are seated. Waiting for ${hostName} (the host) to start the game…`, "");
  else if (m.free === 0) status("Every seat is taken. You can watch once the game starts.", "");
  else status(`${hostName} invites you to a game of ${spec.title}. Type your name to take a seat.`, "go");
}
