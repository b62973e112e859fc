// The form that creates a table with friends, built from the games' specs: the game, the
// seats a live table offers, and each option a page may offer (never a chance one).
import { $, make } from "../lib/dom.js";
import { link } from "../lib/address.js";
import { allowed, forPlayers, offered } from "../lib/specs.js";

const idOf = (o) => `option-${o.name}`;

function control(o) {
  const help = o.help ? make("small", { text: ` ${forPlayers(o.help)}` }) : "";
  if (o.kind === "bool") {
    return make("label", { class: "check", "data-option": o.name },
      make("input", { type: "checkbox", id: idOf(o), checked: o.default === true }), " ",
      make("span", { text: o.label }), help);
  }
  return make("label", { class: "field", "data-option": o.name }, o.label,
    make("input", { type: "number", id: idOf(o), inputmode: "numeric", min: o.low, max: o.high,
      value: o.default }), help);
}

// Shows `spec`'s seats and options.
function pick(spec) {
  const input = $("players");
  const [low, high] = spec.seats;
  input.min = String(low);
  input.max = String(high);
  const n = Number(input.value);
  if (!(n >= low && n <= high)) input.value = String(spec.default_players);
  input.disabled = low === high;
  $("players-range").textContent = low === high ? `${low} seats` : `${low} to ${high}`;
  $("options").replaceChildren(...offered(spec).map(control));
}

export function drawCreate(specs) {
  $("create").hidden = false;
  const select = $("game");
  select.replaceChildren(...specs.map((s) => make("option", { value: s.name, text: s.title })));
  if (specs.some((s) => s.name === link.game)) select.value = link.game;
  const chosen = () => specs.find((s) => s.name === select.value);
  select.addEventListener("change", () => pick(chosen()));
  pick(chosen());
  return chosen;
}

// The create message's game, players and options, or a sentence saying what to fix.
export function creation(spec) {
  const players = Number($("players").value);
  const [low, high] = spec.seats;
  if (!Number.isInteger(players) || players < low || players > high) {
    return { problem: `${spec.title} is played here by ${low} to ${high} players.` };
  }
  const options = {};
  for (const o of offered(spec)) {
    const input = $(idOf(o));
    const value = o.kind === "bool" ? input.checked : Number(input.value);
    if (!allowed(o, value)) return { problem: `${o.label}: a whole number from ${o.low} to ${o.high}.` };
    options[o.name] = value;
  }
  return { game: spec.name, players, options };
}
