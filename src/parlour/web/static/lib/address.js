// What the page's address asks for: `?token=T` a friend's seat (it stays in the address, so
// a reload comes back to it), `?watch=TABLE` a table to watch (a token wins over it), and
// `?seed=N` a dealt game against the computer (tests replay a deal with it), `?resume=TABLE`
// this device's game against the computer at TABLE (the home page's "Continue").

const params = new URLSearchParams(location.search);
const seed = params.get("seed");

export const link = Object.freeze({
  token: params.get("token"),
  watch: params.get("token") ? null : params.get("watch"),
  seed: seed !== null && /^\d+$/.test(seed) ? Number(seed) : null,
  game: params.get("game"),
  resume: params.get("resume"),
});
