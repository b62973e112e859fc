// This device's games, kept in localStorage so that closing the tab loses nothing: the seats
// it holds (each game's seat token, with its game, table and when it was last played), the
// games it finished (newest first, with their result) and each game's statistics against
// the computer. What is read back is checked: a hand-edited or stale store is ignored, never
// sent to the server as it is.
import { load, save } from "./storage.js";

const SEATS = "parlour.seats";
const HISTORY = "parlour.history";
const stats = (game) => `parlour.${game}.stats`;

// The server keeps an unfinished table 7 days after it was put away.
export const KEPT_MS = 7 * 24 * 3600 * 1000;
const MOST_SEATS = 40;
const MOST_GAMES = 100;

const isText = (x) => typeof x === "string" && x.length > 0 && x.length <= 100;
const seatNumber = (x) => (Number.isInteger(x) && x >= 0 ? x : null);

function readSeats() {
  const stored = load(SEATS, {});
  const seats = {};
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return seats;
  const now = Date.now();
  for (const [table, s] of Object.entries(stored)) {
    if (!s || !isText(s.game) || !isText(s.token) || s.table !== table) continue;
    if (!(typeof s.at === "number" && now - s.at < KEPT_MS)) continue;
    seats[table] = s;
  }
  return seats;
}

// Keeps the seat `entry` ({game, table, token, seat, friends, players, level, seeded}),
// stamped now. A game against the computer is the only one of its game kept: a new one
// replaces the last.
export function keepSeat(entry) {
  if (!isText(entry.table) || !isText(entry.token) || !isText(entry.game)) return;
  const seats = readSeats();
  if (!entry.friends) {
    for (const [table, s] of Object.entries(seats)) {
      if (!s.friends && s.game === entry.game && table !== entry.table) delete seats[table];
    }
  }
  seats[entry.table] = {
    game: entry.game, table: entry.table, token: entry.token, seat: seatNumber(entry.seat),
    friends: Boolean(entry.friends), players: entry.players, level: entry.level,
    seeded: Boolean(entry.seeded), done: Boolean(entry.done), at: Date.now(),
    since: (seats[entry.table] && seats[entry.table].since) || Date.now(),
  };
  const newest = Object.values(seats).sort((a, b) => b.at - a.at).slice(0, MOST_SEATS);
  save(SEATS, Object.fromEntries(newest.map((s) => [s.table, s])));
}

// Marks the seat at `table` as played now (the page was just in use).
export function touchSeat(table) {
  const seats = readSeats();
  if (!seats[table]) return;
  seats[table].at = Date.now();
  save(SEATS, seats);
}

export function forgetSeat(table) {
  const seats = readSeats();
  if (!seats[table]) return;
  delete seats[table];
  save(SEATS, seats);
}

export const seatAt = (table) => readSeats()[table] || null;

export const seatWithToken = (token) =>
  Object.values(readSeats()).find((s) => s.token === token) || null;

// Every seat of an unfinished game, newest first.
export const heldSeats = () => Object.values(readSeats()).filter((s) => !s.done)
  .sort((a, b) => b.at - a.at);

// The unfinished game of `game` against the computer, or null.
export const waitingGame = (game) =>
  heldSeats().find((s) => s.game === game && !s.friends) || null;

// ---- finished games -------------------------------------------------------------------------

function readHistory() {
  const stored = load(HISTORY, []);
  if (!Array.isArray(stored)) return [];
  return stored.filter((g) => g && isText(g.table) && isText(g.game) && typeof g.at === "number"
    && typeof g.won === "boolean");
}

// The games finished on this device, newest first.
export const history = () => readHistory().sort((a, b) => b.at - a.at);

const emptyStats = () => ({ played: 0, won: 0, streak: 0, best: 0 });

// A game's statistics against the computer: {played, won, streak, best}.
export function statsOf(game) {
  const s = load(stats(game), null);
  const ok = s && ["played", "won", "streak", "best"].every((k) => Number.isInteger(s[k]) && s[k] >= 0);
  return ok ? s : emptyStats();
}

// A friends' table whose game is over: its seat is kept (the token holds the seat at its
// rematch), but it is no longer a game in play.
export function seatDone(table) {
  const seats = readSeats();
  if (!seats[table] || seats[table].done) return;
  seats[table].done = true;
  save(SEATS, seats);
}

// Files the finished game `entry` ({table, game, seat, won, winner, against, players, level,
// friends, seeded}) once: its seat is let go (at a friends' table, kept for the rematch but
// done), it goes first in the history and, against the computer, into the statistics. True
// when it was new.
export function finish(entry) {
  if (entry.friends) seatDone(entry.table);
  else forgetSeat(entry.table);
  const games = readHistory();
  if (games.some((g) => g.table === entry.table)) return false;
  games.unshift({ ...entry, at: Date.now() });
  save(HISTORY, games.sort((a, b) => b.at - a.at).slice(0, MOST_GAMES));
  if (!entry.friends) {
    const s = statsOf(entry.game);
    s.played += 1;
    if (entry.won) {
      s.won += 1;
      s.streak += 1;
      s.best = Math.max(s.best, s.streak);
    } else {
      s.streak = 0;
    }
    save(stats(entry.game), s);
  }
  return true;
}

// "12 played · 58% won · streak 3 · best 5" (empty before the first game).
export function statsText(s) {
  if (!s.played) return "";
  const share = Math.round((100 * s.won) / s.played);
  return `${s.played} played · ${share}% won · streak ${s.streak} · best ${s.best}`;
}
