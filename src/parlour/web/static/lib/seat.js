// Which seat a game page plays, and the first message of each connection: watch a table,
// take a friend's seat by its token, come back to this tab's own game, or start a new one.
// At a friends' table the settings are the host's and the game is not ours to deal again.
import { link } from "./address.js";
import { send } from "./socket.js";
import { session } from "./storage.js";

// start() gives the start message's players, level and options.
export function gameSeat(game, start) {
  const TOKEN = `parlour.${game}.token`;
  const me = {
    seat: null,
    friends: Boolean(link.token || link.watch),
    watching: Boolean(link.watch),

    startMessage() {
      const message = { type: "start", game, ...start() };
      if (link.seed !== null) message.seed = link.seed;
      return message;
    },

    hello() {
      if (link.watch) return { type: "watch", table: link.watch };
      if (link.token) return { type: "resume", token: link.token };
      const token = session(TOKEN); // this tab's game, from before a reload
      return token ? { type: "resume", token } : me.startMessage();
    },

    // Takes in a `welcome`; gives our seat (null when watching).
    welcome(m) {
      me.seat = typeof m.seat === "number" ? m.seat : null;
      me.watching = me.seat === null;
      me.friends = me.friends || Boolean(m.friends) || me.watching;
      if (!me.friends && m.token) session(TOKEN, m.token);
      return me.seat;
    },

    // A new game against the computer; false (nothing sent) at a friends' table.
    newGame() {
      if (me.friends) return false;
      session(TOKEN, null);
      send(me.startMessage());
      return true;
    },

    // The errors about our seat, by their code: "closed" when a friends' table has gone,
    // "restarted" when our own stale game was replaced by a new one, else null.
    error(m) {
      if (me.friends && (m.code === "bad_token" || m.code === "unknown_table")) return "closed";
      if (m.code === "bad_token") {
        session(TOKEN, null);
        send(me.startMessage());
        return "restarted";
      }
      return null;
    },
  };
  return me;
}
