// Which seat a game page plays, and the first message of each connection: watch a table,
// take a friend's seat by its token, come back to this tab's own game (a reload), to this
// device's unfinished game (once the person chose to continue it), or start a new one.
// Every seat token is kept on this device (lib/ledger.js) so that closing the tab loses
// nothing. At a friends' table the settings are the host's and the game is not ours to deal
// again.
import { link } from "./address.js";
import { send } from "./socket.js";
import { session } from "./storage.js";
import { forgetSeat, keepSeat, seatAt, seatWithToken, waitingGame } from "./ledger.js";

// start() gives the start message's players, level and options.
export function gameSeat(game, start) {
  const TOKEN = `parlour.${game}.token`; // this tab's game against the computer
  if (link.resume && !link.token && !link.watch) {
    // the home page's Continue: that game, at once; the address forgets it (a reload then
    // comes back through this tab's token, a new game does not go back to the old one)
    const kept = seatAt(link.resume);
    if (kept && kept.game === game && !kept.friends) session(TOKEN, kept.token);
    const address = new URL(location.href);
    address.searchParams.delete("resume");
    history.replaceState(history.state, "", address);
  }
  const me = {
    seat: null,
    table: null,
    lost: false,
    friends: Boolean(link.token || link.watch),
    watching: Boolean(link.watch),
    // this device's unfinished game against the computer, offered before a new one is dealt
    waiting: null,
    tried: null, // the token the last `resume` presented (null: the last hello was a start)
    resumed: false, // the game shown was under way before this page came to it

    startMessage() {
      me.tried = null;
      const message = { type: "start", game, ...start() };
      if (link.seed !== null) message.seed = link.seed;
      return message;
    },

    hello() {
      if (me.lost) return null;
      if (link.watch) return { type: "watch", table: link.watch };
      const token = link.token || session(TOKEN);
      if (token) {
        me.tried = token;
        return { type: "resume", token };
      }
      if (me.waiting) return null; // the person has not chosen yet: that game or a new one
      return me.startMessage();
    },

    // The person chose to continue the waiting game (true), or to let it go for a new one.
    choose(keepOn) {
      const waiting = me.waiting;
      me.waiting = null;
      if (waiting && keepOn) session(TOKEN, waiting.token);
      else if (waiting) forgetSeat(waiting.table);
      const first = me.hello();
      if (first) send(first);
    },

    // Takes in a `welcome`; gives our seat (null when watching).
    welcome(m) {
      me.seat = typeof m.seat === "number" ? m.seat : null;
      me.table = m.table;
      me.watching = me.seat === null;
      me.friends = me.friends || Boolean(m.friends) || me.watching;
      me.resumed = me.tried !== null;
      me.waiting = null;
      if (m.token && me.seat !== null) {
        if (!me.friends) session(TOKEN, m.token);
        keepSeat({ game, table: m.table, token: m.token, seat: me.seat, friends: me.friends,
          players: m.players, level: m.level, seeded: m.seeded });
      }
      return me.seat;
    },

    // A new game against the computer; false (nothing sent) at a friends' table. The table
    // this connection had is closed by the server when the new one opens.
    newGame() {
      if (me.friends) return false;
      if (me.table) forgetSeat(me.table);
      if (me.waiting) forgetSeat(me.waiting.table);
      me.waiting = null;
      session(TOKEN, null);
      send(me.startMessage());
      return true;
    },

    // The errors about our seat, by their code: "lost" when the seat was taken from this page
    // (taken up on another device or tab, or given back to the table by its host: this page
    // then asks for it no more), "closed" when a friends' seat is no more, "refused" when our
    // own game's token was refused (it is forgotten, and a new game dealt), else null.
    error(m) {
      if (m.code === "elsewhere" || m.code === "removed") {
        me.lost = true;
        return "lost";
      }
      if (m.code === "bad_token" && me.tried) {
        const kept = seatWithToken(me.tried);
        if (kept) forgetSeat(kept.table);
      }
      if (me.friends && (m.code === "bad_token" || m.code === "unknown_table")) return "closed";
      if (m.code === "bad_token") {
        session(TOKEN, null);
        send(me.startMessage());
        return "refused";
      }
      return null;
    },
  };
  if (!me.friends && !session(TOKEN)) me.waiting = waitingGame(game);
  return me;
}
