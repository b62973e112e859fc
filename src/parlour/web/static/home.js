// The home page's list of open tables with friends, refreshed every few seconds from
// /api/tables (the server renders the first one, so the page works without this); each
// game is named by its title in the games' specs. "Your games" comes from this device.
import { $, make } from "./lib/dom.js";
import { allSpecs } from "./lib/specs.js";
import { drawMine } from "./home/mine.js";

const NONE = "No open table right now: create one and share its link.";

// Each name in its own <bdi>: a right-to-left name does not reorder the list round it.
const people = (names) => names.flatMap((name, i) => [...(i ? [", "] : []), make("bdi", { text: name })]);

// The list is a live region: it is replaced only when it would change, or a screen reader
// reads the same "No open table right now" again every few seconds.
function draw(tables, titles) {
  const list = !tables.length ? make("p", { class: "none", text: NONE })
    : make("ul", { class: "open-tables" }, ...tables.map((t) => make("li", {},
      make("a", { class: "button", href: `/table/${encodeURIComponent(t.table)}`, text: "Join" }), " ",
      make("span", { class: "what" }, make("b", { text: titles[t.game] || t.game }), `, ${t.players} seats, ${t.free} free`),
      " ", make("span", { class: "who" }, "with ", ...people(t.people)))));
  const box = $("open-tables");
  if (box.childElementCount === 1 && box.firstElementChild.isEqualNode(list)) return;
  box.replaceChildren(list);
}

async function refresh() {
  if (document.hidden) return;
  try {
    const [response, specs] = await Promise.all([fetch("/api/tables", { cache: "no-store" }), allSpecs()]);
    if (!response.ok) return;
    const titles = Object.fromEntries(specs.map((s) => [s.name, s.title]));
    draw((await response.json()).tables, titles);
  } catch (e) { /* offline for a moment: keep the last list */ }
}

if ($("my-games")) {
  allSpecs().then(drawMine).catch(() => { /* offline: the list waits for the next visit */ });
  // back from a game by the browser's Back button: the page may come from its cache
  window.addEventListener("pageshow", (e) => { if (e.persisted) allSpecs().then(drawMine); });
}

if ($("open-tables")) {
  setInterval(refresh, 4000);
  document.addEventListener("visibilitychange", refresh);
}
