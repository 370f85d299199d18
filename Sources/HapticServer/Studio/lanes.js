// hapticctl studio: the timeline's lanes under its axis: their geometry, backgrounds and labels;
// the haptic events (one node each, built once per render and moved on each draw) with the
// warnings' marks, the parameter curves, and each channel's drive (level ±1) and simulated
// vibration (g, with the detection threshold) from the board's arrays. Every x comes from the
// timeline's `timeToX`; each function takes the timeline (`tl`) it draws for.

import { attr, clamp, fmtNum, fmtSeconds, round2, svgEl } from "./util.js";
import { LEFT, RIGHT } from "./timeline.js";

const GAP = 6;
const CURVE_COLORS = { intensity: "#2563eb", sharpness: "#d97706", attack: "#059669", decay: "#9333ea", release: "#db2777" };

/** Lane name → {y, h} for the axis, events, curves and each channel's lanes; `bottom` is the lowest lane's end. */
export function laneGeometry(channels) {
  const lanes = {};
  let y = 0;
  const add = (name, h) => { lanes[name] = { y, h }; y += h + GAP; };
  add("axis", 26);
  add("events", 130);
  add("curves", 70);
  for (const c of channels) { add(`drive${c.index}`, 70); add(`accel${c.index}`, 90); }
  lanes.bottom = y - GAP;
  return lanes;
}

const levelToY = (tl, c, v) => { const l = tl.lanes[`drive${c.index}`]; return l.y + l.h / 2 - v * (l.h / 2 - 3); };
const gToY = (tl, c, g) => { const l = tl.lanes[`accel${c.index}`]; return l.y + l.h - 3 - (g / c.gmax) * (l.h - 6); };

/** Each lane's background and label (the axis lane's too), appended to the timeline's SVG. */
export function buildLaneBackgrounds(tl) {
  const s = tl.svg, w = tl.plotWidth();
  const lane = (name, label, sub) => {
    const { y, h } = tl.lanes[name];
    svgEl("rect", { class: name === "axis" ? "axis-bg" : "lane-bg", x: LEFT, y, width: w, height: h }, s);
    svgEl("text", { class: "lane-label", x: 6, y: y + h / 2 }, s, label);
    if (sub) svgEl("text", { x: 6, y: y + h / 2 + 13 }, s, sub);
  };
  lane("axis", "time");
  lane("events", "events", "intensity");
  lane("curves", "curves", "−1 … 1");
  for (const c of tl.channels) {
    lane(`drive${c.index}`, `drive ${c.index}`, "level ±1");
    lane(`accel${c.index}`, `vibration ${c.index}`, `0…${fmtNum(c.gmax, 2)} g`);
  }
}

/** The lanes' content groups and nodes in `plot` (the clipped plot area): marks, events, curves, board. */
export function buildLanes(tl, plot) {
  const right = tl.width - RIGHT;
  tl.gMarks = svgEl("g", {}, plot);
  // One node per event (class event, data-index/time/type); its geometry comes in drawEvents.
  const gEvents = svgEl("g", { class: "events" }, plot);
  tl.events = (tl.render?.events ?? []).map((e) => {
    const data = { "data-index": e.index, "data-time": e.time, "data-type": e.type };
    const tag = { transient: "line", continuous: "g" }[e.type] ?? "rect";
    const node = svgEl(tag, { class: `event ${e.type}`, ...data }, gEvents);
    if (e.type === "continuous") { svgEl("polygon", {}, node); svgEl("polyline", {}, node); }
    svgEl("title", {}, node, `#${e.index} ${e.type} at ${fmtSeconds(e.time)}` +
      (e.duration ? `, ${fmtSeconds(e.duration)}` : "") +
      (e.intensity != null ? `\nintensity ${fmtNum(e.intensity, 2)}, sharpness ${fmtNum(e.sharpness, 2)}` : ""));
    return { data: e, node };
  });
  tl.gCurves = svgEl("g", { class: "curves" }, plot);
  // The board lanes: a zero line, the drive and accel paths, the detection threshold.
  const gBoard = svgEl("g", { class: "board" }, plot), threshold = tl.render?.threshold_g;
  for (const c of tl.channels) {
    const zero = round2(levelToY(tl, c, 0));
    svgEl("line", { class: "zero", x1: LEFT, x2: right, y1: zero, y2: zero }, gBoard);
    c.drivePath = svgEl("path", { class: "drive", "data-channel": c.index }, gBoard);
    c.accelPath = svgEl("path", { class: "accel", "data-channel": c.index }, gBoard);
    if (threshold == null) continue;
    const y = round2(gToY(tl, c, threshold));
    svgEl("title", {}, svgEl("line", { class: "threshold", x1: LEFT, x2: right, y1: y, y2: y }, gBoard),
      `detection threshold ${threshold} g`);
  }
}

/** Draws the lanes for the timeline's current view (it has a render). */
export function drawLanes(tl) {
  drawEvents(tl);
  drawCurves(tl);
  drawBoard(tl);
}

function drawEvents(tl) {
  const lane = tl.lanes.events, base = lane.y + lane.h - 14, h = lane.h - 20;
  const yOf = (v) => round2(base - clamp(v, 0, 1) * h);
  for (const { data: e, node } of tl.events) {
    const x = round2(tl.timeToX(e.time)), level = e.intensity ?? 1;
    if (e.type === "transient") attr(node, { x1: x, x2: x, y1: base, y2: yOf(level) });
    else if (e.type === "continuous") {
      const end = e.time + e.duration;
      const env = e.envelope?.length ? e.envelope : [[e.time, 0], [e.time, level], [end, level], [end, 0]];
      const pts = env.map(([t, v]) => `${round2(tl.timeToX(t))},${yOf(v)}`).join(" ");
      const last = round2(tl.timeToX(env[env.length - 1][0]));
      node.firstChild.setAttribute("points", `${x},${base} ${pts} ${last},${base}`);
      node.firstChild.nextSibling.setAttribute("points", pts);
    } else {
      attr(node, { x, y: base + 2, height: 10, width: round2(Math.max(1, tl.timeToX(e.time + (e.duration ?? 0)) - x)) });
    }
  }
  // Each warning with a time: a dotted line across the events lane.
  tl.gMarks.replaceChildren();
  for (const w of tl.render.warnings ?? []) {
    if (w.time == null) continue;
    const x = round2(tl.timeToX(w.time));
    svgEl("line", { class: "warning-mark", x1: x, x2: x, y1: lane.y, y2: lane.y + lane.h }, tl.gMarks);
  }
}

function drawCurves(tl) {
  tl.gCurves.replaceChildren();
  const lane = tl.lanes.curves, mid = lane.y + lane.h / 2;
  svgEl("line", { class: "zero", x1: LEFT, x2: tl.width - RIGHT, y1: mid, y2: mid }, tl.gCurves);
  const xy = ([t, v]) => `${round2(tl.timeToX(t))},${round2(mid - clamp(v, -1, 1) * (lane.h / 2 - 4))}`;
  const curves = tl.render.curves ?? [];
  for (const c of curves) {
    // kind "steps": each value holds until the next (the last to the pattern's end); else linear.
    const pts = c.kind !== "steps" ? c.points : c.points.flatMap(([t, v], k, all) =>
      [[t, v], [all[k + 1]?.[0] ?? Math.max(t, tl.render.duration), v]]);
    svgEl("polyline", { class: "curve", "data-parameter": c.parameter, "data-kind": c.kind ?? "curve",
      points: pts.map(xy).join(" ") }, tl.gCurves);
  }
  // The key: each parameter once (a pattern may have a curve of one parameter every few seconds).
  [...new Set(curves.map((c) => c.parameter))].forEach((parameter, i) => {
    svgEl("text", { x: tl.width - RIGHT - 6, y: lane.y + 12 + i * 11, "text-anchor": "end",
      style: `fill: ${CURVE_COLORS[parameter] ?? "#333"}` }, tl.gCurves, parameter);
  });
}

function drawBoard(tl) {
  for (const c of tl.channels) {
    c.drivePath.setAttribute("d", bandPath(tl, c, c.level, (v) => levelToY(tl, c, v), null));
    c.accelPath.setAttribute("d", bandPath(tl, c, c.g, (v) => gToY(tl, c, v), gToY(tl, c, 0)));
  }
}

/**
 * A closed path of `arr`'s min..max per pixel column over the view (zoomed in past one
 * sample per pixel: each frame's value held for its frame); with `base`, the area from
 * `base` to the max instead. Work is one pass over the samples in view, never a node each.
 */
function bandPath(tl, c, arr, yOf, base) {
  const rate = c.rate, width = tl.plotWidth(), view = tl.view, top = [], bottom = [];
  const i0 = clamp(Math.floor(view.start * rate), 0, arr.length);
  const i1 = clamp(Math.ceil(view.end * rate) + 1, 0, arr.length);
  if (i1 - i0 <= width) {
    for (let i = i0; i < i1; i++) {
      const xa = round2(tl.timeToX(i / rate)), xb = round2(tl.timeToX((i + 1) / rate));
      const y = round2(yOf(arr[i])), yb = round2(base ?? y);
      top.push(`${xa},${y}`, `${xb},${y}`);
      bottom.push(`${xa},${yb}`, `${xb},${yb}`);
    }
  } else {
    const perPx = ((view.end - view.start) * rate) / width, first = view.start * rate;
    for (let col = 0; col < width; col++) {
      const a = Math.max(i0, Math.floor(first + col * perPx)), b = Math.min(i1, Math.floor(first + (col + 1) * perPx));
      if (b <= a) continue;
      let lo = arr[a], hi = arr[a];
      for (let i = a + 1; i < b; i++) { const v = arr[i]; if (v < lo) lo = v; else if (v > hi) hi = v; }
      const x = LEFT + col + 0.5;
      top.push(`${x},${round2(yOf(hi))}`);
      bottom.push(`${x},${round2(base ?? yOf(lo))}`);
    }
  }
  return top.length ? `M${top.join("L")}L${bottom.reverse().join("L")}Z` : "";
}
