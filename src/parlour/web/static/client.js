// The plumbing every Parlour page shares, as one global `Parlour` (a plain script, loaded
// before the page's own; no build step). What is here is the same for every game, so that a
// fix to it is made once:
//   - `$`, `plural`, `bar`, `news`, `flash`, `fly`: small helpers for the page's elements;
//   - `load`/`save` (localStorage, JSON) and `session` (sessionStorage, text): storage that a
//     private window or a blocked store never turns into an error;
//   - `link`: what the address asks for: `?token=T` a friend's seat (the token stays in the
//     address, so a reload comes back to it), `?watch=TABLE` a table to watch (a token wins
//     over it), `?seed=N` a dealt game (tests);
//   - `connect`/`send`: the one socket to /ws (docs/protocol.md), opened again after a drop
//     with a growing pause, every message handed to `handlers[message.type]`;
//   - `game(...)`: a game page's seat: the first message on each (re)connect (watch, resume
//     the friend's token, resume this tab's game against the computer, or start one), the
//     token kept per tab, a closed friends' table, and the wins kept on this device.
"use strict";

const Parlour = (() => {
  const $ = (id) => document.getElementById(id);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const TITLES = { slapjack: "Slapjack", slabberjan: "Slabberjan", splunk: "Splunk" };
  // The computer's speeds, as the pages name them.
  const LEVELS = { easy: "Easy", normal: "Normal", hard: "Hard" };

  // ---- storage ------------------------------------------------------------------------------

  function load(key, fallback) {
    try {
      const value = JSON.parse(localStorage.getItem(key));
      return value === null ? fallback : value;
    } catch (e) {
      return fallback;
    }
  }
  function save(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  // session(key) reads, session(key, text) writes, session(key, null) removes.
  function session(key, value) {
    try {
      if (value === undefined) return sessionStorage.getItem(key);
      if (value === null) sessionStorage.removeItem(key);
      else sessionStorage.setItem(key, value);
    } catch (e) { /* storage off */ }
    return null;
  }

  // ---- the address ----------------------------------------------------------------------------

  const params = new URLSearchParams(location.search);
  const seed = params.get("seed");
  const link = {
    token: params.get("token"),
    watch: params.get("token") ? null : params.get("watch"),
    seed: seed !== null && /^\d+$/.test(seed) ? Number(seed) : null,
  };

  // ---- the socket -----------------------------------------------------------------------------

  let ws = null;
  let retry = 0;

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  // hello() is sent on every open (nothing when it returns null); lost() is told of a drop.
  function connect({ hello, handlers, lost }) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const mine = new WebSocket(`${scheme}://${location.host}/ws`);
    ws = mine;
    mine.onopen = () => {
      retry = 0;
      const first = hello ? hello() : null;
      if (first) send(first);
    };
    mine.onmessage = (e) => {
      let message;
      try { message = JSON.parse(e.data); } catch (err) { return; }
      const handler = handlers[message.type];
      if (handler) handler(message);
    };
    mine.onclose = () => {
      if (ws !== mine) return;
      if (lost) lost();
      // 0.4 s, 0.8 s ... at most 2 s: a restarted server is found quickly, a dead one is
      // not hammered.
      retry = Math.min(retry + 1, 5);
      setTimeout(() => connect({ hello, handlers, lost }), 400 * retry);
    };
  }

  // ---- the page's elements --------------------------------------------------------------------

  // The bar that says what to do next: a main line, a hint, a tone (a class).
  function bar(node, main, hint, tone) {
    node.innerHTML = "";
    const b = document.createElement("b");
    b.textContent = main;
    node.appendChild(b);
    if (hint) {
      const span = document.createElement("span");
      span.className = "hint";
      span.textContent = hint;
      node.appendChild(span);
    }
    node.className = "bar" + (tone ? ` ${tone}` : "");
  }

  // A `say(text, tone)` for a news line: news is about what just happened, after a few
  // seconds it is old and goes.
  function news(node) {
    let timer = 0;
    const say = (text, tone) => {
      node.textContent = text;
      node.className = "news" + (tone ? ` ${tone}` : "");
      clearTimeout(timer);
      if (text.trim()) timer = setTimeout(() => say(" "), 6000);
    };
    return say;
  }

  // aria-checked on each radio of `nodes` (a selector or a list): whether test(node) holds.
  function check(nodes, test) {
    const list = typeof nodes === "string" ? document.querySelectorAll(nodes) : nodes;
    for (const node of list) node.setAttribute("aria-checked", String(test(node)));
  }

  function flash(node, tone) {
    if (!node) return;
    node.classList.remove("flash-good", "flash-bad");
    void node.offsetWidth; // restart the animation
    node.classList.add(tone === "bad" ? "flash-bad" : "flash-good");
  }

  // `card` flies in from `from` to where `to` is. Short and fire-and-forget: the state is
  // already drawn, the animation never waits.
  function fly(card, from, to, duration) {
    if (!card || !from || !to || !card.animate) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    card.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.4 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ], { duration, easing: "cubic-bezier(.2,.8,.3,1)" });
  }

  // A seat's name; a person's seat played by the computer while they are away says so
  // (`seats` message, `away`).
  const seatLabel = (name, info) => name + (info && info.away ? " (computer)" : "");

  // ---- a game page's seat -----------------------------------------------------------------------
  //
  // game({name, bar, start, setting}) where `start()` gives the start message's settings
  // (players, level, options) and `setting()` names the setting wins are kept for (e.g.
  // "normal-3": the speed and the player count). Its `friends` is true at a table with friends (a seat's link, a watch
  // link, `welcome.friends`, or watching): the settings are the host's, it is not ours to
  // redeal, its token stays in the address and wins are not counted.

  function game({ name, bar: barNode, start, setting }) {
    const KEY_TOKEN = `parlour.${name}.token`;
    const KEY_WINS = `parlour.${name}.wins`;
    const KEY_COUNTED = `parlour.${name}.counted`;
    const G = {
      friends: Boolean(link.token || link.watch),
      watching: Boolean(link.watch),
      seat: null,

      startMessage() {
        const message = Object.assign({ type: "start", game: name }, start());
        if (link.seed !== null) message.seed = link.seed;
        return message;
      },

      hello() {
        if (link.watch) return { type: "watch", table: link.watch };
        if (link.token) return { type: "resume", token: link.token };
        // this tab's game against the computer, from before a reload
        const token = session(KEY_TOKEN);
        return token ? { type: "resume", token } : G.startMessage();
      },

      connect(handlers) {
        connect({
          hello: G.hello,
          handlers,
          lost: () => bar(barNode, "Connection lost: reconnecting…", ""),
        });
      },

      // Takes in a `welcome`; gives our seat (null when watching).
      welcome(m) {
        G.seat = typeof m.seat === "number" ? m.seat : null;
        G.watching = G.seat === null;
        G.friends = G.friends || Boolean(m.friends) || G.watching;
        if (!G.friends && m.token) session(KEY_TOKEN, m.token);
        return G.seat;
      },

      // A new game against the computer; false (nothing sent) at a table with friends.
      newGame() {
        if (G.friends) return false;
        session(KEY_TOKEN, null);
        send(G.startMessage());
        return true;
      },

      // The errors about our seat: true when handled. A friends' table that closed leaves
      // nothing to come back to and no game to start; our own stale game starts afresh.
      error(m) {
        if (G.friends && (m.code === "bad_token" || m.code === "unknown_table")) {
          bar(barNode, "This table has closed", "Back to the home page to find another", "bad");
          return true;
        }
        if (m.code === "bad_token") {
          session(KEY_TOKEN, null);
          send(G.startMessage());
          return true;
        }
        return false;
      },

      // Wins against the computer in the current setting; a table counts once however
      // often its win is shown. countWin() says whether it counted.
      wins() { return load(KEY_WINS, {})[setting()] || 0; },
      countWin(table) {
        if (G.friends || !table) return false;
        const stored = load(KEY_COUNTED, []);
        const counted = Array.isArray(stored) ? stored : [];
        if (counted.includes(table)) return false;
        counted.push(table);
        save(KEY_COUNTED, counted.slice(-50));
        const wins = load(KEY_WINS, {});
        const key = setting();
        wins[key] = (wins[key] || 0) + 1;
        save(KEY_WINS, wins);
        return true;
      },
    };
    return G;
  }

  return {
    $, plural, TITLES, LEVELS, load, save, session, link, send, connect, bar, news, check, flash,
    fly, seatLabel, game,
  };
})();
