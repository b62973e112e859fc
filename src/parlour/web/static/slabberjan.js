// The Slabberjan page: one WebSocket to the server (docs/protocol.md), the table drawn from
// the view the server sends (events only add what just happened: speech bubbles, swap
// arrows, the reveal), and the controls: Swap / S, Stand / T / Enter, Draw / D. The server is
// the referee; this page only shows and asks. Seats are never assumed: `welcome.seat` is
// ours (null when watching) and `welcome.seats` gives every name.
"use strict";

(() => {
  const GAME = "slabberjan";
  const CHIPS = [1, 2, 3, 5, 10];
  const KEY_SETTINGS = "parlour.slabberjan.settings";
  const LOG_LINES = 12; // kept; the middle of the table shows what fits, newest first
  const BUBBLE_MS = 6000;

  const { $, load, save, plural, LEVELS: LEVEL_NAME } = Parlour;
  const el = {
    bar: $("bar"), outside: $("outside"), ring: $("ring"), seats: $("seats"), arrows: $("arrows"), centre: $("centre"),
    pot: $("pot"), bag: $("bag"), round: $("round"), summary: $("summary"), log: $("log"),
    me: $("me"), myPiece: $("my-piece"), myWhat: $("my-what"), myChips: $("my-chips"),
    learned: $("learned"), swap: $("swap"), stand: $("stand"), draw: $("draw"),
    playersButton: $("players-button"), playersMenu: $("players-menu"),
    playersRange: $("players-range"), playersOut: $("players-out"), playersOk: $("players-ok"),
    playersOkN: $("players-ok-n"), chipsButton: $("chips-button"), chipsMenu: $("chips-menu"),
    freeChoice: $("free-choice"), newGame: $("new-game"), winsCount: $("wins-count"),
    winsWhere: $("wins-where"), wins: $("wins"), watching: $("watching"),
  };

  const validPlayers = (n) => Number.isInteger(n) && n >= 2 && n <= 42;

  const settings = Object.assign({ players: 5, level: "normal", chips: 3, freeChoice: false },
    load(KEY_SETTINGS, {}));
  if (!validPlayers(settings.players)) settings.players = 5;
  if (!LEVEL_NAME[settings.level]) settings.level = "normal";
  if (!CHIPS.includes(settings.chips)) settings.chips = 3;
  settings.freeChoice = settings.freeChoice === true;

  const S = {
    seat: null, table: null, seats: [], view: null,
    players: settings.players, level: settings.level, chips: settings.chips,
    freeChoice: settings.freeChoice, waitingStart: false, sent: false, undone: 0,
    showReveal: false, reveal: null, marks: {}, bubbles: {}, log: [], layout: null,
  };
  // The socket, this tab's token, a friend's seat (?token=T) or a table to watch
  // (?watch=TABLE), and the wins: client.js. At a table with friends (`G.friends`) the
  // settings are the host's, it is not ours to redeal, and wins count only against the
  // computer.
  const G = Parlour.game({
    name: GAME, bar: el.bar,
    start: () => ({
      players: S.players, level: S.level, options: { chips: S.chips, free_choice: S.freeChoice },
    }),
    setting: () => `${S.level}-${S.players}`,
  });
  const { send } = Parlour;

  function newGame() {
    if (!G.newGame()) return; // a friends' table is not ours to redeal
    S.view = null;
    resetRound();
    S.log = [];
    drawLog();
    render();
    setBar("Dealing…", "");
  }

  const HANDLERS = {
    welcome(m) {
      S.seat = G.welcome(m);
      S.table = m.table;
      S.seats = Array.isArray(m.seats) ? m.seats : [];
      S.players = m.players || S.seats.length;
      if (LEVEL_NAME[m.level]) S.level = m.level;
      S.waitingStart = m.started === false;
      document.body.classList.toggle("friends", G.friends);
      S.view = null;
      resetRound();
      buildSeats();
      showSettings();
      render();
    },
    seats(m) {
      if (!Array.isArray(m.seats)) return;
      S.seats = m.seats;
      for (let seat = 0; seat < S.seats.length; seat++) {
        const node = seatNode(seat);
        if (node) {
          node.querySelector(".sj-name").textContent = seatLabel(seat);
          node.title = seatLabel(seat);
        }
      }
    },
    state(m) {
      S.waitingStart = false;
      S.view = m.view;
      S.sent = false;
      // A reconnect draws the whole table from the view; the last reveal is in it too.
      S.reveal = m.view.revealed ? revealFrom(m.view.revealed, m.view.round - 1) : null;
      S.showReveal = false;
      S.marks = {};
      if (!S.log.length && m.view.winner === null) {
        note(`Round ${m.view.round}: ${verb(m.view.dealer, "deal", "deals")}.`);
        if (m.view.piece) note(`You drew ${a(m.view.piece)}.`, "mine");
      }
      render();
      if (S.reveal) drawSummary();
      if (S.seat !== null && m.view.winner === S.seat) countWin();
    },
    events(m) {
      S.waitingStart = false;
      const before = S.view;
      S.view = m.view;
      S.sent = false;
      for (const event of m.events) show(event, before);
      render();
    },
    error(m) {
      if (G.error(m)) return;
      if (m.code === "refused") {
        S.sent = false;
        note(`Not now: ${m.reason}.`, "bad");
      } else if (m.code === "bad_request" || m.code === "unknown_type" || m.code === "no_table") {
        note(m.reason, "bad");
        if (Parlour.link.watch) setBar("This table cannot be watched.", m.reason, "bad");
      } else if (m.code === "rate_limited") {
        note("Easy there: too many moves at once.", "bad");
      }
    },
    pong() {},
  };

  // ---- names and words ---------------------------------------------------------------------

  const isMe = (seat) => S.seat !== null && seat === S.seat;
  const name = (seat) => (isMe(seat) ? "You" : (S.seats[seat] || {}).name || `Seat ${seat}`);
  const seatLabel = (seat) => Parlour.seatLabel(name(seat), S.seats[seat]);
  const a = (piece) => Pieces.a(piece);
  // "You pay" / "Computer 2 pays"
  const verb = (seat, mine, theirs) => `${name(seat)} ${isMe(seat) ? mine : theirs}`;

  function nextIn(seat, players) {
    const n = players.length;
    for (let k = 1; k <= n; k++) {
      const s = (seat + k) % n;
      if (!players[s].out) return s;
    }
    return seat;
  }

  // ---- what happened -----------------------------------------------------------------------

  function note(text, tone) {
    S.log.unshift({ text, tone: tone || "" });
    S.log.length = Math.min(S.log.length, LOG_LINES);
    drawLog();
  }

  function drawLog() {
    el.log.textContent = "";
    for (const line of S.log) {
      const li = document.createElement("li");
      li.textContent = line.text;
      if (line.tone) li.className = line.tone;
      el.log.appendChild(li);
    }
  }

  function resetRound() {
    S.showReveal = false;
    S.marks = {};
    for (const seat of Object.keys(S.bubbles)) clearBubble(Number(seat));
    el.arrows.textContent = "";
  }

  function revealFrom(pieces, round) {
    return { round, pieces, pays: payersOf(pieces), outs: [], spared: false, computed: true };
  }

  // S10, for a reveal drawn from a view alone (after a reconnect): who paid.
  function payersOf(pieces) {
    const held = pieces.map((p, s) => [p, s]).filter(([p]) => p !== null);
    const fools = held.filter(([p]) => p === "fool").map(([, s]) => s);
    const others = held.filter(([p]) => p !== "fool")
      .map(([p, s]) => [Pieces.rank(p), s]).sort((x, y) => x[0] - y[0]);
    const need = fools.length >= 2 ? 2 : 1;
    const pays = {};
    if (others.length <= need) {
      for (const [, s] of held) pays[s] = "lowest";
      return pays;
    }
    const cutoff = others[need - 1][0];
    for (const s of fools) pays[s] = "fool";
    for (const [r, s] of others) if (r <= cutoff) pays[s] = "lowest";
    return pays;
  }

  function show(event, before) {
    const me = S.seat;
    switch (event.type) {
      case "deal": {
        S.undone = 0;
        el.arrows.textContent = ""; // a fresh deal: the swaps so far no longer matter
        if (event.deal > 1 && before && before.round === event.round) {
          note(`Fool over fool: ${verb(event.dealer, "deal", "deals")} again.`);
        } else {
          note(`Round ${event.round}: ${verb(event.dealer, "deal", "deals")}.`);
        }
        if (event.piece) note(`You drew ${a(event.piece)}.`, "mine");
        break;
      }
      case "stand":
        hideReveal();
        note(`${verb(event.player, "stand", "stands")}.`);
        break;
      case "swap": {
        hideReveal();
        arrow(event.player, event.target);
        if (event.gave !== undefined) {
          const other = event.player === me ? event.target : event.player;
          note(`You and ${name(other)} swapped: you gave ${a(event.gave)} and got ${a(event.got)}.`, "mine");
        } else {
          note(`${name(event.player)} swapped with ${name(event.target) === "You" ? "you" : name(event.target)}.`);
        }
        break;
      }
      case "announce": {
        hideReveal();
        const words = `“${event.words}”`;
        if (event.words === "fool over fool") {
          for (const s of event.players || []) bubble(s, words, "fool");
          note(`${name(event.players[0])} and ${name(event.players[1]) === "You" ? "you" : name(event.players[1])}: ${words}. Two fools: the pieces go back in the bag.`, "big");
        } else if (event.bag) {
          bubble(event.player, `From the bag: ${words}`, event.piece);
          note(`${verb(event.player, "draw", "draws")} ${a(event.piece)} from the bag: ${words}.`, "big");
        } else {
          bubble(event.holder, words, event.piece);
          const effect = {
            inn: "the swap goes on to the next player",
            cat: "every swap is undone",
            bird: "no more swaps, only the dealer's turn is left",
            knight: "the round ends at once",
          }[event.piece] || "";
          note(`${name(event.holder)} ${isMe(event.holder) ? "hold" : "holds"} ${a(event.piece)}: ${words}, ${effect}.`, "big");
        }
        break;
      }
      case "no_swap":
        note(`No swap for ${name(event.player) === "You" ? "you" : name(event.player)}: ${event.reason}.`);
        break;
      case "undo":
        el.arrows.textContent = "";
        S.undone = before && before.learned ? before.learned.length : 0;
        note(event.piece ? `Meow: every swap is undone. You have ${a(event.piece)} again.`
          : "Meow: every swap is undone.", "big");
        break;
      case "draw":
        hideReveal();
        arrow("bag", event.player);
        if (event.got !== undefined) {
          note(`You set aside ${a(event.gave)} and drew ${a(event.got)} from the bag.`, "mine");
        } else {
          note(`${name(event.player)} drew from the bag.`);
        }
        break;
      case "keep":
        note(`${verb(event.player, "keep", "keeps")} the piece: ${event.reason}.`);
        break;
      case "reveal":
        S.reveal = { round: before ? before.round : 1, pieces: event.pieces, pays: {}, outs: [], spared: false };
        S.showReveal = true;
        note(`Round ${S.reveal.round}: everyone shows their piece.`, "big");
        break;
      case "pay": {
        S.marks[event.player] = "pay";
        const why = { lowest: "the weakest piece", fool: "the fool", meow: "meow", "cut short": "cut short" }[event.reason] || event.reason;
        if (S.showReveal && (event.reason === "lowest" || event.reason === "fool")) {
          S.reveal.pays[event.player] = event.reason;
        }
        note(`${verb(event.player, "pay", "pays")} a chip (${why}).`, isMe(event.player) ? "bad" : "");
        break;
      }
      case "out":
        S.marks[event.player] = "out";
        if (S.reveal) S.reveal.outs.push(event.player);
        note(isMe(event.player) ? "You are out." : `${name(event.player)} is out.`, isMe(event.player) ? "bad" : "big");
        break;
      case "spared":
        if (S.reveal) S.reveal.spared = true;
        note("Nobody is out: everyone still in would have been, so all stay in with 0 chips.", "big");
        break;
      case "win":
        if (S.reveal) S.reveal.winner = event.player;
        if (isMe(event.player)) { note(`You won the game and the pot of ${event.pot}!`, "good"); countWin(); }
        else note(`${name(event.player)} won the game and the pot of ${event.pot}.`, "big");
        break;
      default:
        break;
    }
    if (event.type === "reveal" || event.type === "pay" || event.type === "out"
        || event.type === "spared" || event.type === "win") drawSummary();
  }

  // The first move after a reveal (or after a chip paid to a matador) turns the page back
  // to the round in play; the summary in the middle stays until the next reveal.
  function hideReveal() {
    if (S.showReveal) {
      // the announcements that ended the last round are old news now
      for (const seat of Object.keys(S.bubbles)) clearBubble(Number(seat));
    }
    S.showReveal = false;
    S.marks = {};
  }

  function drawSummary() {
    const r = S.reveal;
    el.summary.hidden = !r;
    if (!r) return;
    el.summary.textContent = "";
    const title = document.createElement("p");
    title.className = "sj-summary-title";
    title.textContent = r.computed ? "Last reveal" : `Round ${r.round}: the reveal`;
    el.summary.appendChild(title);
    const list = document.createElement("ul");
    for (const [seatText, reason] of Object.entries(r.pays)) {
      const seat = Number(seatText);
      const li = document.createElement("li");
      li.className = "pays";
      const piece = r.pieces[seat];
      li.innerHTML = piece ? Pieces.pieceSVG(piece, { label: false }) : "";
      const span = document.createElement("span");
      const out = r.outs.includes(seat);
      span.textContent = `${name(seat)} ${out ? (isMe(seat) ? "are out" : "is out") : (isMe(seat) ? "pay" : "pays")}` +
        (piece ? ` (${piece}${reason === "fool" ? "" : ", the weakest"})` : "");
      li.appendChild(span);
      if (out) li.classList.add("out");
      list.appendChild(li);
    }
    for (const seat of r.outs) {
      if (r.pays[seat] !== undefined) continue;
      const li = document.createElement("li");
      li.className = "pays out";
      li.textContent = `${name(seat)} ${isMe(seat) ? "are" : "is"} out`;
      list.appendChild(li);
    }
    if (r.spared) {
      const li = document.createElement("li");
      li.textContent = "Nobody is out: all would have been";
      list.appendChild(li);
    }
    if (r.winner !== undefined) {
      const li = document.createElement("li");
      li.className = "win";
      li.textContent = `${verb(r.winner, "win", "wins")} the game!`;
      list.appendChild(li);
    }
    el.summary.appendChild(list);
  }

  function bubble(seat, text, piece) {
    const node = seatNode(seat);
    if (!node) return;
    clearBubble(seat);
    const b = document.createElement("div");
    b.className = `sj-bubble ${node.dataset.side || "up"}`;
    b.setAttribute("role", "note");
    b.innerHTML = piece ? Pieces.pieceSVG(piece, { label: false }) : "";
    const span = document.createElement("span");
    span.textContent = text;
    b.appendChild(span);
    node.appendChild(b);
    S.bubbles[seat] = { node: b, timer: setTimeout(() => clearBubble(seat), BUBBLE_MS) };
  }

  function clearBubble(seat) {
    const b = S.bubbles[seat];
    if (!b) return;
    clearTimeout(b.timer);
    b.node.remove();
    delete S.bubbles[seat];
  }

  function arrow(from, to) {
    const p = S.layout && S.layout.centres;
    if (!p || !p[from] || !p[to] || S.layout.grid) return;
    const ns = "http://www.w3.org/2000/svg";
    const line = document.createElementNS(ns, "line");
    const [x1, y1] = p[from];
    const [x2, y2] = p[to];
    line.setAttribute("x1", x1); line.setAttribute("y1", y1);
    line.setAttribute("x2", x2); line.setAttribute("y2", y2);
    line.setAttribute("class", isMe(from) || isMe(to) ? "mine" : "");
    el.arrows.appendChild(line);
    while (el.arrows.childNodes.length > 8) el.arrows.firstChild.remove();
  }

  // ---- the table ----------------------------------------------------------------------------

  function seatNode(seat) {
    return el.seats.querySelector(`.sj-seat[data-seat="${seat}"]`);
  }

  function buildSeats() {
    el.seats.textContent = "";
    el.arrows.textContent = "";
    const n = S.seats.length;
    for (let seat = 0; seat < n; seat++) {
      const node = document.createElement("div");
      node.className = "sj-seat" + (isMe(seat) ? " mine" : "");
      node.dataset.seat = String(seat);
      node.innerHTML = '<span class="sj-dealer" title="Dealer" hidden>D</span>' +
        '<span class="sj-mark" hidden></span>' +
        '<p class="sj-name"></p><div class="sj-piece"></div>' +
        '<p class="sj-chips"></p>';
      const label = seatLabel(seat);
      node.querySelector(".sj-name").textContent = label;
      node.title = label;
      el.seats.appendChild(node);
    }
    el.ring.dataset.count = String(n);
    layout();
  }

  // Seats go round the table clockwise from ours at the bottom (our left neighbour is the
  // next seat clockwise), evenly spaced along a rounded rectangle; below a readable tile size
  // they fall back to a grid in the same order.
  function ringPoints(n, ax, by, tw, th, p) {
    // Many seats are placed greedily along the curve, each one tile-distance `d` from the
    // one before (tile-distance: the larger of |dx| / width and |dy| / height, so that two
    // seats `d` >= 1 apart never overlap, on the sides and round the corners alike), with
    // the largest `d` that fits n seats. Returns the points and how far apart they are.
    const e = 2 / p;
    const samples = 3000, pts = [];
    for (let i = 0; i <= samples; i++) {
      const t = Math.PI / 2 + (i / samples) * 2 * Math.PI;
      const c = Math.cos(t), s = Math.sin(t);
      pts.push([ax * Math.sign(c) * Math.abs(c) ** e, by * Math.sign(s) * Math.abs(s) ** e]);
    }
    const far = (a, b) => Math.max(Math.abs(a[0] - b[0]) / tw, Math.abs(a[1] - b[1]) / th);
    const walk = (d) => {
      const out = [pts[0]];
      let last = pts[0];
      for (let i = 1; i <= samples && out.length < n; i++) {
        while (out.length < n && far(pts[i], last) >= d) {
          // the point on this segment exactly d from the last seat
          let lo = 0, hi = 1;
          const a = pts[i - 1], b = pts[i];
          const at = (f) => [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
          if (far(a, last) >= d) lo = 0; else {
            for (let k = 0; k < 20; k++) {
              const mid = (lo + hi) / 2;
              if (far(at(mid), last) >= d) hi = mid; else lo = mid;
            }
            lo = hi;
          }
          last = at(lo);
          out.push(last);
        }
      }
      return out;
    };
    if (n <= 8) {
      // few seats: evenly spaced by length along the curve, which keeps them symmetric
      const lengths = [0];
      for (let i = 1; i <= samples; i++) {
        lengths.push(lengths[i - 1] + Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]));
      }
      const out = [];
      let j = 0;
      for (let k = 0; k < n; k++) {
        const want = (k / n) * lengths[samples];
        while (j < samples - 1 && lengths[j + 1] < want) j++;
        const f = Math.min(1, (want - lengths[j]) / (lengths[j + 1] - lengths[j] || 1));
        out.push([pts[j][0] + f * (pts[j + 1][0] - pts[j][0]), pts[j][1] + f * (pts[j + 1][1] - pts[j][1])]);
      }
      let room = n > 1 ? Infinity : 2;
      for (let i = 0; i < n; i++) {
        for (let k = i + 1; k < n; k++) room = Math.min(room, far(out[i], out[k]));
      }
      return { points: out, room };
    }
    let lo = 0.2, hi = 4;
    for (let k = 0; k < 24; k++) {
      const mid = (lo + hi) / 2;
      const out = walk(mid);
      if (out.length === n && far(out[n - 1], pts[0]) >= mid) lo = mid; else hi = mid;
    }
    return { points: walk(lo), room: n > 1 ? lo : 2 };
  }

  function layout() {
    const n = S.seats.length;
    if (!n) return;
    const W = el.ring.clientWidth;
    const bottom = S.seat === null ? 0 : S.seat;
    const order = Array.from({ length: n }, (_, k) => (bottom + k) % n);
    const phone = W < 600;
    const p = n > 8 ? 5 : 3;
    const maxW = phone ? 96 : 150;
    const height = (th) => (phone ? Math.max(2 * th + 190, Math.min(W * 1.05, 460))
      : Math.max(2 * th + 250, Math.min(W * 0.56, n > 24 ? 700 : n > 12 ? 640 : 440)));
    const tileHeight = (tw) => (tw >= 110 ? 112 : tw >= 84 ? (phone ? 86 : 96) : 76);
    // first guess from the perimeter, then shrink until no two seats touch
    let H = height(110);
    const perimeter = 2 * (W + H) * (p > 3 ? 0.9 : 0.8);
    let tw = Math.max(40, Math.min(maxW, (perimeter / n) * 0.92));
    let th = Math.min(tileHeight(tw), tw * 1.1);
    let points = [];
    for (let pass = 0; pass < 12; pass++) {
      H = height(th);
      const ring = ringPoints(n, (W - tw) / 2, (H - th) / 2, tw, th, p);
      points = ring.points;
      const room = ring.room;
      if (room >= 1.06 && (room < 1.2 || tw >= maxW)) break;
      tw *= room / 1.08;
      th = Math.min(tileHeight(tw), th * room / 1.08);
    }
    const grid = tw < 64;
    el.ring.classList.toggle("grid", grid);
    document.body.classList.toggle("sj-many", grid);
    el.ring.dataset.size = tw >= 110 ? "large" : tw >= 84 ? "medium" : "small";
    const centres = {};
    if (grid) {
      el.ring.style.height = "";
      el.centre.removeAttribute("style");
      order.forEach((seat, k) => {
        const node = seatNode(seat);
        node.style.cssText = `order:${k}`;
        node.dataset.side = "down";
      });
      S.layout = { grid: true, centres };
      placeNews(true);
      return;
    }
    el.ring.style.height = `${Math.round(H)}px`;
    el.ring.style.setProperty("--tw", `${tw.toFixed(1)}px`);
    el.ring.style.setProperty("--th", `${th.toFixed(1)}px`);
    el.ring.dataset.shape = p > 3 ? "square" : "round";
    const ax = (W - tw) / 2, by = (H - th) / 2;
    const boxes = [];
    order.forEach((seat, k) => {
      const [x, y] = points[k];
      const cx = W / 2 + x, cy = H / 2 + y;
      centres[seat] = [cx, cy];
      boxes.push([x - tw / 2, y - th / 2, x + tw / 2, y + th / 2]);
      const node = seatNode(seat);
      node.style.cssText = `left:${(cx - tw / 2).toFixed(1)}px;top:${(cy - th / 2).toFixed(1)}px;` +
        `width:${tw.toFixed(1)}px;height:${th.toFixed(1)}px`;
      // speech bubbles open towards the middle of the table
      node.dataset.side = Math.abs(y) / by >= Math.abs(x) / ax ? (y > 0 ? "up" : "down") : (x > 0 ? "left" : "right");
    });
    // the middle: the largest box around the centre that no seat covers (up to 560 x 260)
    let best = [0, 0];
    for (let cw = Math.min(W - 16, 560); cw >= 140; cw -= 10) {
      let ch = Math.min(H - 16, 260);
      for (const [x0, y0, x1, y1] of boxes) {
        if (x1 > -cw / 2 - 6 && x0 < cw / 2 + 6) {
          const gap = y0 >= 0 ? y0 : y1 <= 0 ? -y1 : 0;
          ch = Math.min(ch, 2 * gap - 12);
        }
      }
      if (ch >= 80 && cw * Math.min(ch, 220) > best[0] * Math.min(best[1], 220)) best = [cw, ch];
    }
    const [cw, ch] = best;
    el.centre.style.cssText = `left:${((W - cw) / 2).toFixed(1)}px;top:${((H - ch) / 2).toFixed(1)}px;` +
      `width:${cw}px;height:${ch.toFixed(1)}px`;
    el.arrows.setAttribute("viewBox", `0 0 ${W} ${Math.round(H)}`);
    centres.bag = [W / 2, H / 2];
    S.layout = { grid: false, centres };
    placeNews(cw >= 300 && ch >= 180);
  }

  // The reveal and what happened go in the middle of the table when there is room, else
  // just below the bar.
  function placeNews(inside) {
    const home = inside ? el.centre : el.outside;
    if (el.summary.parentElement !== home) {
      home.appendChild(el.summary);
      home.appendChild(el.log);
    }
  }

  function drawSeat(node, seat, p, view) {
    const shownPiece = S.showReveal && S.reveal ? S.reveal.pieces[seat] : null;
    let piece = null;
    let face = "back";
    if (p.out && !shownPiece) face = "none";
    else if (shownPiece) { piece = shownPiece; face = "up"; }
    else if (isMe(seat) && view.piece) { piece = view.piece; face = "up"; }
    else if (p.shown) { piece = p.shown; face = "up"; }
    const key = `${face}:${piece}`;
    const box = node.querySelector(".sj-piece");
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      box.innerHTML = face === "up" ? Pieces.pieceSVG(piece, { label: node.closest("[data-size=large]") !== null })
        : face === "back" ? Pieces.backSVG({ label: false }) : "";
    }
    const over = view.winner !== null;
    const chips = node.querySelector(".sj-chips");
    chips.textContent = p.out ? "Out" : `● ${p.chips}`;
    chips.title = p.out ? "Out of the game" : plural(p.chips, "chip");
    node.querySelector(".sj-dealer").hidden = view.dealer !== seat || p.out || over;
    const mark = node.querySelector(".sj-mark");
    const m = S.marks[seat];
    mark.hidden = !m;
    mark.textContent = m === "out" ? "Out" : m === "pay" ? "−1" : "";
    mark.className = `sj-mark ${m || ""}`;
    node.classList.toggle("turn", view.turn === seat && !over);
    node.classList.toggle("out", p.out);
    node.classList.toggle("winner", view.winner === seat);
    node.classList.toggle("revealed", face === "up" && S.showReveal);
    node.classList.toggle("pays", S.showReveal && S.reveal && S.reveal.pays[seat] !== undefined);
  }

  const setBar = (main, hint, tone) => Parlour.bar(el.bar, main, hint, tone);

  function turnsUntilMe(view) {
    // Turns run from the turn seat to the dealer (S3); after a bird only the dealer is left.
    if (view.turn === null || S.seat === null || view.players[S.seat].out) return null;
    if (view.bird) return S.seat === view.dealer ? 1 : null;
    let seat = view.turn, k = 0;
    for (let guard = 0; guard < view.players.length; guard++) {
      if (seat === S.seat) return k;
      if (seat === view.dealer) return null;
      seat = nextIn(seat, view.players);
      k++;
    }
    return null;
  }

  function drawBar(view) {
    const me = S.seat;
    if (view.winner !== null) {
      if (isMe(view.winner)) setBar("You won!", G.friends ? "You take the pot" : "You take the pot. Press New game to play again", "good");
      else setBar(`${name(view.winner)} won.`, me === null ? "The game is over" : G.friends ? "" : "Press New game to try again", me === null ? "" : "bad");
      return;
    }
    if (me === null) {
      setBar(`Watching: ${name(view.turn)}'s turn`, view.bird ? "The bird stopped the swaps" : "", "");
      return;
    }
    const mine = view.players[me];
    if (mine.out) { setBar("You are out.", G.friends ? "Watch the end of the game" : "Watch the end, or press New game", "bad"); return; }
    const legal = view.legal || [];
    if (view.turn === me && legal.length) {
      const left = name(nextIn(me, view.players));
      if (legal.includes("draw")) {
        setBar(view.bird ? "The bird stopped the swaps: you deal, draw from the bag or stand"
          : "You are the dealer: draw from the bag or stand", "Draw (D) · Stand (T or Enter)", "go");
      } else if (legal.includes("swap") && legal.includes("stand")) {
        setBar(`Your turn: swap with ${left}, or stand`, "Swap (S) · Stand (T or Enter) · free choice", "go");
      } else if (legal.includes("swap")) {
        setBar(`Your turn: swap with ${left}`, "Below the inn you must try: Swap or S", "go");
      } else if (Pieces.isMatador(view.piece)) {
        setBar(`Your turn: you hold ${a(view.piece)}, a matador: stand`, "Stand, T or Enter", "go");
      } else {
        setBar("Your turn: stand", view.bag === 0 ? "The bag is empty: Stand, T or Enter" : "Stand, T or Enter", "go");
      }
      return;
    }
    const k = turnsUntilMe(view);
    const who = view.turn === view.dealer ? `${name(view.turn)} (the dealer)` : name(view.turn);
    const hint = k === null ? "You have had your turn this round"
      : k === 1 ? "You are next" : `Your turn comes after ${plural(k, "more player")}`;
    setBar(view.turn === view.dealer ? `${who}: draw or stand` : `${who}'s turn`, hint, "");
  }

  function drawMe(view) {
    const me = S.seat;
    el.me.classList.toggle("watching", me === null);
    if (me === null || !view) {
      el.myPiece.innerHTML = Pieces.backSVG();
      el.myWhat.textContent = me === null ? "Watching: every piece stays hidden until the reveal" : " ";
      el.myChips.textContent = " ";
      el.learned.textContent = "";
      return;
    }
    const p = view.players[me];
    const piece = view.piece;
    const key = piece || "none";
    if (el.myPiece.dataset.key !== key) {
      el.myPiece.dataset.key = key;
      el.myPiece.innerHTML = piece ? Pieces.pieceSVG(piece) : Pieces.backSVG();
    }
    if (p.out) el.myWhat.textContent = "You are out of the game";
    else if (piece) {
      const r = Pieces.rank(piece);
      const words = Pieces.isMatador(piece) ? `, a matador: you never swap it; “${Pieces.WORDS[piece]}”`
        : piece === "fool" ? ", the weakest piece" : r <= 3 ? ", below zero" : "";
      el.myWhat.textContent = `Your piece: ${a(piece)}${words}`;
    } else el.myWhat.textContent = " ";
    el.myChips.textContent = `${plural(p.chips, "chip")}${view.dealer === me && !p.out && view.winner === null ? " · you deal this round" : ""}`;
    el.learned.textContent = "";
    (view.learned || []).forEach((fact, i) => {
      const li = document.createElement("li");
      li.textContent = (fact.with === "bag"
        ? `From the bag: you set aside ${a(fact.gave)} and drew ${a(fact.got)}`
        : `With ${name(fact.with)}: you gave ${a(fact.gave)}, got ${a(fact.got)}`) +
        (i < S.undone ? " (undone by the cat)" : "");
      el.learned.appendChild(li);
    });
  }

  function render() {
    const view = S.view;
    const watching = S.seat === null && S.table !== null;
    document.body.dataset.state = S.waitingStart || !view ? "waiting"
      : view.winner !== null ? (isMe(view.winner) ? "won" : S.seat === null ? "over" : "lost")
        : watching ? "watching" : "playing";
    el.watching.hidden = !watching;
    el.wins.hidden = G.friends;
    for (const b of document.querySelectorAll(".controls button")) b.disabled = G.friends;
    if (!view) {
      el.swap.disabled = el.stand.disabled = el.draw.disabled = true;
      if (S.waitingStart) setBar("Waiting for the table to start", "The host starts the game", "");
      el.pot.textContent = "0";
      el.bag.textContent = "–";
      el.round.textContent = " ";
      drawMe(null);
      return;
    }
    view.players.forEach((p, seat) => {
      const node = seatNode(seat);
      if (node) drawSeat(node, seat, p, view);
    });
    el.pot.textContent = String(view.pot);
    el.bag.textContent = String(view.bag);
    el.bag.parentElement.title = `The bag: ${plural(view.bag, "piece")} nobody drew` +
      (view.set_aside ? `; ${view.set_aside} set aside this round` : "");
    el.round.textContent = view.winner !== null ? "Game over"
      : `Round ${view.round} · ${name(view.dealer)} ${isMe(view.dealer) ? "deal" : "deals"}` +
        (view.bird ? " · the bird: no more swaps" : "") + (view.free_choice ? " · free choice" : "");
    const legal = S.seat === null || S.sent ? [] : view.legal || [];
    el.swap.disabled = !legal.includes("swap");
    el.stand.disabled = !legal.includes("stand");
    el.draw.disabled = !legal.includes("draw");
    el.ring.classList.toggle("reveal", S.showReveal);
    drawBar(view);
    drawMe(view);
  }

  // ---- wins, kept on this device ------------------------------------------------------------

  function countWin() {
    // wins are counted against the computer, for its speed
    if (G.countWin(S.table)) showSettings();
  }

  function showSettings() {
    el.winsCount.textContent = String(G.wins());
    el.winsWhere.textContent = `${LEVEL_NAME[S.level]}, ${S.players} players`;
    el.playersButton.textContent = `${S.players} players`;
    el.chipsButton.textContent = plural(S.chips, "chip");
    el.freeChoice.textContent = `Free choice: ${S.freeChoice ? "on" : "off"}`;
    el.freeChoice.setAttribute("aria-pressed", String(S.freeChoice));
    Parlour.check("[data-level]", (b) => b.dataset.level === S.level);
    Parlour.check(el.playersMenu.querySelectorAll("[data-players]"),
      (b) => Number(b.dataset.players) === S.players);
    Parlour.check(el.chipsMenu.querySelectorAll("[data-chips]"), (b) => Number(b.dataset.chips) === S.chips);
    el.playersRange.value = String(S.players);
    el.playersOut.textContent = el.playersOkN.textContent = String(S.players);
  }

  function choose(change) {
    if (G.friends) return;
    Object.assign(S, change);
    save(KEY_SETTINGS, { players: S.players, level: S.level, chips: S.chips, freeChoice: S.freeChoice });
    showSettings();
    newGame();
  }

  // ---- doing --------------------------------------------------------------------------------

  function act(type) {
    const view = S.view;
    if (!view || S.seat === null || view.winner !== null) return;
    const legal = view.legal || [];
    if (!legal.includes(type) || S.sent) {
      if (view.turn !== S.seat) note(`Not your turn: it is ${name(view.turn)}'s.`);
      else if (!S.sent) note(`You cannot ${type} now: ${legal.length ? "you may " + legal.join(" or ") : "wait"}.`);
      return;
    }
    S.sent = true; // one move per turn: a double press sends nothing more
    render();
    send({ type: "action", action: { type } });
  }

  const menus = [[el.playersMenu, el.playersButton], [el.chipsMenu, el.chipsButton]];
  function openMenu(menu, button, open) {
    for (const [m, b] of menus) {
      const show = m === menu && open;
      m.hidden = !show;
      b.setAttribute("aria-expanded", String(show));
    }
    if (open) {
      const current = menu.querySelector("[aria-checked=true]") || menu.querySelector("button");
      if (current) current.focus();
    }
  }
  const anyMenuOpen = () => menus.some(([m]) => !m.hidden);

  el.swap.addEventListener("click", () => act("swap"));
  el.stand.addEventListener("click", () => act("stand"));
  el.draw.addEventListener("click", () => act("draw"));
  el.newGame.addEventListener("click", newGame);
  for (const [menu, button] of menus) {
    button.addEventListener("click", (e) => {
      e.stopPropagation();
      openMenu(menu, button, menu.hidden);
    });
  }
  for (const b of el.playersMenu.querySelectorAll("[data-players]")) {
    b.addEventListener("click", () => {
      openMenu(null, null, false);
      choose({ players: Number(b.dataset.players) });
    });
  }
  el.playersRange.addEventListener("input", () => {
    el.playersOut.textContent = el.playersOkN.textContent = el.playersRange.value;
  });
  el.playersOk.addEventListener("click", () => {
    openMenu(null, null, false);
    choose({ players: Number(el.playersRange.value) });
  });
  for (const b of el.chipsMenu.querySelectorAll("[data-chips]")) {
    b.addEventListener("click", () => { openMenu(null, null, false); choose({ chips: Number(b.dataset.chips) }); });
  }
  el.freeChoice.addEventListener("click", () => choose({ freeChoice: !S.freeChoice }));
  for (const b of document.querySelectorAll("[data-level]")) {
    b.addEventListener("click", () => choose({ level: b.dataset.level }));
  }
  document.addEventListener("click", (e) => {
    for (const [menu, button] of menus) {
      if (!menu.hidden && !menu.contains(e.target) && e.target !== button) openMenu(menu, button, false);
    }
  });

  const typing = (t) => t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
  const pressable = (t) => t && (t.tagName === "BUTTON" || t.tagName === "A" || t.tagName === "INPUT");
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { openMenu(null, null, false); return; }
    if (anyMenuOpen() || typing(e.target) || e.repeat) return;
    const key = e.key.toLowerCase();
    if (key === "s") { e.preventDefault(); act("swap"); }
    else if (key === "t") { e.preventDefault(); act("stand"); }
    else if (key === "d") { e.preventDefault(); act("draw"); }
    // Enter on a focused button presses that button; elsewhere it stands.
    else if (e.key === "Enter" && !pressable(e.target)) { e.preventDefault(); act("stand"); }
  });

  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { layout(); render(); }, 80);
  });

  showSettings();
  render();
  setBar(Parlour.link.watch ? "Joining the table…" : "Connecting…", "");
  G.connect(HANDLERS);
})();
