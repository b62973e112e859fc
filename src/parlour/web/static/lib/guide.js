// A first game teaches: the first time someone opens a game page, a short tour points at what
// to press and says why, one step at a time. "Skip" ends it, Escape too; it is not shown
// again on this device, and the header's "Show me how" opens it again at any time. A
// spectator is not toured, nor a browser driven by automation (it is no person opening the
// game for the first time: the tour's own test says it is one). While the tour is open the
// game's keys rest (it is an open <dialog>).
import { $, make } from "./dom.js";
import { link } from "./address.js";
import { load, save } from "./storage.js";

// steps: [{at: a selector (or null), title, text}]
export function guide(game, steps) {
  const KEY = `parlour.${game}.toured`;
  const title = make("h2", { id: "guide-title", class: "guide-title" });
  const text = make("p", { id: "guide-text", class: "guide-text" });
  const count = make("p", { class: "guide-count" });
  const skip = make("button", { type: "button", class: "button", text: "Skip the tour" });
  const back = make("button", { type: "button", class: "button", text: "Back" });
  const next = make("button", { type: "button", class: "button primary" });
  const box = make("dialog", { class: "guide", "aria-labelledby": "guide-title", "aria-describedby": "guide-text" },
    count, title, text, make("p", { class: "guide-buttons" }, skip, back, next));
  document.body.append(box);
  let at = 0;
  let lit = null;
  let before = null;

  function place(target) {
    box.style.left = box.style.top = "";
    if (!target || window.innerWidth < 600) return; // a phone: a sheet along the bottom (CSS)
    const r = target.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const below = r.top + r.height / 2 < window.innerHeight / 2;
    const top = below ? r.bottom + 14 : r.top - b.height - 14;
    const left = Math.min(window.innerWidth - b.width - 12, Math.max(12, r.left + r.width / 2 - b.width / 2));
    box.style.left = `${Math.round(left)}px`;
    box.style.top = `${Math.round(Math.min(window.innerHeight - b.height - 12, Math.max(12, top)))}px`;
  }

  function show(i) {
    at = i;
    const step = steps[i];
    if (lit) lit.classList.remove("guide-lit");
    lit = step.at ? document.querySelector(step.at) : null;
    if (lit) {
      lit.classList.add("guide-lit");
      lit.scrollIntoView({ block: "center", inline: "nearest" });
    }
    count.textContent = `${i + 1} of ${steps.length}`;
    title.textContent = step.title;
    text.textContent = step.text;
    back.hidden = i === 0;
    next.textContent = i === steps.length - 1 ? "Play" : "Next";
    place(lit);
    next.focus();
  }

  function open() {
    before = document.activeElement;
    if (!box.open) box.show();
    show(0);
  }

  function close() {
    save(KEY, true);
    if (lit) lit.classList.remove("guide-lit");
    lit = null;
    box.close();
    window.scrollTo({ top: 0 });
    if (before && before.isConnected && before !== document.body) before.focus();
  }

  next.addEventListener("click", () => (at === steps.length - 1 ? close() : show(at + 1)));
  back.addEventListener("click", () => show(Math.max(0, at - 1)));
  skip.addEventListener("click", close);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    }
  });
  window.addEventListener("resize", () => { if (box.open) place(lit); });
  const again = $("guide-again");
  if (again) again.addEventListener("click", open);
  if (!load(KEY, false) && !link.watch && !navigator.webdriver) open();
  return { open };
}
