// Short sounds made with WebAudio (no files): a discard, each claim, a win, your turn. The
// mute switch is remembered in localStorage. ``window.baidaSounds`` lists the last sounds
// played (name and time), for tests and the curious; a muted page plays and lists nothing.

let ctx = null;
let muted = false;
const PLAYED_KEPT = 200;
const played = [];
window.baidaSounds = played;
try { muted = localStorage.getItem("baida.muted") === "1"; } catch { /* default: sound on */ }

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = Boolean(value);
  try { localStorage.setItem("baida.muted", muted ? "1" : "0"); } catch { /* ignore */ }
}

function audio() {
  if (muted) return null;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!ctx) ctx = new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(ac, { freq, start = 0, length = 0.12, type = "sine", gain = 0.18, slide = null }) {
  const t0 = ac.currentTime + start;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, t0 + length);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

function click(ac, { start = 0, gain = 0.35 } = {}) {
  // a tile put down: a short burst of filtered noise
  const t0 = ac.currentTime + start;
  const length = 0.05;
  const buffer = ac.createBuffer(1, Math.floor(ac.sampleRate * length), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  const amp = ac.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ac.destination);
  src.start(t0);
}

const SOUNDS = {
  discard: (ac) => click(ac),
  chi: (ac) => { tone(ac, { freq: 523 }); tone(ac, { freq: 659, start: 0.09 }); },
  pon: (ac) => { tone(ac, { freq: 440, type: "triangle" }); tone(ac, { freq: 440, start: 0.11, type: "triangle" }); },
  kong: (ac) => { [392, 392, 523].forEach((f, i) => tone(ac, { freq: f, start: i * 0.1, type: "triangle" })); },
  win: (ac) => { [523, 659, 784, 1047].forEach((f, i) => tone(ac, { freq: f, start: i * 0.11, length: 0.3, gain: 0.16 })); },
  turn: (ac) => tone(ac, { freq: 880, length: 0.09, gain: 0.08 }),
  alert: (ac) => { tone(ac, { freq: 660, length: 0.1 }); tone(ac, { freq: 990, start: 0.12, length: 0.14 }); },
  draw_game: (ac) => tone(ac, { freq: 330, length: 0.4, slide: 220, gain: 0.12 }),
};

/** Play one of the sounds (nothing when muted or without WebAudio). */
export function play(name) {
  const fn = SOUNDS[name];
  if (!fn || muted) return;
  played.push({ name, at: Date.now() });
  if (played.length > PLAYED_KEPT) played.shift();
  const ac = audio();
  if (!ac) return;
  try { fn(ac); } catch { /* a sound must never break the game */ }
}
