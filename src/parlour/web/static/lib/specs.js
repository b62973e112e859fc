// The games' one definition (their specs, GET /api/games): a game page reads its own from
// the page (the server writes it there), the other pages fetch every game's.

let all = null;

// The spec of the game this page plays.
export function pageSpec() {
  const node = document.querySelector("[data-spec]");
  return JSON.parse(node.dataset.spec);
}

// Every game's spec, fetched once.
export function allSpecs() {
  if (!all) {
    all = fetch("/api/games").then((r) => {
      if (!r.ok) throw new Error(`GET /api/games: ${r.status}`);
      return r.json();
    }).then((data) => data.games);
    all.catch(() => { all = null; }); // a later call tries again
  }
  return all;
}

export const levelTitle = (spec, level) =>
  (spec.levels.find((l) => l.name === level) || { title: level }).title;

// The options a page offers: the ones chance decides are never offered.
export const offered = (spec) => spec.options.filter((o) => !o.chance);

// Whether `value` is one the option allows.
export function allowed(option, value) {
  if (option.kind === "bool") return typeof value === "boolean";
  return Number.isInteger(value) && (option.low === null || value >= option.low)
    && (option.high === null || value <= option.high);
}

// `text` without the ruling codes in its brackets (pages.py's for_players): "(S1)" goes,
// "(S4, Cuckoo-style)" is "(Cuckoo-style)". The codes are for the rulings, not for players.
export const forPlayers = (text) => text.replace(/\s*\(([^()]*)\)/g, (all, inside) => {
  if (!/\b[SJPG]\d+\b/.test(inside)) return all;
  const rest = inside.replace(/\b[SJPG]\d+\b,?\s*/g, "").replace(/^[\s,]+|[\s,]+$/g, "");
  return rest ? ` (${rest})` : "";
});
