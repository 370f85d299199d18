// hapticctl studio: the compare view's plots (compare.js holds the state): the two sides'
// simulated acceleration on one time axis (each pixel column the peak of its frames, so a
// 10-minute pattern is one pass and a path per side), and each side's response map (steady
// acceleration against intensity, a line per sharpness, on one log scale for both so they
// compare at a glance), with the detection threshold on each.

import { attr, fmtNum, fmtTick, niceStep, round2, svgEl } from "./util.js";

export const SIDE_COLORS = { a: "#b91c1c", b: "#2563eb" };
const PAD = { left: 52, right: 12, top: 10, bottom: 34 };

/** Clears `svg` and sizes it to its box's width and `height`; returns {w, h, plot: {x0, x1, y0, y1}}. */
function frame(svg, height) {
  svg.replaceChildren();
  const w = Math.max(200, Math.round(svg.getBoundingClientRect().width || svg.parentNode.clientWidth || 600));
  attr(svg, { width: w, height, viewBox: `0 0 ${w} ${height}` });
  return { w, h: height, plot: { x0: PAD.left, x1: w - PAD.right, y0: PAD.top, y1: height - PAD.bottom } };
}

/** Axis lines, tick marks and labels: x from `xs` ([value, label]), y from `ys`. */
function axes(svg, plot, xs, ys, xName, yName) {
  const g = svgEl("g", { class: "axes" }, svg);
  svgEl("rect", { class: "lane-bg", x: plot.x0, y: plot.y0, width: plot.x1 - plot.x0, height: plot.y1 - plot.y0 }, g);
  for (const [x, label] of xs) {
    svgEl("line", { class: "tick", x1: x, x2: x, y1: plot.y1, y2: plot.y1 + 4 }, g);
    svgEl("text", { x, y: plot.y1 + 16, "text-anchor": "middle" }, g, label);
  }
  for (const [y, label] of ys) {
    svgEl("line", { class: "grid", x1: plot.x0, x2: plot.x1, y1: y, y2: y }, g);
    svgEl("text", { x: plot.x0 - 4, y: y + 4, "text-anchor": "end" }, g, label);
  }
  svgEl("text", { class: "axis-name", x: plot.x1, y: plot.y1 + 30, "text-anchor": "end" }, g, xName);
  svgEl("text", { class: "axis-name", x: plot.x0 + 4, y: plot.y0 + 12 }, g, yName);
}

/** A side's channel's per-frame acceleration as a top envelope path over `plot`; null when absent. */
function envelopePath(channel, plot, tMax, yOf) {
  const g = channel.g, rate = channel.rate, width = plot.x1 - plot.x0, perPx = (tMax * rate) / width;
  const points = [];
  for (let col = 0; col < width; col++) {
    const a = Math.floor(col * perPx), b = Math.max(a + 1, Math.floor((col + 1) * perPx));
    if (a >= g.length) break;
    let peak = 0;
    for (let i = a; i < Math.min(b, g.length); i++) if (g[i] > peak) peak = g[i];
    points.push(`${plot.x0 + col + 0.5},${round2(yOf(peak))}`);
  }
  return points.length ? `M${points.join("L")}` : null;
}

/**
 * Draws the sides' acceleration on one time axis into `svg`: `sides` are {key, label, channel,
 * threshold} (channel: the render's channel object, or null). Returns the largest g drawn.
 */
export function drawAccel(svg, sides, duration) {
  const { plot } = frame(svg, 240);
  const drawn = sides.filter((s) => s.channel);
  const tMax = Math.max(duration || 0, ...drawn.map((s) => s.channel.g.length / s.channel.rate), 0.01);
  const gMax = Math.max(0.05, ...drawn.map((s) => Math.max(...s.channel.g))) * 1.08;
  const xOf = (t) => plot.x0 + (t / tMax) * (plot.x1 - plot.x0), yOf = (g) => plot.y1 - (g / gMax) * (plot.y1 - plot.y0);
  const step = niceStep(tMax, plot.x1 - plot.x0), xs = [];
  for (let t = 0; t <= tMax + 1e-9; t += step) xs.push([round2(xOf(t)), fmtTick(t, step)]);
  const gStep = niceStep(gMax, plot.y1 - plot.y0, 40), ys = [];
  for (let v = 0; v <= gMax + 1e-9; v += gStep) ys.push([round2(yOf(v)), fmtNum(v, gStep < 0.1 ? 2 : 1)]);
  axes(svg, plot, xs, ys, "time", "g");
  const threshold = drawn[0]?.threshold;
  if (threshold != null) {
    const y = round2(yOf(threshold));
    svgEl("title", {}, svgEl("line", { class: "threshold", x1: plot.x0, x2: plot.x1, y1: y, y2: y }, svg), `detection threshold ${threshold} g`);
  }
  for (const side of drawn) {
    const d = envelopePath(side.channel, plot, tMax, yOf);
    if (d) svgEl("path", { class: "compare-accel", "data-side": side.key, d, stroke: SIDE_COLORS[side.key] }, svg);
  }
  drawn.forEach((side, i) => {
    svgEl("text", { x: plot.x1 - 6, y: plot.y0 + 14 + i * 14, "text-anchor": "end", style: `fill: ${SIDE_COLORS[side.key]}` }, svg, side.label);
  });
  return gMax;
}

/** The y range (log10 G) both maps share: from below the threshold to above the strongest level. */
export function mapRange(maps) {
  const levels = maps.flatMap((m) => m.sweeps.flatMap((s) => s.steady_g)).filter((v) => v > 0);
  const top = Math.max(0.1, ...levels), bottom = Math.min(0.01, ...levels);
  return [Math.floor(Math.log10(bottom) * 2) / 2, Math.ceil(Math.log10(top) * 2) / 2];
}

/** A sweep's colour: sharpness 0 blue to 1 orange. */
const sharpColor = (s) => `hsl(${Math.round(220 - s * 190)} 75% 42%)`;

/** Draws one response map (a channel of GET …/response) into `svg` on the log range `range`. */
export function drawMap(svg, map, threshold, range, sideKey) {
  const { plot } = frame(svg, 230);
  const [lo, hi] = range;
  const xOf = (i) => plot.x0 + i * (plot.x1 - plot.x0), yOf = (g) => plot.y1 - ((Math.log10(Math.max(g, 10 ** lo)) - lo) / (hi - lo)) * (plot.y1 - plot.y0);
  const xs = [0, 0.25, 0.5, 0.75, 1].map((i) => [round2(xOf(i)), String(i)]), ys = [];
  for (let e = Math.ceil(lo); e <= hi; e++) ys.push([round2(yOf(10 ** e)), e >= 0 ? String(10 ** e) : (10 ** e).toFixed(-e)]);
  axes(svg, plot, xs, ys, "intensity", "g (log)");
  const y = round2(yOf(threshold));
  svgEl("title", {}, svgEl("line", { class: "threshold", x1: plot.x0, x2: plot.x1, y1: y, y2: y }, svg), `detection threshold ${threshold} g`);
  for (const sweep of map.sweeps) {
    const pts = sweep.intensity.map((i, k) => `${round2(xOf(i))},${round2(yOf(sweep.steady_g[k]))}`).join(" ");
    const line = svgEl("polyline", { class: "sweep", "data-side": sideKey, "data-sharpness": sweep.sharpness, points: pts,
      stroke: sharpColor(sweep.sharpness) }, svg);
    svgEl("title", {}, line, `sharpness ${sweep.sharpness} (${fmtNum(sweep.frequency_hz, 0)} Hz): ` +
      `${sweep.distinguishable_steps} steps told apart, felt from intensity ${fmtNum(sweep.lowest_felt_intensity, 2)}`);
  }
  // The key at the top left, where the levels are lowest (a quiet intensity is never loud).
  map.sweeps.forEach((sweep, i) => {
    svgEl("text", { x: plot.x0 + 6, y: plot.y0 + 28 + i * 12, style: `fill: ${sharpColor(sweep.sharpness)}` }, svg,
      `sharpness ${sweep.sharpness} · ${fmtNum(sweep.frequency_hz, 0)} Hz`);
  });
}

/** The figures line under a map: steps told apart, lowest felt intensity, tilt, the sharp transient. */
export function mapFigures(map) {
  const steps = map.sweeps.map((s) => s.distinguishable_steps), felt = map.sweeps.map((s) => s.lowest_felt_intensity ?? 1);
  const range = (v, d = 0) => (Math.min(...v) === Math.max(...v) ? fmtNum(v[0], d) : `${fmtNum(Math.min(...v), d)}–${fmtNum(Math.max(...v), d)}`);
  const sharp = map.transients[map.transients.length - 1];
  return `${map.kind} ${fmtNum(map.resonant_hz, 0)} Hz` + (map.sharpness_band_hz ? ` (sharpness 0…1 → ${map.sharpness_band_hz[0]}–${map.sharpness_band_hz[1]} Hz)` : "") +
    ` · steps told apart ${range(steps)} · felt from intensity ${range(felt, 2)} · tilt ${fmtNum(map.tilt_db, 1)} dB` +
    (sharp ? ` · transient ${fmtNum(sharp.peak_g, 2)} g, rise ${fmtNum(sharp.rise_ms, 1)} ms, stop ${fmtNum(sharp.stop_ms, 1)} ms` : "");
}
