// The page's one socket to /ws (docs/protocol.md). It is opened again by itself whenever it
// drops or closes: at once when the server says the table moved to another node (code 1012),
// else after a pause that starts at a quarter of a second and doubles up to 5 seconds, with
// jitter (a restarted server is found quickly, a dead one is not hammered, and a thousand
// pages do not come back in the same millisecond). A socket that stops answering (a phone
// that changed networks) is given up after a ping goes unanswered, and opened again.

import { noteWelcome, showConnection } from "./lag.js";

const FIRST = 250; // ms before the first retry
const LONGEST = 5000; // ms between retries at most
const QUIET = 20000; // ms without a word from the server before we ask (ping)
const ANSWER = 8000; // ms the server has to answer that ping

let ws = null; // the socket in use (null between a drop and the next try)
let options = null;
let attempt = 0; // retries since the last open socket
let timer = 0;
let heard = 0; // when the server last said anything
let pinged = 0; // when we asked whether it is still there (0: not asked)

export const isOpen = () => Boolean(ws && ws.readyState === WebSocket.OPEN);

// Sends `message` now if the socket is open; false if it is not (nothing is queued: the
// first message of the next connection, hello(), says what the page wants then).
export function send(message) {
  if (!isOpen()) return false;
  ws.send(JSON.stringify(message));
  return true;
}

// The pause before retry `n` (0: the first), in ms: 0.25 s doubling to 5 s, each between
// half of that and all of it.
export function backoff(n) {
  const full = Math.min(LONGEST, FIRST * 2 ** Math.min(n, 10));
  return full / 2 + Math.random() * (full / 2);
}

function open() {
  clearTimeout(timer);
  timer = 0;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/ws`);
  ws = mine;
  mine.addEventListener("open", () => {
    if (ws !== mine) return;
    attempt = 0;
    heard = Date.now();
    pinged = 0;
    if (options.back) options.back();
    send({ type: "pong", id: 0 }); // we answer the server's pings (lib/lag.js)
    const first = options.hello ? options.hello() : null;
    if (first) send(first);
  });
  mine.addEventListener("message", (e) => {
    if (ws !== mine) return;
    heard = Date.now();
    pinged = 0;
    let message;
    try { message = JSON.parse(e.data); } catch (err) { return; }
    if (message && message.type === "ping") { // the server measures our delay: answer at once
      send({ type: "pong", id: message.id });
      return;
    }
    if (message && message.type === "welcome") noteWelcome(message);
    if (message && message.type === "connection") showConnection(message);
    const handler = message && options.handlers[message.type];
    if (handler) handler(message);
  });
  mine.addEventListener("close", (e) => {
    if (ws === mine) dropped(e.code);
  });
}

// The socket is gone: tell the page, and try again.
function dropped(code) {
  ws = null;
  const wait = code === 1012 ? 0 : backoff(attempt); // 1012: the table moved: come back at once
  attempt += 1;
  if (options.lost) options.lost({ attempt, wait, code });
  clearTimeout(timer);
  timer = setTimeout(open, wait);
}

// Gives up the socket in use (it stopped answering) and opens another.
function abandon() {
  const old = ws;
  ws = null;
  try { old.close(); } catch (e) { /* already closing */ }
  dropped(1006);
}

// Tries again now rather than after the pause (the network is back, the tab is shown again).
export function retryNow() {
  if (!options || ws) return;
  open();
}

function watch() {
  setInterval(() => {
    if (!isOpen()) return;
    const now = Date.now();
    if (pinged && now - pinged > ANSWER) abandon();
    else if (!pinged && now - heard > QUIET) {
      pinged = now;
      send({ type: "ping", id: "alive" });
    }
  }, 2000);
  window.addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    // back on screen (a phone's tab may have slept): a socket that looks open is asked
    // whether it still is, a dropped one is opened again now
    if (isOpen() && !pinged && Date.now() - heard > ANSWER) {
      pinged = Date.now();
      send({ type: "ping", id: "alive" });
    }
    retryNow();
  });
}

// hello() gives the first message of every connection (null: none yet); every message from
// the server goes to handlers[message.type]; lost({attempt, wait, code}) is told of a drop
// (and of each failed try), back() of a socket open again.
export function connect({ hello, handlers, lost, back }) {
  const first = options === null;
  options = { hello, handlers, lost, back };
  if (first) watch();
  open();
}
