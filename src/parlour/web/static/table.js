// A table with friends: /table creates one, /table/<id> is its waiting room (the link to
// share). Everything goes through the socket of docs/protocol.md: `create`, `join`, `sit`,
// `speed`, `begin`, `leave`; the server answers with `seated` and `lobby`. When the host
// starts, each seated browser goes to the game page with its seat token; others may watch.
"use strict";

(() => {
  // The options each game's page offers (checked again by the game on the server).
  const OPTIONS = {
    slabberjan: [
      { key: "chips", label: "Chips each", type: "select", values: [1, 2, 3, 5, 10], value: 3 },
      { key: "free_choice", label: "Free choice: anyone but the dealer may stand", type: "check" },
    ],
    splunk: [{ key: "jokers", label: "Play with the two Jokers", type: "check" }],
  };
  const KEY_NAME = "parlour.name";
  const tokenKey = (table) => `parlour.table.${table}`;

  const { $, send, session, TITLES, LEVELS } = Parlour;
  const parts = location.pathname.split("/").filter(Boolean);
  const S = {
    table: parts[1] || null, token: null, seat: null, lobby: null, games: [], creating: false,
  };
  if (S.table) S.token = session(tokenKey(S.table));

  function storedName() { try { return localStorage.getItem(KEY_NAME) || ""; } catch (e) { return ""; } }
  function keepName(name) { try { localStorage.setItem(KEY_NAME, name); } catch (e) { /* private */ } }

  // ---- the socket (client.js): on each (re)connect, join the room we are in -------------

  function hello() {
    if (!S.table) return null;
    return S.token ? { type: "join", table: S.table, token: S.token } : { type: "join", table: S.table };
  }

  const HANDLERS = {
    seated(m) {
      S.table = m.table;
      S.token = m.token;
      S.seat = m.seat;
      session(tokenKey(m.table), m.token);
      // The link to share is known now, before the room's first `lobby` arrives.
      $("link").value = `${location.origin}/table/${m.table}`;
      if (location.pathname !== `/table/${m.table}`) history.replaceState(null, "", `/table/${m.table}`);
      error("");
      showRoom();
      if (S.lobby) drawRoom();
    },
    lobby(m) {
      S.lobby = m;
      showRoom();
      drawRoom();
    },
    error(m) {
      if (m.code === "bad_token") {
        session(tokenKey(S.table), null);
        S.token = null;
        S.seat = null;
        if (S.lobby) drawRoom();
        return;
      }
      if (m.code === "unknown_table") {
        showRoom();
        status("This table does not exist any more: it closed when everybody left.", "bad");
        $("share").hidden = true;
        $("sit-form").hidden = true;
      }
      if (m.about === "create") S.creating = false;
      error(m.reason);
    },
  };

  // ---- drawing ------------------------------------------------------------------------------

  function status(text, tone) {
    const node = $("status");
    node.textContent = text;
    node.className = "room-status" + (tone ? ` ${tone}` : "");
  }

  function error(text) { $("error").textContent = text; }

  function showRoom() {
    $("create").hidden = true;
    $("room").hidden = false;
  }

  function drawRoom() {
    const m = S.lobby;
    const title = TITLES[m.game] || m.game;
    document.title = `${title} with friends - Parlour`;
    $("room-title").textContent = `${title} with friends`;
    $("link").value = `${location.origin}/table/${m.table}`;
    const list = $("seats");
    list.textContent = "";
    m.seats.forEach((seat, i) => {
      const item = document.createElement("li");
      item.className = `seat-${seat.kind}` + (i === S.seat ? " seat-me" : "");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = `Seat ${i + 1}`;
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = seat.kind === "open" ? "Free seat" : seat.name;
      item.append(num, who);
      const tag = (text, kind) => {
        const t = document.createElement("span");
        t.className = `tag ${kind}`;
        t.textContent = text;
        item.appendChild(t);
      };
      if (i === m.host) tag("Host", "host");
      if (i === S.seat) tag("You", "you");
      if (seat.kind === "computer") tag(`Computer, ${LEVELS[seat.level] || seat.level}`, "");
      if (seat.kind === "open") tag(m.started ? "" : "a computer if nobody sits", "");
      list.appendChild(item);
    });

    const seated = S.seat !== null && S.token !== null;
    const host = seated && S.seat === m.host;
    $("leave").hidden = !seated || m.closed;
    $("share").hidden = m.closed || m.started;
    $("sit-form").hidden = seated || m.started || m.closed || m.free === 0;
    $("host").hidden = !host || m.started || m.closed;
    $("watch").hidden = !m.started || m.closed || seated;
    $("watch").href = `/${m.game}?watch=${encodeURIComponent(m.table)}`;
    Parlour.check($("speed").querySelectorAll("[data-level]"), (b) => b.dataset.level === m.level);
    const people = m.seats.filter((s) => s.kind === "person").length;
    $("begin-note").textContent = m.free
      ? `${m.free === 1 ? "The free seat gets a computer player" : `The ${m.free} free seats get computer players`} (${LEVELS[m.level]}).`
      : "Every seat is taken.";

    if (m.closed) {
      status("This table has closed.", "bad");
    } else if (m.started) {
      if (seated) {
        status("The game has started: taking you to your seat…", "go");
        location.assign(`/${m.game}?token=${encodeURIComponent(S.token)}`);
      } else {
        status("The game has started. You can watch it.", "go");
      }
    } else if (host) {
      status(people > 1 ? `${people} people seated. Start when everyone is here.`
        : "Send the link to your friends, then start the game.", "");
    } else if (seated) {
      status(`You are seated. Waiting for ${m.seats[m.host].name} (the host) to start the game…`, "");
    } else if (m.free === 0) {
      status("Every seat is taken. You can watch once the game starts.", "");
    } else {
      status(`${m.seats[m.host].name} invites you to a game of ${title}. Type your name to take a seat.`, "go");
    }
  }

  // ---- creating -----------------------------------------------------------------------------

  function drawCreate() {
    $("create").hidden = false;
    const select = $("game");
    const wanted = new URLSearchParams(location.search).get("game");
    select.textContent = "";
    for (const g of S.games) {
      const option = document.createElement("option");
      option.value = g.game;
      option.textContent = g.title;
      select.appendChild(option);
    }
    if (S.games.some((g) => g.game === wanted)) select.value = wanted;
    gameChanged();
  }

  function gameChanged() {
    const g = S.games.find((x) => x.game === $("game").value);
    if (!g) return;
    const input = $("players");
    const [low, high] = g.seats;
    input.min = String(low);
    input.max = String(high);
    const n = Number(input.value);
    if (!(n >= low && n <= high)) input.value = String(Math.min(Math.max(n || low, low), high));
    $("players-range").textContent = low === high ? `${low} seats` : `${low} to ${high}`;
    input.disabled = low === high;
    const box = $("options");
    box.textContent = "";
    for (const o of OPTIONS[g.game] || []) {
      const label = document.createElement("label");
      if (o.type === "check") {
        label.className = "check";
        label.innerHTML = '<input type="checkbox"> <span></span>';
        label.querySelector("span").textContent = o.label;
      } else {
        label.className = "field";
        label.textContent = o.label;
        const sel = document.createElement("select");
        for (const v of o.values) {
          const opt = document.createElement("option");
          opt.value = String(v);
          opt.textContent = String(v);
          sel.appendChild(opt);
        }
        sel.value = String(o.value);
        label.appendChild(sel);
      }
      label.dataset.option = o.key;
      box.appendChild(label);
    }
  }

  function options(game) {
    const result = {};
    for (const o of OPTIONS[game] || []) {
      const node = $("options").querySelector(`[data-option="${o.key}"]`);
      if (!node) continue;
      if (o.type === "check") result[o.key] = node.querySelector("input").checked;
      else result[o.key] = Number(node.querySelector("select").value);
    }
    return result;
  }

  $("game").addEventListener("change", gameChanged);
  $("create-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("create-name").value.trim();
    if (!name) { error("Type your name: your friends will see it."); $("create-name").focus(); return; }
    const game = $("game").value;
    keepName(name);
    S.creating = true;
    send({ type: "create", game, players: Number($("players").value), level: "normal",
      name, options: options(game) });
  });

  // ---- in the room ----------------------------------------------------------------------------

  $("sit-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("sit-name").value.trim();
    if (!name) { error("Type your name to take a seat."); $("sit-name").focus(); return; }
    keepName(name);
    send({ type: "sit", table: S.table, name });
  });
  for (const b of $("speed").querySelectorAll("[data-level]")) {
    b.addEventListener("click", () => send({ type: "speed", level: b.dataset.level }));
  }
  $("begin").addEventListener("click", () => send({ type: "begin" }));
  $("leave").addEventListener("click", () => {
    send({ type: "leave" });
    session(tokenKey(S.table), null);
    S.token = null;
    S.seat = null;
    error("");
    if (S.lobby) drawRoom();
  });
  $("copy").addEventListener("click", async () => {
    const input = $("link");
    try {
      await navigator.clipboard.writeText(input.value);
      $("copy").textContent = "Copied";
    } catch (e) {
      input.select();  // no clipboard (plain http): let the person copy it
    }
  });

  $("create-name").value = storedName();
  $("sit-name").value = storedName();
  if (S.table) {
    showRoom();
  } else {
    fetch("/api/tables").then((r) => r.json()).then((data) => {
      S.games = data.games;
      drawCreate();
    }).catch(() => error("Could not load the games: reload the page."));
  }
  Parlour.connect({
    hello, handlers: HANDLERS, lost: () => status("Connection lost: reconnecting…", "bad"),
  });
})();
