// Wins against the computer, kept on this device per game and per setting (e.g. "normal-3",
// the speed and the player count). A table counts once however often its win is shown.
import { load, save } from "./storage.js";

export function winsFor(game) {
  const WINS = `parlour.${game}.wins`;
  const COUNTED = `parlour.${game}.counted`;
  return {
    count: (setting) => load(WINS, {})[setting] || 0,
    // true when the win of `table` is new
    add(table, setting) {
      const stored = load(COUNTED, []);
      const counted = Array.isArray(stored) ? stored : [];
      if (!table || counted.includes(table)) return false;
      counted.push(table);
      save(COUNTED, counted.slice(-50));
      const wins = load(WINS, {});
      wins[setting] = (wins[setting] || 0) + 1;
      save(WINS, wins);
      return true;
    },
  };
}
