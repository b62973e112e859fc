// Short animations that never wait: the state is already drawn when they start. Nothing
// flies for a person who asks for less motion (the CSS stills the rest).

const still = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

// Restarts the CSS animation of `className` on `node`.
export function replay(node, className, others = []) {
  if (!node) return;
  node.classList.remove(className, ...others);
  void node.offsetWidth;
  node.classList.add(className);
}

export const flash = (node, tone) =>
  replay(node, tone === "bad" ? "flash-bad" : "flash-good", ["flash-good", "flash-bad"]);

// `card` flies in from where `from` is to where it is drawn.
export function fly(card, from, duration) {
  if (!card || !from || !card.animate || still()) return;
  const a = from.getBoundingClientRect();
  const b = card.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  card.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.4 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
  ], { duration, easing: "cubic-bezier(.2,.8,.3,1)" });
}
