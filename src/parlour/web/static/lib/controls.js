// The row of settings above a game: the computer's speed, the players, the game's options,
// New game and the wins. The server renders it from the game's spec
// (templates/_controls.html); this wires it: a choice is handed to choose(change).
import { $, check, plural } from "./dom.js";
import { menus } from "./menus.js";
import { radioKeys } from "./radios.js";

// choose({level}), choose({players}) or choose({options: {name: value}}).
export function controls(root, { choose, newGame, spec }) {
  const popups = menus(root);
  radioKeys();
  const radios = root.querySelectorAll("[data-level]");
  const toggles = root.querySelectorAll("button[data-option]");
  // a menu of numbers: the players, or an option such as the chips
  const pickers = [...root.querySelectorAll(".popover[data-setting]")].map((menu) => {
    const setting = menu.dataset.setting;
    return {
      setting, menu,
      button: root.querySelector(`[aria-controls="${menu.id}"]`),
      items: menu.querySelectorAll(`[data-${setting}]`),
      range: menu.querySelector("input[type=range]"),
      shown: menu.querySelectorAll("[data-shows-range]"),
      ok: menu.querySelector("[data-ok]"),
    };
  });
  const change = (setting, value) => (setting === "players" ? { players: value }
    : { options: { [setting]: value } });
  const value = (settings, setting) => (setting === "players" ? settings.players
    : settings.options[setting]);

  for (const b of radios) b.addEventListener("click", () => choose({ level: b.dataset.level }));
  for (const p of pickers) {
    for (const item of p.items) {
      item.addEventListener("click", () => {
        popups.close();
        choose(change(p.setting, Number(item.dataset[p.setting])));
      });
    }
    if (p.range) {
      p.range.addEventListener("input", () => {
        for (const node of p.shown) node.textContent = p.range.value;
      });
      p.ok.addEventListener("click", () => {
        popups.close();
        choose(change(p.setting, Number(p.range.value)));
      });
    }
  }
  let current = null;
  for (const t of toggles) {
    t.addEventListener("click", () => {
      const name = t.dataset.option;
      if (current) choose({ options: { [name]: !current.options[name] } });
    });
  }
  const again = $("new-game");
  if (again) again.addEventListener("click", newGame);

  return {
    menuOpen: popups.isOpen,

    // Shows `settings`; `wins` is {count, where}; `locked`: the settings are the host's.
    show(settings, wins, locked) {
      current = settings;
      check(radios, (b) => b.dataset.level === settings.level);
      const level = spec && spec.levels.find((l) => l.name === settings.level);
      if (level && $("speed-about")) {
        $("speed-about").textContent = level.about;
        $("speed-about").classList.toggle("beyond", Boolean(level.beyond_rules));
      }
      for (const p of pickers) {
        const n = value(settings, p.setting);
        p.button.textContent = plural(n, p.button.dataset.unit);
        check(p.items, (item) => Number(item.dataset[p.setting]) === n);
        if (p.range) p.range.value = String(n);
        for (const node of p.shown) node.textContent = String(n);
      }
      for (const t of toggles) {
        const on = Boolean(settings.options[t.dataset.option]);
        t.setAttribute("aria-checked", String(on));
        t.textContent = `${t.dataset.text}: ${on ? "on" : "off"}`;
      }
      if ($("wins-count")) {
        $("wins-count").textContent = String(wins.count);
        $("wins-where").textContent = wins.where;
      }
      // the hints and the sound are this person's own, at any table
      // (and so are the quick reactions, lib/reactions.js)
      for (const b of root.querySelectorAll("button:not(#hints):not(#sound):not(#react-button):not([data-reaction])")) {
        b.disabled = locked;
      }
    },
  };
}
