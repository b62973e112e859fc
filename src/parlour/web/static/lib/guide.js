// A first game teaches: the first time someone opens a game page, a short tour points at what
// to press and says why, one step at a time. "Skip" ends it, Escape too; it is not shown
// again on this device, and the header's "Show me how" opens it again at any time. A
// spectator is not toured, nor a browser driven by automation (it is no person opening the
// game for the first time: the tour's own test says it is one). While the tour is open the
// game's keys rest (it is an open <dialog>), but the game goes on: when what a step points at
// moves (a computer's move redraws the page, the bar takes another line), the box follows it.
import { $, make } from "./dom.js";
import { link } from "./address.js";
import { load, save } from "./storage.js";

// The opening paragraph of the rules below the table (templates/game.html renders them from
// rules/<game>.md): what the game is, in the rules' own words, for the tour's first step.
export function lead() {
  const first = document.querySelector("#rules p");
  return first ? first.textContent.replace(/\s+/g, " ").trim() : "";
}

// steps: [{at: a selector (or null), title, text}]; `text` may be lead(), the first words of
// the rules below the table. firstControl() gives what has the focus after the tour when
// nothing had it before (lib/play.js starts the tour with the page's controls).
export function guide(game, steps, firstControl = () => null) {
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
  let where = ""; // where the lit target was when the box was last placed beside it

  // Beside what the step points at, never over it: below, above, right or left of it,
  // whichever fits the screen without covering it (or covers least). On a phone the tour is
  // a sheet along the bottom, or along the top when what it points at is low.
  function place(target) {
    box.style.left = box.style.top = "";
    box.classList.remove("at-top");
    if (!target) return 0;
    const r = target.getBoundingClientRect();
    const over = (b) => Math.max(0, Math.min(b.right, r.right) - Math.max(b.left, r.left))
      * Math.max(0, Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top));
    if (window.innerWidth < 600) {
      if (over(box.getBoundingClientRect()) > 0) box.classList.add("at-top");
      return over(box.getBoundingClientRect());
    }
    const b = box.getBoundingClientRect();
    const W = window.innerWidth, H = window.innerHeight;
    const clampX = (x) => Math.min(W - b.width - 12, Math.max(12, x));
    const clampY = (y) => Math.min(H - b.height - 12, Math.max(12, y));
    const midX = r.left + r.width / 2 - b.width / 2, midY = r.top + r.height / 2 - b.height / 2;
    const spots = [[midX, r.bottom + 14], [midX, r.top - b.height - 14],
      [r.right + 14, midY], [r.left - b.width - 14, midY]].map(([x, y]) => {
      const left = clampX(x), top = clampY(y);
      return { left, top, cost: over({ left, top, right: left + b.width, bottom: top + b.height }) };
    });
    const best = spots.reduce((p, q) => (q.cost < p.cost ? q : p));
    box.style.left = `${Math.round(best.left)}px`;
    box.style.top = `${Math.round(best.top)}px`;
    return best.cost;
  }

  // The target in the middle of the screen, or, when the tour would cover it there, at the
  // top or the bottom of it, which leaves room on the other side.
  function showAt(target) {
    for (const block of ["center", "start", "end"]) {
      if (target) target.scrollIntoView({ block, inline: "nearest" });
      if (place(target) === 0) return seen(target);
    }
    target.scrollIntoView({ block: "center", inline: "nearest" });
    place(target);
    seen(target);
  }

  function spot(target) {
    if (!target) return "";
    const r = target.getBoundingClientRect();
    return `${r.left},${r.top},${r.width},${r.height},${innerWidth},${innerHeight}`;
  }
  let scrolled = 0;
  function seen(target) {
    where = spot(target);
    scrolled = window.scrollY;
  }

  // The page redraws as the game goes on: a moved target takes the box with it, beside it
  // where it now is, scrolling only when no place on the screen is clear of it and the
  // player did not scroll it there. Checked after every change to the page (before anything
  // else can read it) and every frame (for what moves without one: a transition, a font).
  function follow() {
    if (!box.open || !lit || spot(lit) === where) return;
    if (place(lit) > 0 && window.scrollY === scrolled) showAt(lit);
    else seen(lit);
  }
  const changes = new MutationObserver(follow);
  let frame = 0;
  function everyFrame() {
    follow();
    frame = requestAnimationFrame(everyFrame);
  }

  function show(i) {
    at = i;
    const step = steps[i];
    if (lit) lit.classList.remove("guide-lit");
    lit = step.at ? document.querySelector(step.at) : null;
    if (lit) lit.classList.add("guide-lit");
    count.textContent = `${i + 1} of ${steps.length}`;
    title.textContent = step.title;
    text.textContent = step.text;
    back.hidden = i === 0;
    next.textContent = i === steps.length - 1 ? "Play" : "Next";
    showAt(lit);
    next.focus();
  }

  function open() {
    before = document.activeElement;
    if (!box.open) {
      box.show();
      changes.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      frame = requestAnimationFrame(everyFrame);
    }
    show(0);
  }

  function close() {
    save(KEY, true);
    if (lit) lit.classList.remove("guide-lit");
    lit = null;
    changes.disconnect();
    cancelAnimationFrame(frame);
    box.close();
    window.scrollTo({ top: 0 });
    if (before && before.isConnected && before !== document.body) before.focus();
    else {
      // opened on arrival, with nothing focused before it: the focus goes to the game's own
      // buttons, not to the page itself, where Orca said "document web" or read the whole page
      const act = firstControl();
      if (act) act.focus({ preventScroll: true });
    }
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
  window.addEventListener("resize", () => { if (box.open) showAt(lit); });
  const again = $("guide-again");
  if (again) again.addEventListener("click", open);
  if (!load(KEY, false) && !link.watch && !navigator.webdriver) open();
  return { open };
}
