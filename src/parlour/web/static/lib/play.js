// The frame of every game page: the socket and the seat (seat.js), the settings and wins on
// this device, the controls, and the bar before a game and after a drop. A page brings only
// its own table: hooks that draw it and tell what happened.
import { $ } from "./dom.js";
import { link } from "./address.js";
import { connect, send } from "./socket.js";
import { bar } from "./status.js";
import { gameSeat } from "./seat.js";
import { checked, loadSettings, saveSettings, tableSettings } from "./settings.js";
import { winsFor } from "./wins.js";
import { controls } from "./controls.js";
import { seatNames } from "./names.js";
import { levelTitle } from "./specs.js";
import { hintSwitch } from "./hints.js";

// The default wins line: by speed and, where the game offers a choice, by player count.
function playersWins(spec) {
  const many = spec.seats[0] !== spec.seats[1];
  return {
    key: (s) => (many ? `${s.level}-${s.players}` : s.level),
    where: (s) => levelTitle(spec, s.level) + (many ? `, ${s.players} players` : ""),
  };
}

// hooks (each optional but render): welcome(m) after the seats are known; seats() when a
// seat changed hands; state(view) for a whole view; events(events, view, before) after a
// change; newGame() when this device deals again; error(m) for what the frame leaves;
// render() draws `table.view` (null: no game to show).
export function play(spec, hooks, { wins: winsText = playersWins(spec) } = {}) {
  let device = loadSettings(spec);
  const table = {
    seat: null, seats: [], id: null, view: null, waiting: false, settings: device,
    friends: false, watching: false,
  };
  const names = seatNames(table);
  const seat = gameSeat(spec.name, () => {
    const { players, level, options } = table.settings;
    return { players, level, options };
  });
  const wins = winsFor(spec.name);
  // once the seat is lost to this page, the bar keeps saying so
  const setBar = (main, hint, tone) => { if (!seat.lost) bar($("bar"), main, hint, tone); };
  const ctl = controls(document.querySelector(".controls"), { choose, newGame, spec });
  const hints = hintSwitch(spec, () => hooks.render());

  function show() {
    const s = table.settings;
    hints.level(s.level);
    ctl.show(s, { count: wins.count(winsText.key(s)), where: winsText.where(s) }, table.friends);
    document.body.classList.toggle("friends", table.friends);
    document.body.classList.toggle("watching", table.watching);
  }

  function newGame() {
    if (!seat.newGame()) return; // a friends' table is not ours to deal again
    table.view = null;
    if (hooks.newGame) hooks.newGame();
    hooks.render();
    setBar("Dealing…", "");
  }

  function choose(change) {
    if (table.friends) return;
    device = checked(spec, {
      ...table.settings, ...change, options: { ...table.settings.options, ...change.options },
    });
    saveSettings(spec, device);
    table.settings = device;
    show();
    newGame();
  }

  // Wins count against the computer only, once per table.
  function won() {
    const view = table.view;
    if (table.friends || !view || view.winner === null || view.winner !== table.seat) return;
    if (wins.add(table.id, winsText.key(table.settings))) show();
  }

  const handlers = {
    welcome(m) {
      table.seat = seat.welcome(m);
      table.friends = seat.friends;
      table.watching = seat.watching;
      table.id = m.table;
      table.seats = Array.isArray(m.seats) ? m.seats : [];
      table.waiting = m.started === false;
      table.view = null; // the state that follows draws the table; until then, nothing stale
      table.settings = tableSettings(spec, m);
      show();
      if (hooks.welcome) hooks.welcome(m);
      hooks.render();
      if (table.waiting) setBar("Waiting for the table to start", "The host starts the game", "");
    },
    seats(m) {
      if (!Array.isArray(m.seats)) return;
      table.seats = m.seats;
      if (hooks.seats) hooks.seats();
    },
    state(m) {
      if (!m.view) return;
      table.waiting = false;
      table.view = m.view;
      if (hooks.state) hooks.state(m.view);
      else hooks.render();
      won();
    },
    events(m) {
      if (!m.view) return;
      table.waiting = false;
      const before = table.view;
      table.view = m.view;
      if (hooks.events) hooks.events(m.events || [], m.view, before);
      else hooks.render();
      won();
    },
    error(m) {
      const about = seat.error(m);
      if (about === "closed") {
        setBar("This table has closed", "Back to the home page to find another", "bad");
      } else if (about === "lost") {
        // nothing more to play here: the last view stays drawn, with no move open
        if (table.view) table.view = { ...table.view, legal: [] };
        hooks.render();
        if (m.code === "elsewhere") {
          bar($("bar"), "This seat is now played on another device or tab", "Reload this page to play here", "bad");
        } else {
          bar($("bar"), "The host gave your seat back to the table", "", "bad");
        }
      } else if (!about && hooks.error) {
        hooks.error(m);
      }
    },
    pong() {},
  };

  return {
    table, names, setBar, wins,
    menuOpen: ctl.menuOpen,
    // our seat plays `action` (an object of the view's `legal`)
    act: (action) => send({ type: "action", action }),
    start() {
      show();
      hooks.render();
      setBar(link.watch ? "Joining the table…" : "Connecting…", "");
      connect({
        hello: seat.hello,
        handlers,
        lost: () => setBar("Connection lost: reconnecting…", "", "warn"),
      });
    },
  };
}

