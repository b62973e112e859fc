// The home page's list of open tables with friends, refreshed every few seconds from
// /api/tables (the server renders the first one, so the page works without this).
"use strict";

(() => {
  const TITLES = { slapjack: "Slapjack", slabberjan: "Slabberjan", splunk: "Splunk" };
  const box = document.getElementById("open-tables");
  if (!box) return;

  function draw(tables) {
    box.textContent = "";
    if (!tables.length) {
      const p = document.createElement("p");
      p.className = "none";
      p.textContent = "No open table right now: create one and share its link.";
      box.appendChild(p);
      return;
    }
    const list = document.createElement("ul");
    list.className = "open-tables";
    for (const t of tables) {
      const item = document.createElement("li");
      const join = document.createElement("a");
      join.className = "button";
      join.href = `/table/${encodeURIComponent(t.table)}`;
      join.textContent = "Join";
      const what = document.createElement("span");
      what.className = "what";
      const game = document.createElement("b");
      game.textContent = TITLES[t.game] || t.game;
      what.append(game, `, ${t.players} seats, ${t.free} free`);
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = `with ${t.people.join(", ")}`;
      item.append(join, what, who);
      list.appendChild(item);
    }
    box.appendChild(list);
  }

  async function refresh() {
    if (document.hidden) return;
    try {
      const response = await fetch("/api/tables", { cache: "no-store" });
      if (response.ok) draw((await response.json()).tables);
    } catch (e) { /* offline for a moment: keep the last list */ }
  }

  setInterval(refresh, 4000);
  document.addEventListener("visibilitychange", refresh);
})();
