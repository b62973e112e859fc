// The table's sounds, made in the browser (Web Audio: no sound files): a flip, a slap, a take,
// a win and a loss. Silent until the person first presses a key or touches the page (no page
// may start a sound on its own); the Sound switch (#sound) mutes them, remembered on this
// device. The last sound played is noted on <body data-sound>, for tests to read.
import { $ } from "./dom.js";
import { load, save } from "./storage.js";

const KEY = "parlour.sound";
let audio = null; // the AudioContext, made at the first key or touch
const on = () => load(KEY, true) !== false;

function wake() {
  if (audio || typeof AudioContext !== "function") return;
  try { audio = new AudioContext(); } catch (e) { audio = null; }
  document.body.dataset.audio = audio ? "ready" : "none";
}

// A tone: `freq` Hz (to `to` Hz), `length` seconds, from `at` seconds on.
function tone(freq, length, { at = 0, to = freq, type = "triangle", gain = 0.18 } = {}) {
  const t = audio.currentTime + at;
  const osc = audio.createOscillator();
  const amp = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  osc.frequency.exponentialRampToValueAtTime(to, t + length);
  amp.gain.setValueAtTime(gain, t);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(amp).connect(audio.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

// A burst of noise through a band-pass filter: a card's snap, a hand on the table.
function noise(length, { freq = 2500, gain = 0.3, at = 0 } = {}) {
  const t = audio.currentTime + at;
  const frames = Math.ceil(audio.sampleRate * length);
  const buffer = audio.createBuffer(1, frames, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = audio.createBufferSource();
  source.buffer = buffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const amp = audio.createGain();
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(audio.destination);
  source.start(t);
}

const SOUNDS = {
  flip: () => noise(0.06, { freq: 3200, gain: 0.25 }),
  slap: () => { noise(0.12, { freq: 900, gain: 0.6 }); tone(140, 0.12, { to: 60, type: "sine", gain: 0.35 }); },
  take: () => { tone(520, 0.09); tone(780, 0.14, { at: 0.08 }); },
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, 0.22, { at: i * 0.12 })),
  lose: () => [392, 330, 262].forEach((f, i) => tone(f, 0.28, { at: i * 0.16, type: "sine" })),
};

export function sound(name) {
  if (!audio || !on() || !SOUNDS[name]) return;
  if (audio.state === "suspended") audio.resume();
  try { SOUNDS[name](); } catch (e) { return; }
  document.body.dataset.sound = name;
}

// Wires the first key or touch, and the Sound switch if the page has one.
export function soundSwitch() {
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wake, { capture: true });
  const button = $("sound");
  if (!button) return;
  const show = () => {
    button.setAttribute("aria-checked", String(on()));
    button.textContent = `Sound: ${on() ? "on" : "off"}`;
  };
  button.addEventListener("click", () => {
    save(KEY, !on());
    show();
  });
  show();
}
