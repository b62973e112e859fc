// Popover menus (a button with aria-haspopup and its popover): one open at a time, closed by
// a click elsewhere or Escape (focus back on its button), focus on the current choice when
// one opens, and the arrow keys, Home and End to move in it (in a grid of numbers, up and
// down go by rows). A popover that would stick out of the screen is moved into it.

const items = (menu) => [...menu.querySelectorAll("button, input")].filter((n) => !n.disabled);

// How many columns the grid that holds `node` has (1 outside a grid).
function columns(node) {
  const grid = node.closest(".pick-grid");
  if (!grid) return 1;
  return getComputedStyle(grid).gridTemplateColumns.split(" ").filter(Boolean).length || 1;
}

// Keeps `menu` (positioned under its button) inside the screen's width.
function fit(menu) {
  menu.style.left = "";
  const box = menu.getBoundingClientRect();
  const room = document.documentElement.clientWidth - 8;
  if (box.right > room) menu.style.left = `${Math.round(Math.max(8 - box.left, room - box.right))}px`;
}

export function menus(root) {
  const pairs = [...root.querySelectorAll(".menu")].map((box) => [
    box.querySelector(".popover"), box.querySelector("[aria-haspopup]")]);

  function open(menu, wanted) {
    for (const [m, b] of pairs) {
      const show = m === menu && wanted;
      m.hidden = !show;
      b.setAttribute("aria-expanded", String(show));
    }
    if (menu && wanted) {
      fit(menu);
      const current = menu.querySelector("[aria-checked=true], [aria-pressed=true]") || menu.querySelector("button");
      if (current) current.focus();
    }
  }

  // Arrow keys, Home and End move the focus in an open menu; a slider keeps left and right.
  function move(menu, e) {
    const all = items(menu);
    const at = all.indexOf(document.activeElement);
    const slider = document.activeElement && document.activeElement.type === "range";
    const across = columns(document.activeElement);
    const step = { ArrowDown: across, ArrowUp: -across, ArrowRight: 1, ArrowLeft: -1 }[e.key];
    let to = null;
    if (e.key === "Home") to = 0;
    else if (e.key === "End") to = all.length - 1;
    else if (step !== undefined && !(slider && Math.abs(step) === 1)) {
      to = at < 0 ? 0 : Math.min(all.length - 1, Math.max(0, at + step));
      // the last row of a grid may be short: down from above it goes to the next item out
      if (at >= 0 && to === at && step > 1) to = Math.min(all.length - 1, at + 1);
    }
    if (to === null) return;
    e.preventDefault();
    all[to].focus();
  }

  for (const [menu, button] of pairs) {
    button.addEventListener("click", (e) => {
      e.stopPropagation();
      open(menu, menu.hidden);
    });
    button.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" && menu.hidden) {
        e.preventDefault();
        open(menu, true);
      }
    });
    menu.addEventListener("keydown", (e) => move(menu, e));
  }
  document.addEventListener("click", (e) => {
    for (const [menu, button] of pairs) {
      if (!menu.hidden && !menu.contains(e.target) && e.target !== button) open(menu, false);
    }
  });
  // Closes the open menu; the focus, if it was in it, goes back to its button.
  function shut() {
    const was = pairs.find(([m]) => !m.hidden);
    const inside = was && was[0].contains(document.activeElement);
    open(null, false);
    if (inside) was[1].focus();
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") shut(); });

  return {
    close: shut,
    isOpen: () => pairs.some(([m]) => !m.hidden),
  };
}
