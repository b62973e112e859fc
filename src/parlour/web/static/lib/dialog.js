// A question that must be answered before something is lost: a modal <dialog> (the browser
// keeps the focus in it, Escape and the safe button say no), never window.confirm.
// ask({title, text, yes, no}) resolves to true only when the person pressed `yes`.
import { make } from "./dom.js";

let box = null;

function build() {
  const title = make("h2", { id: "ask-title", class: "ask-title" });
  const text = make("p", { id: "ask-text", class: "ask-text" });
  const no = make("button", { type: "button", class: "button", value: "no" });
  const yes = make("button", { type: "button", class: "button danger", value: "yes" });
  const dialog = make("dialog", { class: "ask", "aria-labelledby": "ask-title", "aria-describedby": "ask-text" },
    title, text, make("p", { class: "ask-buttons" }, no, yes));
  for (const b of [no, yes]) b.addEventListener("click", () => dialog.close(b.value));
  document.body.append(dialog);
  return { dialog, title, text, no, yes };
}

export function ask({ title, text, yes, no }) {
  if (!box) box = build();
  if (box.dialog.open) box.dialog.close("no");
  const before = document.activeElement;
  box.title.textContent = title;
  box.text.textContent = text || "";
  box.yes.textContent = yes;
  box.no.textContent = no;
  return new Promise((resolve) => {
    box.dialog.addEventListener("close", () => {
      resolve(box.dialog.returnValue === "yes");
      if (before && before.isConnected && before.focus) before.focus();
    }, { once: true });
    box.dialog.returnValue = "no"; // Escape closes it with this
    box.dialog.showModal();
    box.no.focus(); // the safe answer has the focus
  });
}
