// What the Splunk bar says to do next, from the view alone: [main line, hint, tone].
import { capital } from "../lib/dom.js";
import { legal } from "../lib/legal.js";
import { keys } from "../lib/touch.js";
import { hintsOn } from "../lib/hints.js";
import { KIND_NAME, stackName } from "./stacks.js";

export function barFor(table, names) {
  const view = table.view;
  const me = table.seat;
  const hot = view.stacks.findIndex((s) => s.slap !== null);
  const slapLine = hot < 0 ? "" : `${capital(KIND_NAME[view.stacks[hot].slap])} on ${stackName(hot)}`;
  if (view.winner !== null) {
    if (me === null) return [`${names.name(view.winner)} won.`, "", ""];
    if (view.winner === me) return ["You won!", table.friends ? "" : "Press New game to play again", "good"];
    return [`${names.name(view.winner)} won.`, table.friends ? "" : "Press New game to try again", "bad"];
  }
  if (me === null) {
    return [hot >= 0 ? `${slapLine}!` : `${names.name(view.turn)} plays next`, "You are watching", ""];
  }
  if (hot >= 0 && hintsOn()) return [`${slapLine}: slap it!`, keys("SLAP or tap the stack", "SLAP, Space or click the stack"), "jack"];
  if (view.turn === me) {
    const called = view.stacks.findIndex((s) => s.call_open);
    if (legal(view, "call") && called >= 0) {
      return [`Your turn: call out ${stackName(called)}, or play a card`, keys("Call · or tap a stack", "Call or C · a stack or 1 to 4"), "go"];
    }
    return ["Your turn: choose a stack for your card", keys("Tap a stack", "Click a stack or press 1 to 4"), "go"];
  }
  if (view.players[me].cards === 0) {
    return ["Your last card is down: if it stands, you win", `${names.name(view.turn)} may call it out or slap it`, "warn"];
  }
  return [`${names.name(view.turn)} plays next`, "Watch for a pair, a sandwich or a joker", ""];
}
