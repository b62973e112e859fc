// What the page tells a person when the server refuses a message: one sentence of ours for
// each error code (docs/protocol.md), never the server's own words, which are for
// developers and name seats by number. `about` is the type of the message refused.

// The sentences are the server's (parlour.live.codes, the one list of codes): every page
// with a script carries them as JSON data, never run (templates/_scripts.html).
const data = document.getElementById("error-sentences");
const SAID = data ? JSON.parse(data.textContent) : { sentences: {}, about: {}, otherwise: "" };

// The sentence for the error message `m`; `refused`, if given, replaces the plain one for
// a move the rules refused (a page knows best what its move was).
export function sentence(m, refused) {
  if (m.code === "refused" && refused) return refused;
  const about = SAID.about[m.code];
  return (about && about[m.about]) || SAID.sentences[m.code] || SAID.otherwise;
}

// What to say when the rules refused our move, from the view the page has: the game is over,
// our seat is out, or the table moved on before the move arrived (a race lost).
export function refusal(view, seat) {
  if (!view) return null;
  if (view.winner !== null && view.winner !== undefined) return "The game is over.";
  const mine = seat !== null && view.players && view.players[seat];
  if (mine && mine.out) return "You are out of this game.";
  return "Too late: the table moved on before your move arrived.";
}
