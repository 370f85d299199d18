// hapticctl studio: the pattern view's timeline (#timeline, an SVG): the render shown, the view
// (the seconds in sight) and its changes (wheel zoom, drag pan, the zoom buttons, fit), the time
// axis, the playhead and start marker, clicks that seek, and the #hover read-out. The lanes
// under the axis are drawn by lanes.js; every x goes through `timeToX`. Each draw counts in
// studio.drawCount (its time in studio.lastDrawMs); `painted()` waits for the frame after one.

import { $, attr, bus, clamp, fmtNum, fmtSeconds, fmtTick, niceStep, round2, studio, svgEl } from "./util.js";
import { buildLaneBackgrounds, buildLanes, drawLanes, laneGeometry } from "./lanes.js";
import { Warnings } from "./warnings.js";
import { Audition } from "./audition.js";

/** The plot's margins in px: the lane labels' column on the left, a little room on the right. */
export const LEFT = 70, RIGHT = 14;

/**
 * The pattern view's SVG: lanes stacked under one time axis, every x through `timeToX`.
 * Event nodes are built once per render and moved on redraw (requestAnimationFrame); the
 * board's arrays are drawn as min/max per pixel column, or each frame's step zoomed in.
 */
export const Timeline = {
  svg: $("timeline"),
  render: null,
  width: 800,
  view: { start: 0, end: 1 },
  full: 1,        // seconds a fit shows
  lanes: {},      // name → {y, h}; `bottom` is the lowest lane's end
  channels: [],   // {index, rate, level, g, hz (Float32Array), gmax, drivePath, accelPath}
  events: [],     // {data, node}
  playhead: null, // pattern seconds, or null (hidden)
  queued: { draw: false, overlay: false },
  drag: null,
  waiting: [],    // painted()'s promises, resolved in the frame after the next draw

  plotWidth() { return Math.max(10, this.width - LEFT - RIGHT); },
  timeToX(t) { return LEFT + ((t - this.view.start) / (this.view.end - this.view.start)) * this.plotWidth(); },
  xToTime(x) { return this.view.start + ((x - LEFT) / this.plotWidth()) * (this.view.end - this.view.start); },

  init() {
    new ResizeObserver(() => this.layout()).observe($("timeline-box"));
    const on = (type, fn, opts) => this.svg.addEventListener(type, fn.bind(this), opts);
    on("wheel", this.wheel, { passive: false });
    on("pointerdown", this.pointerDown);
    on("pointermove", this.pointerMove);
    on("pointerup", this.pointerUp);
    on("pointerleave", this.hideHover);
    $("zoom-in").addEventListener("click", () => this.zoom(0.5));
    $("zoom-out").addEventListener("click", () => this.zoom(2));
    $("fit").addEventListener("click", () => this.fit());
    bus.on("render", (r) => this.load(r));
    this.layout();
  },

  /** A new render (or null: nothing loaded). */
  load(render) {
    this.render = render;
    this.playhead = null;
    $("timeline-empty").hidden = !!render;
    this.channels = (render?.channels ?? []).map((c, i) => {
      const g = Float32Array.from(c.g ?? []);
      const gmax = g.reduce((m, v) => (v > m ? v : m), 0);
      return { index: c.channel ?? i, rate: c.rate || 1 / (render.frame_period || 0.001), g,
        level: Float32Array.from(c.level ?? []), hz: Float32Array.from(c.hz ?? []),
        gmax: Math.max(gmax, (render.threshold_g ?? 0) * 1.5, 1e-3) };
    });
    this.full = Math.max(0.05, render?.duration ?? 0, ...this.channels.map((c) => c.level.length / c.rate),
      ...(render?.events ?? []).map((e) => e.time + (e.duration ?? 0)));
    this.view = { start: 0, end: this.full };
    Warnings.show(render);
    this.layout();
  },

  /** Lane geometry and the static parts (backgrounds, labels, event nodes, paths); then a draw. */
  layout() {
    this.width = Math.max(300, Math.round($("timeline-box").clientWidth));
    this.lanes = laneGeometry(this.channels);
    const height = this.lanes.bottom + 4;
    attr(this.svg, { viewBox: `0 0 ${this.width} ${height}`, height });
    this.svg.replaceChildren();
    this.buildStatic();
    this.scheduleDraw();
  },

  buildStatic() {
    const s = this.svg;
    svgEl("rect", { x: LEFT, y: 0, width: this.plotWidth(), height: 10000 },
      svgEl("clipPath", { id: "plot-clip" }, svgEl("defs", {}, s)));
    buildLaneBackgrounds(this);
    this.gGrid = svgEl("g", { "clip-path": "url(#plot-clip)" }, s);
    this.gAxis = svgEl("g", {}, s);
    const plot = svgEl("g", { "clip-path": "url(#plot-clip)" }, s);
    buildLanes(this, plot);
    const full = { y1: 0, y2: this.lanes.bottom, style: "display:none" };
    this.startMarker = svgEl("line", { id: "start-marker", ...full }, plot);
    this.cursor = svgEl("line", { id: "cursor", ...full }, plot);
    this.playheadNode = svgEl("line", { id: "playhead", ...full }, plot);
  },

  scheduleDraw(what = "draw") {
    if (this.queued[what]) return;
    this.queued[what] = true;
    requestAnimationFrame(() => { this.queued[what] = false; this[what](); });
  },

  draw() {
    const start = performance.now();
    this.gAxis.replaceChildren();
    this.gGrid.replaceChildren();
    if (this.render) { this.drawAxis(); drawLanes(this); }
    this.overlay();
    studio.drawCount += 1;
    studio.lastDrawMs = Math.round((performance.now() - start) * 10) / 10;
    const waiting = this.waiting.splice(0);
    if (waiting.length) requestAnimationFrame(() => { const now = performance.now(); for (const done of waiting) done(now); });
  },

  /** The moment (performance.now()) of the frame after the next draw: that draw is painted. */
  painted() {
    return new Promise((resolve) => this.waiting.push(resolve));
  },

  drawAxis() {
    const { start, end } = this.view, axis = this.lanes.axis, step = niceStep(end - start, this.plotWidth());
    for (let k = Math.ceil(start / step); k * step <= end + step * 1e-6; k++) {
      const x = round2(this.timeToX(k * step));
      svgEl("line", { class: "tick", x1: x, x2: x, y1: axis.y + axis.h - 6, y2: axis.y + axis.h }, this.gAxis);
      svgEl("line", { class: "grid", x1: x, x2: x, y1: axis.y + axis.h, y2: this.lanes.bottom }, this.gGrid);
      svgEl("text", { x: x + 3, y: axis.y + 12 }, this.gAxis, fmtTick(k * step, step));
    }
  },

  /** The playhead and, when not playing, the start marker. */
  overlay() {
    const place = (node, t) => {
      if (t == null || !this.render) { node.style.display = "none"; return; }
      const x = round2(this.timeToX(t));
      attr(node, { x1: x, x2: x }).style.display = "";
    };
    place(this.playheadNode, this.playhead);
    place(this.startMarker, this.playhead == null && Audition.startOffset > 0 ? Audition.startOffset : null);
  },

  /** Moves the playhead (null hides it); zoomed in, the view pages to keep it in sight. */
  setPlayhead(t) {
    if (t === this.playhead) return;
    this.playhead = t;
    const span = this.view.end - this.view.start;
    if (t != null && !this.drag && (t > this.view.end || t < this.view.start) && span < this.full * 0.98) {
      this.setView(t - span * 0.05, t + span * 0.95);
    }
    this.scheduleDraw("overlay"); // the stream comes at 200 Hz: one move per frame
  },

  // --- view changes

  setView(start, end) {
    const span = clamp(end - start, 0.004, this.full * 1.5), lo = -0.1 * this.full;
    start = clamp(start, lo, Math.max(lo, this.full * 1.1 - span));
    this.view = { start, end: start + span };
    this.scheduleDraw();
  },
  zoom(factor, at = (this.view.start + this.view.end) / 2) {
    this.setView(at - (at - this.view.start) * factor, at + (this.view.end - at) * factor);
  },
  fit() { this.setView(0, this.full); },
  centerOn(t) {
    const span = Math.min(this.view.end - this.view.start, Math.max(this.full / 4, 0.05));
    this.setView(t - span / 2, t + span / 2);
  },

  // --- pointer: wheel zoom, drag pan, click to seek, hover tooltip

  localPoint(e) {
    const r = this.svg.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * this.width) / r.width, y: e.clientY - r.top };
  },
  wheel(e) {
    if (!this.render) return;
    e.preventDefault();
    const dy = e.deltaY * ([1, 16, 400][e.deltaMode] ?? 1);
    this.zoom(Math.exp(clamp(dy, -300, 300) * 0.0015), this.xToTime(this.localPoint(e).x));
  },
  pointerDown(e) {
    if (e.button !== 0 || !this.render) return;
    this.drag = { x: this.localPoint(e).x, view: { ...this.view }, moved: false, id: e.pointerId };
    try { this.svg.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer: no capture */ }
  },
  pointerMove(e) {
    const p = this.localPoint(e), drag = this.drag;
    if (!drag) { this.hover(p); return; }
    const dx = p.x - drag.x;
    if (Math.abs(dx) > 3 && !drag.moved) { drag.moved = true; this.svg.classList.add("dragging"); this.hideHover(); }
    if (!drag.moved) return;
    const dt = (dx / this.plotWidth()) * (drag.view.end - drag.view.start);
    this.setView(drag.view.start - dt, drag.view.end - dt);
  },
  pointerUp(e) {
    const drag = this.drag, p = this.localPoint(e), axis = this.lanes.axis;
    this.drag = null;
    this.svg.classList.remove("dragging");
    if (!drag) return;
    if (this.svg.hasPointerCapture(drag.id)) this.svg.releasePointerCapture(drag.id);
    if (!drag.moved && p.x >= LEFT && (e.shiftKey || p.y <= axis.y + axis.h)) Audition.seek(this.xToTime(p.x));
  },

  /** #hover: the time and, under the pointer, each channel's values and the events there. */
  hover(p) {
    const box = $("hover");
    if (!this.render || p.x < LEFT || p.x > this.width - RIGHT) { this.hideHover(); return; }
    const t = this.xToTime(p.x), lines = [`t ${fmtSeconds(t)}`];
    for (const c of this.channels) {
      const i = Math.floor(t * c.rate);
      if (i < 0 || i >= c.level.length) continue;
      lines.push(`ch${c.index} level ${fmtNum(c.level[i])}  g ${fmtNum(c.g[i])}  ${c.hz[i] ? `${Math.round(c.hz[i])} Hz` : "no drive"}`);
    }
    const near = 4 * ((this.view.end - this.view.start) / this.plotWidth()); // 4 px, in seconds
    const under = this.events.filter(({ data: e }) => t >= e.time - near && t <= e.time + Math.max(e.duration ?? 0, near));
    for (const { data: e } of under.slice(0, 4)) {
      lines.push(`#${e.index} ${e.type}` + (e.intensity != null ? `  intensity ${fmtNum(e.intensity, 2)}  sharpness ${fmtNum(e.sharpness, 2)}` : ""));
    }
    if (under.length > 4) lines.push(`… ${under.length - 4} more events (zoom in)`);
    box.textContent = lines.join("\n");
    box.hidden = false;
    const r = this.svg.getBoundingClientRect(), px = (p.x * r.width) / this.width;
    box.style.left = `${px + 14 + box.offsetWidth > r.width ? px - 14 - box.offsetWidth : px + 14}px`;
    box.style.top = `${clamp(p.y + 14, 0, r.height - box.offsetHeight)}px`;
    attr(this.cursor, { x1: round2(p.x), x2: round2(p.x) }).style.display = "";
  },
  hideHover() {
    $("hover").hidden = true;
    if (this.cursor) this.cursor.style.display = "none";
  },
};
