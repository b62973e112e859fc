// Radio groups (role=radiogroup of buttons with role=radio): one stop for Tab, the checked
// radio (dom.js check() sees to it), and the arrow keys move to the next or previous radio
// and check it (as a click does), wrapping round; Home and End go to the first and last.

const radiosOf = (group) => [...group.querySelectorAll("[role=radio]")].filter((r) => !r.disabled);

let wired = false;

export function radioKeys() {
  if (wired) return;
  wired = true;
  document.addEventListener("keydown", (e) => {
    const radio = e.target.closest && e.target.closest("[role=radio]");
    const group = radio && radio.closest("[role=radiogroup]");
    if (!group || e.ctrlKey || e.metaKey || e.altKey) return;
    const all = radiosOf(group);
    const at = all.indexOf(radio);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    let to = null;
    if (step !== undefined) to = (at + step + all.length) % all.length;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = all.length - 1;
    if (to === null || !all.length) return;
    e.preventDefault();
    e.stopPropagation();
    all[to].focus();
    if (all[to] !== radio) all[to].click();
  });
}
