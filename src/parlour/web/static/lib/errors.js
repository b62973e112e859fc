// What the page tells a person when the server refuses a message: one sentence of ours for
// each error code (docs/protocol.md), never the server's own words, which are for
// developers and name seats by number. `about` is the type of the message refused.

const BY_CODE = {
  bad_token: "This seat's link has expired: the game it was for is over or gone.",
  no_table: "There is no game to play here yet.",
  unknown_table: "This table does not exist any more: it closed when everybody left.",
  taken: "Someone else took that seat a moment ago.",
  reserved_name: "That name is one the site uses for its own seats (such as You, Computer 2 or Open seat): choose another.",
  same_name: "Someone at this table already has that name: choose another.",
  too_many_tables: "You have too many tables open: finish or leave one, then try again.",
  open_seat: "Nobody sits at that seat now.",
  elsewhere: "This seat is now played on another device or tab.",
  removed: "The host gave your seat back to the table.",
  seated: "You already have a seat at this table.",
  started: "The game has started: you can watch it.",
  not_host: "Only the host can do that.",
  no_seat: "Take a seat first.",
  not_over: "The game is not over yet.",
  no_rematch: "Against the computer, press New game to play again.",
  refused: "Not now: the game moved on before your move arrived.",
  stale: "Too late: that play was settled before your move arrived.",
  rate_limited: "Easy there: too many moves at once.",
  flooding: "Too many moves at once: the page reconnects in a moment.",
  too_many_connections: "Too many pages of this site are open here: close some, then reload.",
  busy: "The server is busy: the page tries again in a moment.",
};

const BAD_REQUEST = {
  start: "This game cannot be dealt with these settings: pick others.",
  create: "A table cannot be created with these settings: check the seats and options.",
  sit: "Type a name of at most 24 letters to take a seat.",
  speed: "That speed cannot be chosen.",
  remove: "That seat cannot be freed.",
};

// The sentence for the error message `m`; `refused`, if given, replaces the plain one for
// a move the rules refused (a page knows best what its move was).
export function sentence(m, refused) {
  if (m.code === "refused" && refused) return refused;
  if (m.code === "full") {
    return m.about === "sit" ? "Every seat at this table is taken." : "The server is full right now: try again in a minute.";
  }
  if (m.code === "bad_request") return BAD_REQUEST[m.about] || "Something went wrong: reload the page.";
  return BY_CODE[m.code] || "Something went wrong: reload the page if the table stops.";
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
