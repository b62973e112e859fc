// Quick reactions at a table with friends: a fixed set of words and signs (the server takes
// only their codes, live/protocol.py REACTIONS, so a reaction never carries text a person
// typed), sent with one press and shown for a moment at the seat that sent it, and said to
// a screen reader. The server lets a seat send one every 1.5 s (`slow_down`).
import { $, make } from "./dom.js";
import { send } from "./socket.js";
import { speak } from "./speak.js";

// the signs are in every common font (no emoji font needed)
export const REACTIONS = {
  nice: "Nice one!", well_played: "Well played", oops: "Oops!", good_game: "Good game",
  thanks: "Thanks!", your_move: "Your move!", wow: "Wow!", smile: "\u263a", heart: "\u2665",
  star: "\u2605",
};
// what a screen reader says for a sign
const SPOKEN = { smile: "smiles", heart: "sends a heart", star: "gives a star" };
const SHOWN_MS = 3500;

// The seat's box on any game page: ours, or another's.
function seatBox(table, seat) {
  if (seat === table.seat && $("my-seat")) return $("my-seat");
  return document.querySelector(`.table-area [data-seat="${seat}"]:not(#my-seat)`);
}

// `names`: the page's seat names. Returns {enable(on), show(seat, code)}.
export function reactions(table, names) {
  const button = make("button", { id: "react-button", class: "chip", type: "button",
    "aria-haspopup": "true", "aria-expanded": "false", "aria-controls": "react-menu", hidden: true,
    text: "React" });
  const menu = make("div", { id: "react-menu", class: "popover reactions", role: "group",
    "aria-label": "Quick reactions", hidden: true });
  for (const [code, words] of Object.entries(REACTIONS)) {
    const b = make("button", { type: "button", "data-reaction": code, text: words,
      "aria-label": SPOKEN[code] ? `${words} (${SPOKEN[code]})` : words });
    b.addEventListener("click", () => {
      send({ type: "react", reaction: code });
      close();
      button.focus();
    });
    menu.append(b);
  }
  const box = make("div", { class: "react-box" }, button, menu);
  const controls = document.querySelector(".controls");
  if (controls) controls.prepend(box);

  function close() {
    menu.hidden = true;
    button.setAttribute("aria-expanded", "false");
  }
  button.addEventListener("click", (e) => {
    e.stopPropagation();
    menu.hidden = !menu.hidden;
    button.setAttribute("aria-expanded", String(!menu.hidden));
    if (!menu.hidden) menu.querySelector("button").focus();
  });
  document.addEventListener("click", (e) => { if (!box.contains(e.target)) close(); });
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { close(); button.focus(); }
  });

  const timers = {};
  return {
    isOpen: () => !menu.hidden,
    // reactions are for a seat at a table with friends
    enable(on) {
      button.hidden = !on;
      if (!on) close();
    },
    show(seat, code) {
      const words = REACTIONS[code];
      if (!words || !Number.isInteger(seat)) return; // a code this page does not know
      speak(`${names.name(seat)}: ${SPOKEN[code] || words}`);
      const at = seatBox(table, seat);
      if (!at) return;
      const old = at.querySelector(".reaction");
      if (old) old.remove();
      const bubble = make("span", { class: "reaction", "aria-hidden": "true", text: words });
      at.append(bubble);
      clearTimeout(timers[seat]);
      timers[seat] = setTimeout(() => bubble.remove(), SHOWN_MS);
    },
  };
}
