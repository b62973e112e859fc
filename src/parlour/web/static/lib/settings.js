// The settings of a game against the computer (players, speed, options), kept on this
// device and checked against the game's spec, so that a stale or hand-edited store never
// reaches the server.
import { load, save } from "./storage.js";
import { allowed, offered } from "./specs.js";

const key = (spec) => `parlour.${spec.name}.settings`;

// The settings `given` asks for, each one the spec allows, else its default.
export function checked(spec, given) {
  const [low, high] = spec.seats;
  const levels = spec.levels.map((l) => l.name);
  const wanted = given.options || {};
  const options = {};
  for (const o of offered(spec)) {
    // an older page kept some options at the top level under the same name
    const value = o.name in wanted ? wanted[o.name] : given[o.name];
    options[o.name] = allowed(o, value) ? value : o.default;
  }
  return {
    players: Number.isInteger(given.players) && given.players >= low && given.players <= high
      ? given.players : spec.default_players,
    level: levels.includes(given.level) ? given.level : (levels.includes("normal") ? "normal" : levels[0]),
    options,
  };
}

export const loadSettings = (spec) => checked(spec, load(key(spec), {}) || {});

export const saveSettings = (spec, settings) => save(key(spec), settings);

// The settings of a table someone else set up (a `welcome`): shown, never kept.
export const tableSettings = (spec, welcome) =>
  checked(spec, { players: welcome.players, level: welcome.level, options: welcome.options || {} });
