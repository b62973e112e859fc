// The Slapjack page: one WebSocket to the server (docs/protocol.md), the table drawn from
// the view the server sends, and the controls: tap your deck / Flip / F to flip, tap the
// pile / SLAP / Space to slap. The server is the referee; this page only shows and asks.
"use strict";

(() => {
  const GAME = "slapjack";
  const KEY_SETTINGS = "parlour.slapjack.settings";
  const { $, load, save, plural, LEVELS: LEVEL_NAME } = Parlour;
  const el = {
    bar: $("bar"), news: $("news"), pile: $("pile"), pileCount: $("pile-count"),
    badge: $("pile-badge"), opponents: $("opponents"), mySeat: $("my-seat"),
    myDeck: $("my-deck"), flip: $("flip"), slap: $("slap"), playersButton: $("players-button"),
    playersMenu: $("players-menu"), newGame: $("new-game"), winsCount: $("wins-count"),
    winsWhere: $("wins-where"),
  };

  const settings = Object.assign({ players: 2, level: "normal" }, load(KEY_SETTINGS, {}));
  if (![2, 3, 4].includes(settings.players)) settings.players = 2;
  if (!LEVEL_NAME[settings.level]) settings.level = "normal";

  const S = {
    seat: null, table: null, seats: [], view: null, players: settings.players,
    level: settings.level, lastTop: undefined, badgeTimer: 0, started: true,
  };
  // The socket, this tab's token, a friend's seat (?token=T) or a table to watch
  // (?watch=TABLE), and the wins: client.js.
  const G = Parlour.game({
    name: GAME, bar: el.bar, start: () => ({ players: S.players, level: S.level }),
    setting: () => `${S.level}-${S.players}`,
  });
  const { send } = Parlour;
  document.body.classList.toggle("friends", G.friends);
  document.body.classList.toggle("watching", G.watching);

  function newGame() {
    if (!G.newGame()) return; // a friends' table is not ours to redeal
    S.view = null;
    S.lastTop = undefined;
    render();
    setBar("Dealing…", "");
  }

  const HANDLERS = {
    welcome(m) {
      S.seat = G.welcome(m);
      S.started = m.started !== false;
      document.body.classList.toggle("friends", G.friends);
      document.body.classList.toggle("watching", G.watching);
      S.table = m.table;
      S.seats = m.seats;
      S.players = m.players;
      S.level = m.level;
      buildSeats();
      showSettings();
      if (!S.started) {
        S.view = null;
        render();
        setBar("Waiting for the table to start", "The host starts the game", "");
      }
    },
    seats(m) {
      S.seats = m.seats;
      for (let seat = 0; seat < S.seats.length; seat++) {
        const node = seatNode(seat);
        if (node && seat !== S.seat) node.querySelector(".name").textContent = seatLabel(seat);
      }
    },
    state(m) {
      S.started = true;
      S.view = m.view;
      S.lastTop = undefined;
      render();
      if (m.view.winner === S.seat) countWin();
    },
    events(m) {
      S.started = true;
      const before = S.view;
      S.view = m.view;
      render();
      for (const event of m.events) show(event, before);
    },
    error(m) {
      if (G.error(m)) return;
      if (m.code === "rate_limited") {
        say("Easy there: too many slaps at once.");
      } else if (m.code === "bad_request") {
        say(m.reason);
      }
    },
    pong() {},
  };

  // ---- what happened --------------------------------------------------------------------

  const name = (seat) => (seat === S.seat ? "You" : (S.seats[seat] || {}).name || `Seat ${seat}`);
  const seatLabel = (seat) => Parlour.seatLabel(name(seat), S.seats[seat]);
  const cardName = (card) => Cards.cardName(card);
  const say = Parlour.news(el.news);

  function badge(text, tone) {
    el.badge.textContent = text;
    el.badge.className = `badge ${tone}`;
    el.badge.hidden = false;
    clearTimeout(S.badgeTimer);
    S.badgeTimer = setTimeout(() => { el.badge.hidden = true; }, 1400);
  }

  const flash = (seat, tone) => Parlour.flash(seatNode(seat), tone);

  function show(event, before) {
    const me = S.seat;
    switch (event.type) {
      case "flip":
        animateFlip(event.player);
        if (event.card[0] === "J") say(`A Jack from ${name(event.player) === "You" ? "you" : name(event.player)}!`, "jack");
        break;
      case "take":
        if (event.reason === "jack") {
          badge(`✋ ${name(event.player)} slapped the Jack!`, event.player === me ? "good" : "other");
          flash(event.player, "good");
          say(event.player === me ? `You were first and took ${event.cards} cards.`
            : `${name(event.player)} slapped the Jack first and took ${event.cards} cards.`,
          event.player === me ? "good" : "");
        } else {
          say(`Nobody has a card left to flip: ${name(event.player) === "You" ? "you take" : name(event.player) + " takes"} the pile.`);
        }
        break;
      case "wrong_slap": {
        const who = name(event.player);
        badge(`✋ Wrong slap: ${who}`, "bad");
        flash(event.player, "bad");
        el.pile.classList.remove("shake");
        void el.pile.offsetWidth;
        el.pile.classList.add("shake");
        let what;
        if (event.penalty === "out") what = "with no card to give: out of the game";
        else if (event.to === null) what = "a card goes under the pile";
        else what = `a card goes to ${event.to === me ? "you" : name(event.to)}`;
        say(`${who} slapped the ${cardName(event.card)}: not a Jack, ${what}.`, "bad");
        break;
      }
      case "slap_ignored":
        if (event.player === me) {
          say(event.reason === "empty" ? "The pile is empty: nothing to slap."
            : "Too late: that card is gone.");
        }
        break;
      case "out":
        say(event.player === me ? "You are out." : `${name(event.player)} is out.`,
          event.player === me ? "bad" : "");
        break;
      case "win":
        if (event.player === me) { say("You won the game!", "good"); countWin(); }
        else say(`${name(event.player)} won the game.`, "bad");
        break;
      default:
        break;
    }
    if (before && event.type === "flip" && event.player !== me) clearSoftNews(event);
  }

  function clearSoftNews(event) {
    // A plain flip by someone else replaces old news unless it is fresh or a Jack.
    if (event.card[0] !== "J" && !el.news.classList.contains("bad")
        && !el.news.classList.contains("good")) say(" ");
  }

  function seatNode(seat) {
    if (seat === S.seat) return el.mySeat;
    return el.opponents.querySelector(`.seat[data-seat="${seat}"]`);
  }

  function animateFlip(seat) {
    Parlour.fly(el.pile.querySelector(".card-svg"), seatNode(seat), el.pile, 170);
  }

  // ---- drawing ------------------------------------------------------------------------------

  function buildSeats() {
    el.opponents.textContent = "";
    const n = S.seats.length;
    // A spectator has no seat of its own: every seat is across the table.
    const first = S.seat === null ? 0 : S.seat + 1;
    for (let k = 0; k < (S.seat === null ? n : n - 1); k++) {
      const seat = (first + k) % n;
      const node = document.createElement("div");
      node.className = "seat";
      node.dataset.seat = String(seat);
      node.innerHTML = `<div class="deck small" aria-hidden="true"></div><div class="seat-info">` +
        `<p class="name"></p><p class="count"></p><p class="status"></p></div>`;
      node.querySelector(".name").textContent = seatLabel(seat);
      el.opponents.appendChild(node);
    }
    el.opponents.dataset.count = String(el.opponents.children.length);
    el.mySeat.dataset.seat = String(S.seat);
    el.mySeat.hidden = S.seat === null;
  }

  function drawSeat(node, seat, p, view) {
    node.querySelector(".count").textContent = p.out ? "" : plural(p.cards, "card");
    let status = "";
    if (view.winner === seat) status = "Winner!";
    else if (p.out) status = "Out";
    else if (p.cards === 0) status = "Next Jack or out";
    else if (view.turn === seat && view.winner === null) status = seat === S.seat ? "Your turn" : "Flipping…";
    node.querySelector(".status").textContent = status;
    node.classList.toggle("turn", view.turn === seat && view.winner === null);
    node.classList.toggle("out", p.out);
    node.classList.toggle("waiting", !p.out && p.cards === 0);
    node.classList.toggle("winner", view.winner === seat);
    const deck = node.querySelector(".deck");
    deck.classList.toggle("empty", p.cards === 0);
    deck.style.setProperty("--depth", String(Math.min(6, Math.ceil(p.cards / 5))));
  }

  const setBar = (main, hint, tone) => Parlour.bar(el.bar, main, hint, tone);

  function drawBar(view) {
    const me = S.seat;
    if (me === null) {
      if (view.winner !== null) setBar(`${name(view.winner)} won.`, "Watching", "");
      else if (view.slappable) setBar("A Jack is on top!", "Watching", "jack");
      else setBar(view.turn === null ? "Watch the pile" : `${name(view.turn)} flips next`, "Watching", "");
      return;
    }
    const mine = view.players[me];
    if (view.winner !== null) {
      const again = G.friends ? "" : "Press New game to play again";
      if (view.winner === me) setBar("You won!", again, "good");
      else setBar(`${name(view.winner)} won.`, G.friends ? "" : "Press New game to try again", "bad");
    } else if (mine.out) {
      setBar("You are out.", G.friends ? "" : "Press New game to play again", "bad");
    } else if (view.slappable) {
      setBar("Jack! Slap it!", "Tap the pile, SLAP or Space", "jack");
    } else if (view.turn === me) {
      setBar("Your turn: flip a card", "Tap your deck, Flip or F", "go");
    } else if (mine.cards === 0) {
      setBar("No cards left: slap the next Jack or you are out", "Slap only a Jack", "warn");
    } else if (view.turn !== null) {
      setBar(`${name(view.turn)} flips next`, "Watch for a Jack", "");
    } else {
      setBar("Watch the pile", "", "");
    }
  }

  function render() {
    const view = S.view;
    document.body.dataset.state = !view ? "waiting"
      : view.winner === null ? "playing" : view.winner === S.seat ? "won" : "lost";
    if (!view) {
      S.lastTop = undefined;
      el.pile.innerHTML = '<span class="pile-empty">Dealing…</span>';
      el.pileCount.textContent = "";
      return;
    }
    const me = S.seat;
    view.players.forEach((p, seat) => {
      const node = seatNode(seat);
      if (node) drawSeat(node, seat, p, view);
    });
    const topKey = view.top === null ? null : `${view.flips}:${view.top}`;
    if (topKey !== S.lastTop) {
      S.lastTop = topKey;
      if (view.top === null) {
        el.pile.innerHTML = '<span class="pile-empty">Empty pile</span>';
      } else {
        const tilt = ((view.flips * 37) % 15) - 7;
        el.pile.innerHTML = Cards.cardSVG(view.top);
        el.pile.querySelector(".card-svg").style.rotate = `${tilt}deg`;
      }
    }
    el.pile.dataset.flips = String(view.flips);
    el.pile.classList.toggle("jack", Boolean(view.slappable));
    el.pile.classList.toggle("stacked", view.pile > 1);
    el.pileCount.textContent = view.pile ? plural(view.pile, "card") + " in the pile" : "";
    const canFlip = me !== null && view.turn === me && view.winner === null;
    el.flip.disabled = !canFlip;
    el.myDeck.disabled = !canFlip;
    el.slap.disabled = me === null || view.winner !== null || view.players[me].out;
    el.slap.classList.toggle("hot", Boolean(view.slappable));
    drawBar(view);
  }

  // ---- wins, kept on this device ------------------------------------------------------------

  function countWin() {
    if (G.countWin(S.table)) showSettings();
  }

  function showSettings() {
    el.winsCount.textContent = String(G.wins());
    el.winsWhere.textContent = `${LEVEL_NAME[S.level]}, ${S.players} players`;
    el.playersButton.textContent = `${S.players} players`;
    Parlour.check("[data-level]", (b) => b.dataset.level === S.level);
    Parlour.check(el.playersMenu.querySelectorAll("[data-players]"),
      (b) => Number(b.dataset.players) === S.players);
  }

  function choose(change) {
    Object.assign(S, change);
    save(KEY_SETTINGS, { players: S.players, level: S.level });
    showSettings();
    newGame();
  }

  // ---- doing --------------------------------------------------------------------------------

  function flip() {
    const view = S.view;
    if (!view || view.winner !== null || S.seat === null) return;
    if (view.turn !== S.seat) {
      if (view.players[S.seat].cards === 0) say("You have no cards to flip: wait for the next Jack.");
      else if (view.slappable) say("A Jack is on top: slap it!");
      else say(`It is ${name(view.turn)}'s turn to flip.`);
      return;
    }
    send({ type: "action", action: { type: "flip" } });
  }

  function slap() {
    const view = S.view;
    if (!view || view.winner !== null || S.seat === null) return;
    // `at` names the card we saw: if someone was faster, this slap costs nothing.
    send({ type: "action", action: { type: "slap", at: view.flips } });
  }

  function openMenu(open) {
    el.playersMenu.hidden = !open;
    el.playersButton.setAttribute("aria-expanded", String(open));
    if (open) {
      const current = el.playersMenu.querySelector(`[data-players="${S.players}"]`);
      if (current) current.focus();
    }
  }

  el.flip.addEventListener("click", flip);
  el.myDeck.addEventListener("click", flip);
  el.slap.addEventListener("click", slap);
  el.pile.addEventListener("click", slap);
  el.newGame.addEventListener("click", newGame);
  el.playersButton.addEventListener("click", (e) => {
    e.stopPropagation();
    openMenu(el.playersMenu.hidden);
  });
  for (const b of el.playersMenu.querySelectorAll("[data-players]")) {
    b.addEventListener("click", () => { openMenu(false); choose({ players: Number(b.dataset.players) }); });
  }
  for (const b of document.querySelectorAll("[data-level]")) {
    b.addEventListener("click", () => choose({ level: b.dataset.level }));
  }
  document.addEventListener("click", (e) => {
    if (!el.playersMenu.hidden && !el.playersMenu.contains(e.target)) openMenu(false);
  });

  const isSpace = (e) => e.code === "Space" || e.key === " ";
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { openMenu(false); return; }
    if (!el.playersMenu.hidden) return;
    if (isSpace(e)) {
      // Space is the slap key everywhere on the page, never a button press or a scroll.
      e.preventDefault();
      if (!e.repeat) slap();
    } else if (e.key === "f" || e.key === "F") {
      e.preventDefault();
      if (!e.repeat) flip();
    }
  });
  document.addEventListener("keyup", (e) => {
    if (isSpace(e) && el.playersMenu.hidden) e.preventDefault();
  });

  showSettings();
  render();
  setBar("Connecting…", "");
  G.connect(HANDLERS);
})();
