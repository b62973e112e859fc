// A question that must be answered before something is lost: a modal <dialog> (the browser
// keeps the focus in it, Escape and the safe button say no), never window.confirm.
// ask({title, text, yes, no}) resolves to true only when the person pressed `yes`.
//
// Each question is answered the moment its button is pressed (or Escape), not when the
// dialog's "close" event comes: that event is queued, and a question asked before it ran
// (a quick second key after "Give it up") used to take its "no" and leave its own buttons
// answering nobody.
import { make } from "./dom.js";

let box = null;
let open = null; // the question on screen: {resolve, before}

// Answers the question on screen (if any) and closes the dialog.
function answer(yes) {
  const question = open;
  open = null;
  if (box.dialog.open) box.dialog.close(yes ? "yes" : "no");
  if (!question) return;
  question.resolve(yes);
  const { before } = question;
  if (before && before.isConnected && before.focus) before.focus();
}

function build() {
  const title = make("h2", { id: "ask-title", class: "ask-title" });
  const text = make("p", { id: "ask-text", class: "ask-text" });
  const no = make("button", { type: "button", class: "button", value: "no" });
  const yes = make("button", { type: "button", class: "button danger", value: "yes" });
  const dialog = make("dialog", { class: "ask", "aria-labelledby": "ask-title", "aria-describedby": "ask-text" },
    title, text, make("p", { class: "ask-buttons" }, no, yes));
  for (const b of [no, yes]) b.addEventListener("click", () => answer(b.value === "yes"));
  dialog.addEventListener("cancel", (e) => { // Escape
    e.preventDefault();
    answer(false);
  });
  // closed some other way (the browser may close it on a second Escape): a no, unless a
  // newer question has opened it again since
  dialog.addEventListener("close", () => { if (!dialog.open) answer(false); });
  document.body.append(dialog);
  return { dialog, title, text, no, yes };
}

export function ask({ title, text, yes, no }) {
  if (!box) box = build();
  answer(false); // a question still on screen is answered no
  const before = document.activeElement;
  box.title.textContent = title;
  box.text.textContent = text || "";
  box.yes.textContent = yes;
  box.no.textContent = no;
  return new Promise((resolve) => {
    open = { resolve, before };
    box.dialog.showModal();
    box.no.focus(); // the safe answer has the focus
  });
}
