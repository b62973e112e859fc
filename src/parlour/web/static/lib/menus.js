// Popover menus (a button with aria-haspopup and its popover): one open at a time, closed by
// a click elsewhere or Escape, and focus on the current choice when one opens.

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
      const current = menu.querySelector("[aria-checked=true]") || menu.querySelector("button");
      if (current) current.focus();
    }
  }

  for (const [menu, button] of pairs) {
    button.addEventListener("click", (e) => {
      e.stopPropagation();
      open(menu, menu.hidden);
    });
  }
  document.addEventListener("click", (e) => {
    for (const [menu, button] of pairs) {
      if (!menu.hidden && !menu.contains(e.target) && e.target !== button) open(menu, false);
    }
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") open(null, false); });

  return {
    close: () => open(null, false),
    isOpen: () => pairs.some(([m]) => !m.hidden),
  };
}
