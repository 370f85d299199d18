// hapticctl studio: shared helpers: DOM and SVG building, number and time formatting, the tick
// step of the time axis, the event bus the views talk through, and `studio`, the record the
// browser test reads (main.js adds its accessors and publishes it as window.studio; perf.js
// keeps its figures).

export const $ = (id) => document.getElementById(id);
export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
export const round2 = (v) => Math.round(v * 100) / 100;
export const fmtSeconds = (t) => (t == null ? "–" : `${t.toFixed(Math.abs(t) < 10 ? 4 : 3)} s`);
export const fmtNum = (v, d = 3) => (v == null || Number.isNaN(v) ? "–" : Number(v).toFixed(d));

/** Sets `attrs` on `node`; returns it. */
export function attr(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** An SVG element `tag` with `attrs` (and text), appended to `parent`. */
export function svgEl(tag, attrs, parent, text) {
  const node = attr(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs);
  if (text != null) node.textContent = text;
  return parent.appendChild(node);
}

/** The decimals a multiple of `step` needs (0.25 → 2, 0.5 → 1, 2 → 0). */
function decimalsOf(step) {
  for (let d = 0; d < 7; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-6) return d;
  return 7;
}

/** A tick label: milliseconds below 1 s on a fine grid, else seconds. */
export function fmtTick(t, step) {
  if (Math.abs(t) < 1e-9) return "0";
  const d = decimalsOf(step);
  return Math.abs(t) < 1 && step < 0.1 ? `${(t * 1000).toFixed(Math.max(0, d - 3))} ms` : `${t.toFixed(d)} s`;
}

/** The 1-2-5 step giving ticks about `px` apart over `span` seconds drawn in `width` px. */
export function niceStep(span, width, px = 90) {
  const raw = (span * px) / Math.max(width, 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
}

/** A tiny event bus: views listen for "render", "stream", "board", "player", "socket" ({open}), "view" (its name). */
export const bus = {
  handlers: new Map(),
  on(type, fn) { this.handlers.set(type, [...(this.handlers.get(type) ?? []), fn]); },
  emit(type, data) { for (const fn of this.handlers.get(type) ?? []) fn(data); },
};

/**
 * What the browser test (and a curious console) reads. The modules keep these fields up to
 * date; main.js adds playerId, view, timeToX and fit and sets window.studio to it.
 */
export const studio = {
  ready: false,      // the boards are loaded
  lastRender: null,  // the last render answer's `render`
  streamCount: 0,    // stream messages received
  lastStream: null,
  levelPeak: 0,      // the largest |level| streamed for the board since the last play
  client: null,      // our number on the server (hello)
  // perf.js: one record per render shown, {source, board, requestMs, parseMs, drawMs, totalMs,
  // loadMs (the deep-linked document's, from navigation start; else null), …}; the longest gap
  // between animation frames since resetFrameGap() (a frozen page shows as a long one).
  timings: [],
  maxFrameGapMs: 0,
  drawCount: 0,      // timeline draws so far
  lastDrawMs: 0,     // how long the last one took (building the SVG's geometry)
  // pad.js: the pad → drive latencies measured (ms), and from the last press until a while after
  // its release the stream ({t, time, level, hz, g}; t its arrival, performance.now()) and the
  // pointer's events ({t, kind: "down" | "move" | "up", x, y}).
  padLatencies: [],
  padStream: [],
  padEvents: [],
};
