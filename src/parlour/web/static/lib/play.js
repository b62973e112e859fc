// The frame of every game page: the socket and the seat (seat.js), the settings and wins on
// this device, the controls, and the bar before a game and after a drop. Nothing is lost:
// a dropped socket comes back by itself to the same seat, this device's unfinished game is
// offered when the page opens, a game in play is given up only when the person says so, and
// a finished game goes into this device's history with a link to its replay (and, at a
// table with friends, the rematch). A page brings only its own table: hooks that draw it and
// tell what happened, and the controls a move is made with. Every action goes through act(),
// once per view: the table numbers its views (`version`, the actions applied so far), the
// page says which view it acted on, and a second press before the next view sends nothing.
import { $, make } from "./dom.js";
import { link } from "./address.js";
import { connect, isOpen, send } from "./socket.js";
import { bar } from "./status.js";
import { gameSeat } from "./seat.js";
import { checked, loadSettings, saveSettings, tableSettings } from "./settings.js";
import { winsFor } from "./wins.js";
import { controls } from "./controls.js";
import { seatNames } from "./names.js";
import { levelTitle } from "./specs.js";
import { hintSwitch } from "./hints.js";
import { soundSwitch } from "./sound.js";
import { ask } from "./dialog.js";
import { line } from "./notice.js";
import { ago } from "./ago.js";
import { refusal, sentence } from "./errors.js";
import { guide } from "./guide.js";
import { finish, keepSeat, statsOf, statsText, touchSeat } from "./ledger.js";
import { reactions } from "./reactions.js";

// The default wins line: by speed and, where the game offers a choice, by player count.
function playersWins(spec) {
  const many = spec.seats[0] !== spec.seats[1];
  return {
    key: (s) => (many ? `${s.level}-${s.players}` : s.level),
    where: (s) => levelTitle(spec, s.level) + (many ? `, ${s.players} players` : ""),
  };
}

// The mark of a deal asked for by its number (`?seed=N`): the same link deals it again.
function chosenDealMark() {
  const mark = make("span", { class: "chosen-deal", hidden: true, text: "A chosen deal" });
  const h1 = document.querySelector(".top h1");
  if (h1) h1.after(mark);
  return mark;
}

// The version of the view a state or events message carries (null before the server says).
const versionOf = (m) => (Number.isInteger(m.version) && m.version >= 0 ? m.version : null);

// The events of a deal (nobody has played yet: a new setting deals again without asking).
const DEALING = new Set(["deal", "base", "first"]);

// hooks (each optional but render, say and controls): welcome(m) after the seats are known;
// seats() when a seat changed hands; state(view) for a whole view; events(events, view,
// before) after a change; newGame() when this device deals again; error(m) for an error the
// frame does not handle, true if the page told it itself; render() draws `table.view` (null:
// no game to show); say(text, tone) tells what happened (the page's news line or log: a
// refused move is told there); controls() the elements a move is made with (buttons, or
// boxes of them), the page's main buttons first: they rest while the socket is away, and the
// first of them that can be pressed has the focus after the tour.
// `tour`: the first game's tour (lib/guide.js steps); `wins`: the wins line's key and words.
export function play(spec, hooks, { wins: winsText = playersWins(spec), tour = [] } = {}) {
  let device = loadSettings(spec);
  const table = {
    seat: null, seats: [], id: null, view: null, version: null, waiting: false, settings: device,
    friends: false, watching: false, seeded: link.seed !== null, rematch: null,
    // we or anyone made a move in this game (or we came back to it): there is something to
    // lose, and a setting that would deal anew asks first
    moved: false,
  };
  const names = seatNames(table);
  const seat = gameSeat(spec.name, () => {
    const { players, level, options } = table.settings;
    return { players, level, options };
  });
  const wins = winsFor(spec.name);
  let offline = false;
  // once the seat is lost to this page, the bar keeps saying so; while the socket is away,
  // the bar says that
  const setBar = (main, hint, tone) => { if (!seat.lost && !offline) bar($("bar"), main, hint, tone); };
  const ctl = controls(document.querySelector(".controls"), { choose, newGame, spec });
  const hints = hintSwitch(spec, () => hooks.render());
  soundSwitch();
  const mark = chosenDealMark();
  // above the bar: the offer of this device's waiting game, a refused token; below it: the
  // replay and the rematch of a game that is over
  const quick = reactions(table, names);
  const notice = line("offer", (node) => $("bar").before(node));
  const after = line("after", (node) => $("bar").after(node));
  let noticeKind = null;
  // the actions sent at the view drawn (as JSON): each at most once per view
  let acted = { view: null, sent: new Set() };
  const sentNow = () => (acted.view === table.view ? acted.sent : new Set());
  // every action sent in this game, and whether the last one sent had been sent before
  let played = new Set();
  let repeated = false;

  // what the computers' speed means, said only where a computer plays
  function aboutTheComputers() {
    const about = $("speed-about");
    if (about) about.hidden = table.friends && !table.seats.some((s) => s.kind === "computer");
  }

  function show() {
    const s = table.settings;
    hints.level(s.level);
    ctl.show(s, { count: wins.count(winsText.key(s)), where: winsText.where(s) }, table.friends);
    if ($("stats")) $("stats").textContent = statsText(statsOf(spec.name));
    aboutTheComputers();
    document.body.classList.toggle("friends", table.friends);
    document.body.classList.toggle("watching", table.watching);
    mark.hidden = !table.seeded;
    mark.title = link.seed !== null && !table.friends
      ? `Deal number ${link.seed}: this link deals the same cards again`
      : "The deal was chosen by its number: it can be dealt again";
  }

  function say(kind, words, items, tone) {
    noticeKind = kind;
    notice.show(words, items, tone);
  }
  function unsay(kind) {
    if (kind && noticeKind !== kind) return;
    noticeKind = null;
    notice.hide();
    document.body.classList.remove("offered");
  }

  // A game against the computer in play, with something to lose (or one waiting to be
  // continued): it is given up only when the person says so.
  const inPlay = () => !table.friends && (Boolean(seat.waiting)
    || Boolean(table.view && table.seat !== null && table.view.winner === null && table.moved));

  function discardOk(what) {
    if (!inPlay()) return Promise.resolve(true);
    return ask({
      title: seat.waiting ? "Give up your waiting game?" : "Give up this game?",
      text: `A new game is dealt${what} and the one ${seat.waiting ? "waiting for you" : "in play"} is lost.`,
      yes: "Give it up", no: "Keep playing",
    });
  }

  function deal() {
    if (!seat.newGame()) return; // a friends' table is not ours to deal again
    unsay();
    after.hide();
    table.view = null;
    table.moved = false;
    if (hooks.newGame) hooks.newGame();
    hooks.render();
    setBar("Dealing…", "");
  }

  async function newGame() {
    if (table.friends || !(await discardOk(""))) return;
    deal();
  }

  async function choose(change) {
    if (table.friends) return;
    const what = change.level ? ` at ${levelTitle(spec, change.level)}`
      : change.players ? ` with ${change.players} players` : " with the new setting";
    if (!(await discardOk(what))) {
      show(); // the controls show the game's settings again
      return;
    }
    device = checked(spec, {
      ...table.settings, ...change, options: { ...table.settings.options, ...change.options },
    });
    saveSettings(spec, device);
    table.settings = device;
    show();
    deal();
  }

  // This device's unfinished game: continue it with one press, or deal a new one.
  function offer() {
    const w = seat.waiting;
    const level = w.level ? levelTitle(spec, w.level) : "";
    const details = [w.players ? `${w.players} players` : "", level].filter(Boolean).join(", ");
    say("offer", `Your game of ${spec.title}${details ? ` (${details})` : ""} is waiting, ` +
      `last played ${ago(w.at)}.`, [
      { text: "Continue your game", primary: true, id: "continue-game",
        press: () => { unsay("offer"); setBar("Coming back to your game…", ""); seat.choose(true); } },
      { text: "New game", id: "offer-new-game",
        press: () => { unsay("offer"); setBar("Dealing…", ""); seat.choose(false); } },
    ], "go");
    setBar("Your game is waiting for you", "Continue it, or start a new one", "go");
    // no table is dealt behind the offer: nothing of one is shown (no "0 cards", no pot)
    document.body.classList.add("offered");
    const first = notice.first();
    if (first) first.focus();
  }

  // Wins count against the computer only, once per table.
  function won() {
    const view = table.view;
    if (table.friends || !view || view.winner === null || view.winner !== table.seat) return;
    if (wins.add(table.id, winsText.key(table.settings))) show();
  }

  // A game over: into this device's history (once), and the links to its replay and rematch.
  function over() {
    const view = table.view;
    if (!view || view.winner === null || !table.id) {
      after.hide();
      return;
    }
    if (table.seat !== null) {
      const others = table.seats.map((_, s) => s).filter((s) => s !== table.seat);
      const filed = finish({
        table: table.id, game: spec.name, seat: table.seat, won: view.winner === table.seat,
        winner: view.winner === table.seat ? null : names.name(view.winner),
        against: others.map((s) => names.name(s)), players: table.seats.length,
        level: table.settings.level, friends: table.friends, seeded: table.seeded,
      });
      if (filed) show();
    }
    const items = [];
    let words = "";
    if (table.friends && table.seat !== null) {
      items.push({ text: table.rematch ? "Join the rematch" : "Rematch", primary: true, id: "rematch",
        press: () => { after.show("Opening the rematch…", []); send({ type: "rematch" }); } });
      if (table.rematch) words = "A rematch is open, with the same seats.";
    } else if (table.rematch) {
      items.push({ text: "The rematch", href: `/table/${encodeURIComponent(table.rematch)}`, id: "rematch" });
    }
    items.push({ text: "Watch the replay", href: `/games/${encodeURIComponent(table.id)}`, id: "replay-link" });
    after.show(words, items, "");
  }

  const handlers = {
    welcome(m) {
      table.seat = seat.welcome(m);
      table.friends = seat.friends;
      table.watching = seat.watching;
      table.id = m.table;
      table.seats = Array.isArray(m.seats) ? m.seats : [];
      table.waiting = m.started === false;
      table.seeded = Boolean(m.seeded);
      table.rematch = typeof m.rematch === "string" ? m.rematch : null;
      table.moved = seat.resumed;
      table.view = null; // the state that follows draws the table; until then, nothing stale
      table.version = null;
      played = new Set();
      table.settings = tableSettings(spec, m);
      unsay("offer");
      after.hide();
      show();
      quick.enable(table.friends && table.seat !== null);
      if (hooks.welcome) hooks.welcome(m);
      hooks.render();
      if (table.waiting) setBar("Waiting for the table to start", "The host starts the game", "");
    },
    seats(m) {
      if (!Array.isArray(m.seats)) return;
      table.seats = m.seats;
      aboutTheComputers();
      if (hooks.seats) hooks.seats();
    },
    state(m) {
      if (!m.view) return;
      table.waiting = false;
      table.view = m.view;
      table.version = versionOf(m);
      if (hooks.state) hooks.state(m.view);
      else hooks.render();
      won();
      over();
    },
    events(m) {
      if (!m.view) return;
      table.waiting = false;
      const before = table.view;
      table.view = m.view;
      table.version = versionOf(m);
      if ((m.events || []).some((e) => e && !DEALING.has(e.type))) table.moved = true;
      if (hooks.events) hooks.events(m.events || [], m.view, before);
      else hooks.render();
      won();
      over();
    },
    // our rematch's waiting room: the same token holds our seat there
    seated(m) {
      if (typeof m.table !== "string" || typeof m.token !== "string") return;
      keepSeat({ game: spec.name, table: m.table, token: m.token, seat: m.seat, friends: true });
      location.assign(`/table/${encodeURIComponent(m.table)}`);
    },
    // someone asked for a rematch first
    rematch(m) {
      if (typeof m.table !== "string") return;
      table.rematch = m.table;
      over();
    },
    error(m) {
      if (m.about === "rematch") {
        after.show(m.code === "not_over" ? sentence(m) : "The rematch could not be opened.",
          [{ text: "Watch the replay", href: `/games/${encodeURIComponent(table.id)}` }], "bad");
        return;
      }
      const about = seat.error(m);
      if (about === "closed") {
        setBar("This table has closed", "This seat's link no longer works: back to the home page to find another", "bad");
      } else if (about === "refused") {
        say("refused", "Your last game could not be continued: the server no longer keeps it. A new game is dealt.",
          [{ text: "OK", id: "refused-ok", press: () => unsay("refused") }], "bad");
      } else if (about === "lost") {
        // nothing more to play here: the last view stays drawn, with no move open
        if (table.view) table.view = { ...table.view, legal: [] };
        hooks.render();
        if (m.code === "elsewhere") {
          bar($("bar"), "This seat is now played on another device or tab", "Reload this page to play here", "bad");
        } else {
          bar($("bar"), "The host gave your seat back to the table", "", "bad");
        }
      } else if (!about && !(hooks.error && hooks.error(m))) {
        // The same move again at a later view (a double tap the table answered in between)
        // is turned away (one slap per card) while the first stands: nothing to tell. A move
        // that came too late (a call after the slap that settled its play, the same move
        // again at the same view) changed nothing and is no mistake: told plainly.
        if (m.about === "action" && repeated && (m.code === "refused" || m.code === "stale")) return;
        hooks.say(sentence(m, refusal(table.view, table.seat)), m.code === "stale" ? "" : "bad");
      }
    },
    pong() {},
    reaction(m) { quick.show(m.seat, m.reaction); },
  };

  // The socket dropped: say so once (the bar is read out), and take no move meanwhile:
  // the controls are inert (nobody can reach or press them, and no screen reader offers
  // them) as well as dimmed.
  const inert = (on) => { for (const el of hooks.controls()) el.inert = on; };
  function lost() {
    document.body.classList.add("offline");
    inert(true);
    if (seat.lost || offline) return;
    offline = true;
    bar($("bar"), "Reconnecting…", seat.watching || seat.waiting ? "" : "Your seat is kept", "warn");
  }

  function back() {
    document.body.classList.remove("offline");
    inert(false);
    if (!offline) return;
    offline = false;
    if (seat.waiting) offer();
    else setBar("Connected: back to the table…", "");
  }

  // what has the focus after the tour: the first control that can be pressed
  function firstControl() {
    for (const el of hooks.controls()) {
      const button = el.matches("button") ? el : el.querySelector("button:not(:disabled)");
      if (button && !button.disabled) return button;
    }
    return null;
  }

  const keepFresh = () => { if (table.id && table.seat !== null && !table.friends) touchSeat(table.id); };
  document.addEventListener("visibilitychange", () => { if (document.hidden) keepFresh(); });
  window.addEventListener("pagehide", keepFresh);

  return {
    table, names, setBar, wins,
    menuOpen: () => ctl.menuOpen() || quick.isOpen(),
    // our seat plays `action` (an object of the view's `legal`), naming the view it was
    // chosen on; false when it is not sent: the same action was sent at this view already
    // (a double press: the table has not answered yet), or the socket is away (the view
    // after the reconnect says what is open then)
    act(action) {
      const key = JSON.stringify(action);
      if (!table.view || sentNow().has(key) || !isOpen()) return false;
      if (acted.view !== table.view) acted = { view: table.view, sent: new Set() };
      acted.sent.add(key);
      repeated = played.has(key);
      played.add(key);
      table.moved = true;
      const message = { type: "action", action };
      if (table.version !== null) message.version = table.version;
      return send(message);
    },
    // whether our seat sent an action at the view drawn (the page's buttons may rest)
    acted: () => sentNow().size > 0,
    start() {
      show();
      hooks.render();
      if (seat.waiting) offer();
      else setBar(link.watch ? "Joining the table…" : "Connecting…", "");
      connect({ hello: seat.hello, handlers, lost, back });
      if (tour.length) guide(spec.name, tour, firstControl);
    },
  };
}
