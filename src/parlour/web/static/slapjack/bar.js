// What the Slapjack bar says to do next, from the view alone: [main line, hint, tone].
import { legal } from "../lib/legal.js";
import { keys } from "../lib/touch.js";
import { hintsOn } from "../lib/hints.js";

export function barFor(table, names) {
  const view = table.view;
  const again = (text) => (table.friends ? "" : text);
  if (table.seat === null) {
    if (view.winner !== null) return [`${names.name(view.winner)} won.`, "Watching", ""];
    if (view.slappable) return ["A Jack is on top!", "Watching", "jack"];
    return [view.turn === null ? "Watch the pile" : `${names.name(view.turn)} flips next`, "Watching", ""];
  }
  const mine = view.players[table.seat];
  if (view.winner === table.seat) return ["You won!", again("Press New game to play again"), "good"];
  if (view.winner !== null) return [`${names.name(view.winner)} won.`, again("Press New game to try again"), "bad"];
  if (mine.out) return ["You are out.", again("Press New game to play again"), "bad"];
  if (view.slappable && hintsOn()) return ["Jack! Slap it!", keys("Tap the pile or SLAP", "Tap the pile, SLAP or Space"), "jack"];
  if (legal(view, "flip")) return ["Your turn: flip a card", keys("Tap your deck or Flip", "Tap your deck, Flip or F"), "go"];
  if (mine.cards === 0) return ["No cards left: slap the next Jack or you are out", "Slap only a Jack", "warn"];
  if (view.turn !== null) return [`${names.name(view.turn)} flips next`, "Watch for a Jack", ""];
  return ["Watch the pile", "", ""];
}
