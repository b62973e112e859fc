// "Your games" on the home page: this device's games in play (a press continues each), the
// games it finished, newest first, with their result and a link to their replay, and each
// game's statistics against the computer. Everything comes from this device's storage
// (lib/ledger.js); names people typed reach the page only as text.
import { $, make } from "../lib/dom.js";
import { ago } from "../lib/ago.js";
import { heldSeats, history, statsOf, statsText } from "../lib/ledger.js";
import { levelTitle } from "../lib/specs.js";

const list = (items) => make("ul", { class: "my-games" }, ...items);
const when = (at) => make("time", { class: "when", datetime: new Date(at).toISOString(), text: ago(at) });
const names = (all) => all.filter((n) => typeof n === "string").join(", ");

function setting(spec, g) {
  if (g.friends) return "with friends";
  const level = spec && g.level ? levelTitle(spec, g.level) : "";
  return [g.players ? `${g.players} players` : "", level].filter(Boolean).join(", ");
}

function inPlay(s, spec) {
  const title = spec ? spec.title : s.game;
  // a friends' table by its room (which sends a started game's seat on to its game page)
  const href = s.friends ? `/table/${encodeURIComponent(s.table)}`
    : `/${s.game}?resume=${encodeURIComponent(s.table)}`;
  return make("li", { class: "playing" },
    make("span", { class: "what" }, make("b", { text: title }), ` (${setting(spec, s)})`), " ",
    make("span", { class: "when" }, "last played ", when(s.at)), " ",
    make("a", { class: "button primary", href, text: "Continue" }));
}

function finished(g, spec) {
  const title = spec ? spec.title : g.game;
  const against = Array.isArray(g.against) ? names(g.against) : "";
  const what = make("span", { class: "what" }, make("b", { text: title }));
  if (against) what.append(" against ", make("bdi", { text: against }));
  if (!g.won && typeof g.winner === "string" && Array.isArray(g.against) && g.against.length > 1) {
    what.append(" (", make("bdi", { text: g.winner }), " won)");
  }
  const more = setting(spec, g);
  if (more) what.append(` · ${more}`);
  if (g.seeded) what.append(" ", make("span", { class: "tag", text: "a chosen deal" }));
  return make("li", { class: g.won ? "won" : "lost" },
    make("span", { class: "result", text: g.won ? "Won" : "Lost" }), " ", what, " ", when(g.at), " ",
    make("a", { class: "button", href: `/games/${encodeURIComponent(g.table)}`, text: "Replay",
      "aria-label": `Replay: ${title}, ${g.won ? "won" : "lost"}, ${ago(g.at)}` }));
}

// Draws "Your games" (hidden while this device has none).
export function drawMine(specs) {
  const specOf = (game) => specs.find((s) => s.name === game);
  const held = heldSeats().filter((s) => specOf(s.game));
  const done = history().filter((g) => specOf(g.game));
  const parts = [];
  if (held.length) parts.push(make("h3", { text: "In play" }), list(held.map((s) => inPlay(s, specOf(s.game)))));
  if (done.length) parts.push(make("h3", { text: "Finished" }), list(done.map((g) => finished(g, specOf(g.game)))));
  const stats = specs.map((spec) => [spec, statsText(statsOf(spec.name))]).filter(([, text]) => text);
  if (stats.length) {
    parts.push(make("h3", { text: "Against the computer" }), make("ul", { class: "my-stats" },
      ...stats.map(([spec, text]) => make("li", {}, make("b", { text: spec.title }), `: ${text}`))));
  }
  $("my-games").replaceChildren(...parts);
  $("mine").hidden = parts.length === 0;
}
