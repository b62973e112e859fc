// The page's one socket to /ws (docs/protocol.md). It is opened again after a drop, with a
// growing pause: a restarted server is found quickly, a dead one is not hammered.

let ws = null;
let retry = 0;

export function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

// hello() gives the first message of every connection (null: none); every message from the
// server goes to handlers[message.type]; lost() is told of a drop.
export function connect({ hello, handlers, lost }) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/ws`);
  ws = mine;
  mine.addEventListener("open", () => {
    retry = 0;
    const first = hello ? hello() : null;
    if (first) send(first);
  });
  mine.addEventListener("message", (e) => {
    let message;
    try { message = JSON.parse(e.data); } catch (err) { return; }
    const handler = message && handlers[message.type];
    if (handler) handler(message);
  });
  mine.addEventListener("close", () => {
    if (ws !== mine) return;
    if (lost) lost();
    retry = Math.min(retry + 1, 5); // 0.4 s, 0.8 s ... at most 2 s
    setTimeout(() => connect({ hello, handlers, lost }), 400 * retry);
  });
}
