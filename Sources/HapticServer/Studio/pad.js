// hapticctl studio: the pad (issue 29, after Apple's HapticPalette sample): a square (#pad)
// where x is sharpness (0 → 1, left to right) and y intensity (0 → 1, bottom to top). While
// the pad view is shown the page keeps a prepared player of a held continuous pattern on the
// board (`play` with start false, looped; prepared again when the board changes or the player
// is gone); a press sends the point as live `parameters` and starts it, a drag sends
// `parameters` (no id: no reply; at most one per animation frame, the latest point), and a
// release, cancel or leaving the view stops it. The board's stream shows in #pad-readout, and
// the pad → drive latency is measured on intensity steps and shown in #pad-latency.
//
// The latency of a step (a send that moves the intensity by STEP or more from the last step
// measured; a press counts from rest, level 0) runs from the pointer event (performance.now())
// to the arrival of the first stream message whose channel-0 level has moved from the level
// before it by at least half the way to the level it settles at. In either direction: an LRA's
// drive is level × sin φ in the carrier's phase, and the server's shaper answers a step with an
// overdrive or a brake of either sign (a step down often starts with a large positive brake),
// so the sign is no direction. The settled level is read from the stream itself (its median
// over the last SETTLED_SPAN_MS before SETTLE_MS, or before a later send moved the target away):
// no model of the board's intensity → level map is needed.
// window.studio gets padLatencies (ms), padStream ({t, time, level, hz, g} from a press until
// AFTER_MS past its release, t the arrival in performance.now()) and padEvents ({t, kind, x, y}).

import { $, bus, clamp, fmtNum, studio } from "./util.js";
import { Status, showFailure } from "./status.js";
import { Socket } from "./socket.js";
import { Boards } from "./boards.js";
import { Audition } from "./audition.js";

/** The held pattern: one continuous event of 30 s, intensity 1 and sharpness 0 (looped). */
const HELD = JSON.stringify({ Version: 1, Pattern: [{ Event: {
  Time: 0, EventType: "HapticContinuous", EventDuration: 30, EventParameters: [
    { ParameterID: "HapticIntensity", ParameterValue: 1 }, { ParameterID: "HapticSharpness", ParameterValue: 0 }] } }] });

const STEP = 0.3;            // an intensity change this large (since the last step measured) is a step
const SUPERSEDE = 0.1;       // a later send moving the target this far ends a step's wait
const SETTLE_MS = 120;       // a step's settled level is read this long after it …
const SETTLED_SPAN_MS = 30;  // … as the median level streamed over the last this
const MIN_SETTLE_MS = 60;    // a step ended sooner (superseded, released) is not measured
const MIN_DELTA = 0.02;      // nor one whose level moved less than this
const AFTER_MS = 400;        // the stream is recorded this long after a release
const KEEP = 20000;          // padStream entries kept (100 s of the 200 Hz stream)
const KEEP_LATENCIES = 1000;
const SIZE = 320;            // the pad's side, CSS px

const median = (values) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length ? (v[(v.length - 1) >> 1] + v[v.length >> 1]) / 2 : null;
};
/** The nearest-rank percentile `p` (0..1) of sorted `v`. */
const percentile = (v, p) => v[clamp(Math.ceil(p * v.length) - 1, 0, v.length - 1)];
const round4 = (v) => Math.round(v * 1e4) / 1e4;

export const Pad = {
  shown: false,
  playerId: null, board: null, preparing: false,
  down: false, pointerId: null,
  pos: { x: 0.5, y: 0.5 },
  sentThisFrame: false, queued: null, framePending: false, // the per-frame throttle of drags
  level: 0, last: null,     // the latest streamed level (channel 0), and channel 0
  ref: 0, steps: [],        // the intensity of the last step measured; steps waiting to settle
  recordUntil: -1,          // performance.now() until which the stream goes to studio.padStream

  init() {
    const canvas = (this.canvas = $("pad")), dpr = window.devicePixelRatio || 1;
    Object.assign(canvas.style, { width: `${SIZE}px`, height: `${SIZE}px` });
    [canvas.width, canvas.height] = [SIZE * dpr, SIZE * dpr];
    this.ctx = canvas.getContext("2d");
    this.ctx.scale(dpr, dpr);
    canvas.addEventListener("pointerdown", (e) => this.pointerDown(e));
    // pointerrawupdate (Chrome, in a secure context such as localhost) comes as the input does;
    // pointermove waits for the next animation frame.
    canvas.addEventListener("onpointerrawupdate" in window ? "pointerrawupdate" : "pointermove", (e) => this.pointerMove(e));
    for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
      canvas.addEventListener(type, (e) => { if (e.pointerId === this.pointerId) this.release(); });
    }
    document.addEventListener("visibilitychange", () => { if (document.hidden) this.release(); });
    bus.on("view", (name) => this.show(name === "pad"));
    bus.on("board", () => { this.release(); this.discard(); this.prepare(); });
    bus.on("player", (msg) => this.playerEvent(msg));
    bus.on("stream", (msg) => this.streamed(msg));
    bus.on("socket", ({ open }) => { if (open) this.prepare(); else this.forget(); });
    this.showLatency();
    this.schedule();
  },

  show(shown) {
    this.shown = shown;
    if (!shown) { this.release(); return; }
    if (Audition.active()) Audition.stop(); // the pad has the board to itself
    this.prepare();
    this.schedule();
  },

  /** A player of the held pattern on the current board, not started (none while hidden). */
  async prepare() {
    const board = Boards.current;
    if (!this.shown || !board || !Socket.open || this.preparing || (this.playerId != null && this.board === board)) return;
    this.discard();
    this.preparing = true;
    this.showState();
    try {
      const { player } = await Socket.request({ op: "play", board, document: HELD, start: false, loop: true });
      Object.assign(this, { playerId: player.id, board, preparing: false });
      Status.clear("pad");
      if (board !== Boards.current) { this.discard(); this.prepare(); return; }
      if (this.down) this.press(performance.now()); // pressed while it was being prepared
    } catch (err) {
      this.preparing = false;
      Status.error(`pad: cannot prepare a player on ${board}: ${err.message}`, "pad");
    }
    this.showState();
  },

  /** Deletes our player (gone already, the server's not_found is expected). */
  discard() {
    if (this.playerId == null) return;
    const player = this.playerId;
    this.forget();
    Socket.deletePlayer(player, "pad: delete");
  },

  forget() {
    Object.assign(this, { playerId: null, board: null });
    this.showState();
  },

  playerEvent({ change, player, message }) {
    if (!player || player.id !== this.playerId) return;
    if (change === "deleted") {
      this.forget();
      this.prepare();
    } else if (change === "failed" || player.state === "failed") {
      Status.error(`pad: player ${player.id} failed: ${player.error ?? message ?? "(no reason given)"}`, "pad-player");
      this.discard();
      this.prepare();
    }
  },

  /** The pad's point under pointer event `e`: x sharpness, y intensity, each 0..1 (the pad's box read at the press). */
  point(e) {
    const r = this.rect;
    return { x: round4(clamp((e.clientX - r.left) / r.width, 0, 1)), y: round4(clamp(1 - (e.clientY - r.top) / r.height, 0, 1)) };
  },

  note(kind, t) {
    studio.padEvents.push({ t, kind, x: this.pos.x, y: this.pos.y });
    if (studio.padEvents.length > KEEP) studio.padEvents.splice(0, studio.padEvents.length - KEEP);
  },

  pointerDown(e) {
    if (e.button !== 0 || this.down) return;
    const t = performance.now();
    e.preventDefault();
    this.canvas.setPointerCapture(e.pointerId);
    this.rect = this.canvas.getBoundingClientRect();
    Object.assign(this, { down: true, pointerId: e.pointerId, pos: this.point(e), queued: null, recordUntil: Infinity });
    Object.assign(studio, { padStream: [], padEvents: [] });
    this.note("down", t);
    if (this.playerId == null) this.prepare(); // started once prepared
    else this.press(t);
    this.schedule();
  },

  /** Sends the point and starts the player; a press counts from rest (level 0). */
  press(t) {
    this.sendParameters(t, true);
    Socket.request({ op: "start", player: this.playerId }).catch(showFailure("pad: start"));
  },

  pointerMove(e) {
    if (!this.down || e.pointerId !== this.pointerId) return;
    const t = performance.now();
    this.pos = this.point(e);
    if (this.sentThisFrame) this.queued = t; // sent with the next frame (the latest point then)
    else this.sendParameters(t);
    this.note("move", t);
    this.schedule();
  },

  /** `parameters` (no id) for the current point, the pointer event at `t`. */
  sendParameters(t, fromRest = false) {
    if (this.playerId == null) return;
    const { x, y } = this.pos;
    this.measure(y, t, fromRest);
    Socket.send({ op: "parameters", player: this.playerId, intensity: y, sharpness: x });
    this.sentThisFrame = true;
    if (!this.framePending) { this.framePending = true; requestAnimationFrame(() => this.frame()); }
  },

  frame() {
    this.framePending = false;
    if (this.queued != null && this.down) {
      const t = this.queued;
      this.queued = null;
      this.sendParameters(t); // keeps sentThisFrame for this frame
    } else this.sentThisFrame = false;
  },

  release() {
    if (!this.down) return;
    const t = performance.now();
    Object.assign(this, { down: false, queued: null, recordUntil: t + AFTER_MS });
    if (this.canvas.hasPointerCapture(this.pointerId)) this.canvas.releasePointerCapture(this.pointerId);
    this.note("up", t);
    for (const step of [...this.steps]) this.settle(step, t);
    if (this.playerId != null) Socket.request({ op: "stop", player: this.playerId }).catch(showFailure("pad: stop"));
    this.schedule();
  },

  /** A send of intensity `y` at `t`: ends the steps it moves away from, and is one when it is STEP or more from the last. */
  measure(y, t, fromRest) {
    for (const step of [...this.steps]) if (fromRest || Math.abs(y - step.intensity) > SUPERSEDE) this.settle(step, t);
    if (fromRest) this.ref = 0;
    if (Math.abs(y - this.ref) < STEP - 1e-9) return;
    this.steps.push({ t0: t, before: fromRest ? 0 : this.level, intensity: y, samples: [] });
    this.ref = y;
  },

  /** Step `step`'s wait ends at `end`: its latency, when it had time to settle and moved. */
  settle(step, end) {
    this.steps.splice(this.steps.indexOf(step), 1);
    if (end - step.t0 < MIN_SETTLE_MS) return;
    const settled = median(step.samples.filter((s) => s.t >= end - SETTLED_SPAN_MS).map((s) => s.level));
    const delta = settled - step.before;
    if (settled == null || Math.abs(delta) < MIN_DELTA) return;
    const hit = step.samples.find((s) => Math.abs(s.level - step.before) >= 0.5 * Math.abs(delta));
    if (!hit) return;
    studio.padLatencies.push(Math.round((hit.t - step.t0) * 100) / 100);
    if (studio.padLatencies.length > KEEP_LATENCIES) studio.padLatencies.shift();
    this.showLatency();
  },

  streamed(msg) {
    if (msg.board !== Boards.current) return;
    const t = msg.receivedAt ?? performance.now(), c = msg.channels?.[0] ?? {};
    this.level = c.level ?? 0;
    this.last = c;
    if (t <= this.recordUntil) {
      studio.padStream.push({ t, time: msg.time, level: this.level, hz: c.hz ?? null, g: c.g ?? null });
      if (studio.padStream.length > KEEP) studio.padStream.splice(0, studio.padStream.length - KEEP);
    }
    for (const step of [...this.steps]) {
      step.samples.push({ t, level: this.level });
      if (t - step.t0 >= SETTLE_MS) this.settle(step, t);
    }
    if (this.shown) this.schedule();
  },

  showLatency() {
    const v = [...studio.padLatencies].sort((a, b) => a - b);
    $("pad-latency").textContent = v.length
      ? `pad → drive: p50 ${percentile(v, 0.5).toFixed(1)} ms, p95 ${percentile(v, 0.95).toFixed(1)} ms (${v.length} steps)`
      : `pad → drive: no step yet (move ${STEP} or more in intensity)`;
  },

  showState() {
    $("pad-state").textContent = this.playerId != null ? `player ${this.playerId} on ${this.board}`
      : this.preparing ? "preparing a player…" : Boards.current ? "no player" : "no board";
  },

  /** Redraws the pad and the readout with the next frame. */
  schedule() {
    if (this.drawQueued || !this.shown) return;
    this.drawQueued = true;
    requestAnimationFrame(() => { this.drawQueued = false; this.draw(); });
  },

  draw() {
    const { ctx } = this, c = this.last ?? {};
    $("pad-readout").textContent =
      `x ${fmtNum(this.pos.x, 2)} sharpness · y ${fmtNum(this.pos.y, 2)} intensity${this.down ? " (held)" : ""}\n` +
      `level ${fmtNum(c.level, 3)} · ${fmtNum(c.hz, 0)} Hz · ${fmtNum(c.g, 3)} g`;
    ctx.clearRect(0, 0, SIZE, SIZE);
    const fill = ctx.createLinearGradient(0, SIZE, 0, 0);
    fill.addColorStop(0, "#f4f6fa");
    fill.addColorStop(1, "#dbe6fb");
    ctx.fillStyle = fill;
    ctx.fillRect(0, 0, SIZE, SIZE);
    ctx.strokeStyle = "#e2e6ee";
    ctx.beginPath();
    for (let k = 1; k < 10; k++) {
      const p = Math.round((k * SIZE) / 10) + 0.5;
      ctx.moveTo(p, 0); ctx.lineTo(p, SIZE); ctx.moveTo(0, p); ctx.lineTo(SIZE, p);
    }
    ctx.stroke();
    const px = this.pos.x * SIZE, py = (1 - this.pos.y) * SIZE;
    // The drive's level as a ring around the point while it plays.
    if (this.down && Math.abs(c.level ?? 0) > 0) {
      ctx.strokeStyle = "#0f766e";
      ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(px, py, 10 + 40 * Math.min(1, Math.abs(c.level)), 0, 2 * Math.PI); ctx.stroke();
      ctx.lineWidth = 1;
    }
    ctx.fillStyle = this.down ? "#2f6fde" : "rgba(47, 111, 222, 0.35)";
    ctx.beginPath(); ctx.arc(px, py, 8, 0, 2 * Math.PI); ctx.fill();
  },
};
