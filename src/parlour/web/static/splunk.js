// The Splunk page: one WebSocket to the server (docs/protocol.md), the table drawn from the
// view the server sends, and the controls: a stack (click, tap or 1 to 4) to play your blind
// card, Call / C to call out the other player's last card, SLAP / Space to slap the stack
// just played on. The server is the referee; this page only shows and asks.
//
// Tables with friends: `?token=T` takes the seat that token names, `?watch=TABLE` watches
// as a spectator (every control off). The page never assumes it sits at seat 0.
"use strict";

(() => {
  const GAME = "splunk";
  const STACKS = 4;
  const KEY_SETTINGS = "parlour.splunk.settings";
  const KEY_ACCOUNT = "parlour.splunk.account.";
  const KIND_NAME = { pair: "a pair", sandwich: "a sandwich", joker: "a joker" };
  const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

  const { $, load, save, session, plural, LEVELS: LEVEL_NAME } = Parlour;
  const el = {
    bar: $("bar"), news: $("news"), stacks: $("stacks"), mySeat: $("my-seat"),
    theirSeat: $("their-seat"), call: $("call"), slap: $("slap"), jokers: $("jokers"),
    newGame: $("new-game"), winsCount: $("wins-count"), winsWhere: $("wins-where"),
    account: $("account"), accountEmpty: $("account-empty"),
  };
  const stackNodes = [...el.stacks.querySelectorAll(".stack")];

  const settings = Object.assign({ level: "normal", jokers: false }, load(KEY_SETTINGS, {}));
  if (!LEVEL_NAME[settings.level]) settings.level = "normal";
  settings.jokers = settings.jokers === true;

  const S = {
    seat: null, table: null, seats: [], view: null, level: settings.level,
    jokers: settings.jokers, waiting: false, drawn: [], account: [],
  };
  // The socket, this tab's token, a friend's seat (?token=T) or a table to watch
  // (?watch=TABLE), and the wins: client.js.
  const G = Parlour.game({
    name: GAME, bar: el.bar,
    start: () => ({ players: 2, level: S.level, options: { jokers: S.jokers } }),
    setting: () => `${S.level}-${S.jokers ? "jokers" : "plain"}`,
  });
  const { send } = Parlour;
  const watching = () => G.watching;

  function newGame() {
    if (!G.newGame()) return; // a friends' table is not ours to redeal
    if (S.table) session(KEY_ACCOUNT + S.table, null);
    S.view = null;
    S.table = null;
    setAccount([]);
    render();
    setBar("Dealing…", "");
  }

  const HANDLERS = {
    welcome(m) {
      S.seat = G.welcome(m);
      S.table = m.table;
      S.view = null; // the state that follows draws the table; until then, nothing stale
      S.seats = m.seats || [];
      if (m.level && LEVEL_NAME[m.level]) S.level = m.level;
      S.waiting = m.started === false;
      setAccount(loadAccount());
      showSettings();
      render();
    },
    seats(m) {
      // Who sits where changed (a friend left and the computer plays for them, or is back).
      if (Array.isArray(m.seats)) S.seats = m.seats;
      if (S.view) render();
    },
    state(m) {
      if (!m.view) return;
      S.waiting = false;
      S.view = m.view;
      S.jokers = Boolean(m.view.jokers);
      document.body.dataset.table = S.table || "";
      showSettings();
      render();
      // The deal's events came before this connection: a fresh game gets its first line here.
      if (!S.account.length && m.view.plays === 0 && m.view.turn !== null) startEntry(m.view.turn);
      if (S.seat !== null && m.view.winner === S.seat) countWin();
    },
    events(m) {
      if (!m.view) return;
      S.waiting = false;
      S.view = m.view;
      render();
      for (const event of m.events) show(event);
    },
    error(m) {
      if (G.error(m)) return;
      if (m.code === "rate_limited") {
        say("Easy there: too many at once.");
      } else if (m.code === "refused" || m.code === "bad_request") {
        if (m.about !== "action" || !/already did slap/.test(m.reason)) say(m.reason);
      } else if (m.about === "watch" || m.about === "resume") {
        setBar(m.about === "watch" ? "This table cannot be watched" : "This seat cannot be taken",
          m.reason || "", "bad");
      }
    },
    pong() {},
  };

  // ---- names and words --------------------------------------------------------------------

  function name(seat) {
    if (seat === S.seat) return "You";
    const given = (S.seats[seat] || {}).name;
    // A spectator of a game against the computer is not the "You" of that game.
    return given && !(S.seat === null && given === "You") ? given : `Player ${seat + 1}`;
  }
  const seatLabel = (seat) => Parlour.seatLabel(name(seat), S.seats[seat]);
  const lower = (seat) => (seat === S.seat ? "you" : name(seat));
  const takes = (seat) => (seat === S.seat ? "you take" : `${name(seat)} takes`);
  const other = (seat) => 1 - seat;
  const cardName = (card) => (card[0] === "X" ? "Joker" : Cards.cardName(card));
  const stackName = (i) => `stack ${i + 1}`;
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  // ---- cards: cards.js draws the 52, the jokers are drawn here ----------------------------

  function jokerSVG(card) {
    const colour = card === "X1" ? "#c8102e" : "#1b1b1f";
    const letters = "JOKER".split("").map((c, i) =>
      `<text x="11" y="${24 + i * 13}" text-anchor="middle">${c}</text>`).join("");
    return `<svg class="card-svg" viewBox="0 0 100 140" role="img" aria-label="Joker" data-card="${card}">` +
      `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#b9b4a8" stroke-width="1.5"/>` +
      `<g fill="${colour}" font-family="Arial, 'DejaVu Sans', sans-serif" font-weight="700" font-size="12">${letters}` +
      `<g transform="rotate(180 50 70)">${letters}</g></g>` +
      `<rect x="24" y="26" width="52" height="88" rx="6" fill="#fdf0c8" stroke="${colour}" stroke-width="2"/>` +
      `<path fill="${colour}" d="M50 40l6 15h16l-13 10 5 16-14-10-14 10 5-16-13-10h16z"/>` +
      `<text x="50" y="104" text-anchor="middle" fill="${colour}" font-family="Georgia, 'DejaVu Serif', serif" font-size="15" font-weight="700">0</text></svg>`;
  }
  const cardSVG = (card) => (card[0] === "X" ? jokerSVG(card) : Cards.cardSVG(card));

  const BACK = '<span class="card-back" aria-label="a face-down base"></span>';

  // ---- the account of calls and slaps -------------------------------------------------------
  //
  // An entry is {tone, parts}; a part is a string, {card} or {b: text}. Entries are kept in
  // this tab's storage per table, so that a reload tells the same story.

  function partNode(part) {
    if (typeof part === "string") return document.createTextNode(part);
    if (part.card) {
      const span = document.createElement("span");
      const c = part.card;
      span.className = "mini-card" + (c[1] === "H" || c[1] === "D" || c === "X1" ? " red" : "");
      span.textContent = c[0] === "X" ? "Joker" : `${c[0] === "T" ? "10" : c[0]}${SUIT[c[1]]}`;
      span.title = cardName(c);
      return span;
    }
    if (part.tag) {
      const tag = document.createElement("span");
      tag.className = "entry-tag";
      tag.textContent = part.tag;
      const both = document.createDocumentFragment();
      both.append(tag, " ");
      return both;
    }
    const b = document.createElement("b");
    b.textContent = part.b;
    return b;
  }

  function startEntry(first) {
    if (S.account.some((entry) => entry.tone === "start")) return;
    record("start", [{ tag: "Start" }, { b: S.view && S.view.jokers ? "New game with jokers" : "New game" },
      `: ${name(first)} ${first === S.seat ? "play" : "plays"} first.`]);
  }

  function entryNode(entry) {
    const li = document.createElement("li");
    li.className = `entry t-${entry.tone}`;
    for (const part of entry.parts) li.appendChild(partNode(part));
    return li;
  }

  function setAccount(entries) {
    S.account = entries;
    el.account.textContent = "";
    for (const entry of entries) el.account.prepend(entryNode(entry));
    el.accountEmpty.hidden = entries.length > 0;
  }

  function loadAccount() {
    if (!S.table) return [];
    try {
      const value = JSON.parse(session(KEY_ACCOUNT + S.table));
      return Array.isArray(value) ? value : [];
    } catch (e) {
      return [];
    }
  }

  function record(tone, parts) {
    const entry = { tone, parts };
    S.account.push(entry);
    if (S.account.length > 200) S.account.shift();
    el.account.prepend(entryNode(entry));
    el.accountEmpty.hidden = true;
    if (S.table) session(KEY_ACCOUNT + S.table, JSON.stringify(S.account));
  }

  function addToLast(parts) {
    // A new base belongs to the call or slap just told: it goes in the same entry.
    const entry = S.account[S.account.length - 1];
    if (!entry) return;
    entry.parts.push(...parts);
    const li = el.account.firstElementChild;
    if (li) for (const part of parts) li.appendChild(partNode(part));
    if (S.table) session(KEY_ACCOUNT + S.table, JSON.stringify(S.account));
  }

  // ---- what happened --------------------------------------------------------------------

  const say = Parlour.news(el.news);

  function reveal(stack, text, tone) {
    // Shown over the stack for a moment; it never blocks a click (pointer-events: none).
    const node = stackNodes[stack].querySelector(".reveal");
    node.textContent = text;
    node.className = `reveal ${tone}`;
    node.hidden = false;
    clearTimeout(node.timer);
    node.timer = setTimeout(() => { node.hidden = true; }, 2600);
  }

  function show(event) {
    const me = S.seat;
    switch (event.type) {
      case "first":
        startEntry(event.player);
        break;
      case "play": {
        animatePlay(event.player, event.stack);
        const who = name(event.player);
        // The stack has a new top card: an old call's or slap's label over it is gone.
        stackNodes[event.stack].querySelector(".reveal").hidden = true;
        const where = `on ${stackName(event.stack)}`;
        if (event.kind === "joker") say(`${who} played a joker ${where}!`, "jack");
        else if (event.kind) say(`${who} played the ${cardName(event.card)} ${where}: ${KIND_NAME[event.kind]}!`, "jack");
        else say(`${who} played the ${cardName(event.card)} ${where}.`);
        break;
      }
      case "call": {
        const caller = name(event.player);
        const right = event.over;
        const sum = [];
        event.cards.forEach((card, i) => { if (i) sum.push(" + "); sum.push({ card }); });
        record(right ? "call-right" : "call-wrong", [
          { tag: "Call" }, { b: `${caller} called ${lower(event.accused)} out` }, ` on ${stackName(event.stack)}. `,
          "The base was ", { card: event.base }, ": ", ...sum, " = ", { b: String(event.total) },
          right ? ": over 21, a right call. " : ": not over 21, a wrong call. ",
          { b: `${name(event.taker)} took the ${plural(event.cards.length, "card")}.` },
        ]);
        reveal(event.stack, `${event.total}: ${right ? "over 21!" : "not over"}`,
          right === (event.player === me) ? "good" : "bad");
        say(`${caller} called ${lower(event.accused)} out: ${event.total}, ${right ? "over 21" : "not over 21"}. ` +
          `${capital(takes(event.taker))} the stack.`,
        me === null ? "" : event.taker === me ? "bad" : "good");
        if (me !== null) flash(event.taker, "bad");
        break;
      }
      case "slap":
        record("slap", [
          { tag: "Slap" }, { b: `${name(event.player)} slapped ${KIND_NAME[event.kind]}` },
          ` on ${stackName(event.stack)} first. `,
          { b: `${name(event.taker)} took the ${plural(event.cards, "card")}.` },
        ]);
        reveal(event.stack, `Slapped by ${lower(event.player)}!`, event.player === me ? "good" : "other");
        say(`${event.player === me ? "You were" : name(event.player) + " was"} first: ` +
          `${takes(event.taker)} ${plural(event.cards, "card")}.`,
        me === null ? "" : event.player === me ? "good" : "bad");
        flash(event.player, "good");
        break;
      case "wrong_slap": {
        const why = event.reason === "not the latest play" ? "not the card just played"
          : "no pair, sandwich or joker";
        record("wrong", [
          { tag: "Wrong slap" }, { b: `Wrong slap by ${lower(event.player)}` }, ` on ${stackName(event.stack)} (${why}). `,
          { b: `${name(event.taker)} took the ${plural(event.cards, "card")}.` },
        ]);
        reveal(event.stack, "Wrong slap", "bad");
        say(`${name(event.player)} slapped ${stackName(event.stack)} wrongly (${why}): ` +
          `${takes(event.taker)} it.`, "bad");
        flash(event.player, "bad");
        break;
      }
      case "base":
        if (event.reason !== "setup") {
          addToLast([` ${name(event.player)} laid a new base on ${stackName(event.stack)}.`]);
        }
        break;
      case "slap_ignored":
        if (event.player === me) say("Too late: that card was already dealt with.");
        break;
      case "win": {
        const how = {
          last_play_stood: "the last card stood",
          no_card_for_base: "no card left for a new base",
          last_card_as_base: "the last card went down as a new base",
        }[event.reason] || "";
        record("win", [{ tag: "Win" }, { b: `${name(event.player)} won` }, how ? `: ${how}.` : "."]);
        if (me === null) say(`${name(event.player)} won the game.`);
        else if (event.player === me) { say("You won the game!", "good"); countWin(); }
        else say(`${name(event.player)} won the game.`, "bad");
        break;
      }
      default:
        break;
    }
  }

  function seatNode(seat) {
    const bottom = S.seat === null ? 0 : S.seat;
    return seat === bottom ? el.mySeat : el.theirSeat;
  }

  const flash = (seat, tone) => Parlour.flash(seatNode(seat), tone);

  function animatePlay(seat, stack) {
    const cards = stackNodes[stack].querySelectorAll(".stack-pile > .slot");
    const card = cards[cards.length - 1];
    Parlour.fly(card, seatNode(seat).querySelector(".deck"), card, 180);
  }

  // ---- drawing ------------------------------------------------------------------------------

  function buildStacks() {
    stackNodes.forEach((node, i) => {
      node.innerHTML = `<span class="stack-head"><kbd>${i + 1}</kbd><span class="stack-tag"></span></span>` +
        '<span class="stack-pile"></span><span class="stack-foot"></span><span class="reveal" hidden></span>';
      S.drawn[i] = null;
    });
  }

  function drawStack(i, stack, view) {
    const node = stackNodes[i];
    const key = `${stack.cards}|${stack.base}|${stack.up.join(",")}`;
    if (S.drawn[i] !== key) {
      S.drawn[i] = key;
      const slots = [];
      if (stack.base) slots.push(BACK);
      for (const card of stack.up) slots.push(cardSVG(card));
      const pile = node.querySelector(".stack-pile");
      // The newest three cards show their corners in full (pairs and sandwiches are made
      // of them); older cards squeeze together above them.
      const n = slots.length;
      const older = Math.max(0, n - 3);
      const step = older ? Math.min(0.25, 0.3 / older) : 0;
      pile.innerHTML = slots.map((html, k) => {
        const offset = k < older ? k * step : older * step + (k - older) * 0.25;
        return `<span class="slot" style="--k:${offset.toFixed(3)}">${html}</span>`;
      }).join("");
      if (!n) pile.innerHTML = '<span class="slot empty-slot" style="--k:0"></span>';
    }
    const up = stack.up.length;
    const foot = node.querySelector(".stack-foot");
    foot.textContent = "";
    const count = document.createElement("span");
    count.textContent = stack.cards ? plural(stack.cards, "card") : "empty";
    foot.appendChild(count);
    if (up) {
      // The face-up total only: the base counts too, but nobody knows it.
      const total = document.createElement("span");
      total.className = "up-total";
      total.textContent = `${stack.up_total} up`;
      foot.appendChild(total);
    }
    const slappable = view.slap_open === i && view.winner === null;
    const last = view.last_play && view.last_play.stack === i;
    node.classList.toggle("last", Boolean(last));
    node.classList.toggle("hot", slappable);
    const canPlay = S.seat !== null && view.turn === S.seat && view.winner === null;
    node.classList.toggle("playable", canPlay && !slappable);
    node.querySelector(".stack-tag").textContent = slappable ? "Slap!"
      : last ? "Last play" : "";
    node.setAttribute("aria-label", `Stack ${i + 1}: ${plural(stack.cards, "card")}` +
      (up ? `, face up ${stack.up.map(cardName).join(", ")}, up total ${stack.up_total}` : "") +
      (slappable ? ". Slap it!" : canPlay ? ". Play here" : ""));
    node.dataset.up = String(stack.up_total);
    node.disabled = S.seat === null;
  }

  function drawSeat(node, seat, p, view) {
    node.dataset.seat = String(seat);
    node.querySelector(".name").textContent = seatLabel(seat);
    node.querySelector(".count").textContent = plural(p.cards, "card");
    let status = "";
    if (view.winner === seat) status = "Winner!";
    else if (view.winner === null && p.cards === 0) status = "Last card down";
    else if (view.turn === seat && view.winner === null) {
      status = seat === S.seat ? "Your turn" : "Playing…";
    }
    node.querySelector(".status").textContent = status;
    node.classList.toggle("turn", view.turn === seat && view.winner === null);
    node.classList.toggle("winner", view.winner === seat);
    const deck = node.querySelector(".deck");
    deck.classList.toggle("empty", p.cards === 0);
    deck.style.setProperty("--depth", String(Math.min(6, Math.ceil(p.cards / 5))));
  }

  const setBar = (main, hint, tone) => Parlour.bar(el.bar, main, hint, tone);

  function callOpenFor(view, seat) {
    return seat !== null && view.call_open && view.last_play !== null
      && view.last_play.player !== seat && view.winner === null;
  }

  function drawBar(view) {
    const me = S.seat;
    const last = view.last_play;
    if (view.winner !== null) {
      if (me === null) setBar(`${name(view.winner)} won.`, "", "");
      else if (view.winner === me) setBar("You won!", G.friends ? "" : "Press New game to play again", "good");
      else setBar(`${name(view.winner)} won.`, G.friends ? "" : "Press New game to try again", "bad");
    } else if (me === null) {
      setBar(view.slap_open !== null
        ? `${capital(KIND_NAME[view.slap_kind])} on ${stackName(view.slap_open)}!`
        : `${name(view.turn)} plays next`,
      "You are watching", "");
    } else if (view.slap_open !== null) {
      setBar(`${capital(KIND_NAME[view.slap_kind])} on ${stackName(view.slap_open)}: slap it!`,
        "SLAP, Space or click the stack", "jack");
    } else if (view.turn === me) {
      if (callOpenFor(view, me)) {
        setBar(`Your turn: call out ${stackName(last.stack)}, or play a card`,
          "Call or C · a stack or 1 to 4", "go");
      } else {
        setBar("Your turn: choose a stack for your card", "Click a stack or press 1 to 4", "go");
      }
    } else if (view.players[me].cards === 0) {
      setBar("Your last card is down: if it stands, you win", `${name(view.turn)} may call it out or slap it`, "warn");
    } else {
      setBar(`${name(view.turn)} plays next`, "Watch for a pair, a sandwich or a joker", "");
    }
  }

  function render() {
    const view = S.view;
    document.body.classList.toggle("friends", G.friends);
    document.body.classList.toggle("watching", watching());
    document.body.dataset.state = !view ? "waiting"
      : view.winner === null ? "playing"
        : S.seat === null ? "over" : view.winner === S.seat ? "won" : "lost";
    const me = S.seat;
    const bottom = me === null ? 0 : me;
    if (!view) {
      stackNodes.forEach((node, i) => {
        S.drawn[i] = null;
        node.querySelector(".stack-pile").innerHTML = "";
        node.querySelector(".stack-foot").textContent = "";
        node.classList.remove("last", "hot", "playable");
        node.disabled = true;
      });
      el.call.disabled = el.slap.disabled = true;
      if (S.waiting) setBar("Waiting for the table to start", "The host starts the game", "");
      return;
    }
    drawSeat(el.mySeat, bottom, view.players[bottom], view);
    drawSeat(el.theirSeat, other(bottom), view.players[other(bottom)], view);
    view.stacks.forEach((stack, i) => drawStack(i, stack, view));
    el.stacks.dataset.plays = String(view.plays);
    const live = me !== null && view.winner === null;
    el.call.disabled = !(live && callOpenFor(view, me));
    el.slap.disabled = !(live && view.last_play !== null);
    el.slap.classList.toggle("hot", live && view.slap_open !== null);
    el.call.classList.toggle("ready", !el.call.disabled);
    drawBar(view);
  }

  // ---- wins, kept on this device ------------------------------------------------------------

  function countWin() {
    // Wins are counted against the computer, for its speed; not at a table of friends.
    if (G.countWin(S.table)) showSettings();
  }

  function showSettings() {
    el.winsCount.textContent = String(G.wins());
    el.winsWhere.textContent = `${LEVEL_NAME[S.level]}, ${S.jokers ? "with jokers" : "no jokers"}`;
    el.jokers.setAttribute("aria-checked", String(S.jokers));
    Parlour.check("[data-level]", (b) => b.dataset.level === S.level);
    const off = G.friends;
    for (const b of document.querySelectorAll("[data-level], #jokers, #new-game")) b.disabled = off;
  }

  function choose(change) {
    if (G.friends) return;
    Object.assign(S, change);
    save(KEY_SETTINGS, { level: S.level, jokers: S.jokers });
    showSettings();
    newGame();
  }

  // ---- doing --------------------------------------------------------------------------------

  function playing() {
    return S.view && S.seat !== null && S.view.winner === null;
  }

  function play(stack) {
    if (!playing()) return;
    const view = S.view;
    if (view.turn !== S.seat) {
      say(`It is ${name(view.turn)}'s turn to play.`);
      return;
    }
    send({ type: "action", action: { type: "play", stack } });
  }

  function call() {
    if (!playing()) return;
    if (!callOpenFor(S.view, S.seat)) {
      say(S.view.last_play === null ? "Nothing to call out yet."
        : "No call is open: you can call out only the other player's card, before you play.");
      return;
    }
    send({ type: "action", action: { type: "call" } });
  }

  function slap(stack) {
    if (!playing()) return;
    const view = S.view;
    const target = stack !== undefined ? stack
      : view.slap_open !== null ? view.slap_open : view.last_play && view.last_play.stack;
    if (target === null || target === undefined) {
      say("Nothing has been played yet: nothing to slap.");
      return;
    }
    // `at` names the play we saw: if someone was faster, this slap costs nothing.
    send({ type: "action", action: { type: "slap", stack: target, at: view.plays } });
  }

  function clickStack(i) {
    if (!playing()) return;
    // A stack that can be slapped is slapped; any other stack is only ever played on, so a
    // click can never be a wrong slap.
    if (S.view.slap_open === i) slap(i);
    else play(i);
  }

  stackNodes.forEach((node, i) => node.addEventListener("click", () => clickStack(i)));
  el.call.addEventListener("click", call);
  el.slap.addEventListener("click", () => slap());
  el.newGame.addEventListener("click", newGame);
  el.jokers.addEventListener("click", () => choose({ jokers: !S.jokers }));
  for (const b of document.querySelectorAll("[data-level]")) {
    b.addEventListener("click", () => choose({ level: b.dataset.level }));
  }

  const isSpace = (e) => e.code === "Space" || e.key === " ";
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (isSpace(e)) {
      // Space is the slap key everywhere on the page, never a button press or a scroll.
      e.preventDefault();
      if (!e.repeat) slap();
    } else if (/^[1-4]$/.test(e.key)) {
      e.preventDefault();
      if (!e.repeat) play(Number(e.key) - 1);
    } else if (e.key === "c" || e.key === "C") {
      e.preventDefault();
      if (!e.repeat) call();
    }
  });
  document.addEventListener("keyup", (e) => { if (isSpace(e)) e.preventDefault(); });

  buildStacks();
  showSettings();
  render();
  setBar(watching() ? "Connecting to the table…" : "Connecting…", "");
  G.connect(HANDLERS);
})();
