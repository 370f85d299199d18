// hapticctl studio: the live strip (#live, a canvas): the current board's streamed g
// (auto-scaled) and drive level (±1) over the last 2 s, each channel a line, redrawn at most
// once a frame while the pattern view is shown (hidden, it costs the pad's stream nothing).

import { $, bus } from "./util.js";
import { Boards } from "./boards.js";
import { Socket } from "./socket.js";

/** The board's streamed g (auto-scaled) and level (±1) over the last 2 s, on a canvas. */
export const Live = {
  seconds: 2,
  samples: [], // {time, channels: [{g, level}]}
  shown: true,  // the pattern view is

  init() {
    const canvas = $("live"), dpr = window.devicePixelRatio || 1;
    [this.w, this.h] = [canvas.width, canvas.height];
    Object.assign(canvas.style, { width: `${this.w}px`, height: `${this.h}px` });
    [canvas.width, canvas.height] = [this.w * dpr, this.h * dpr];
    this.ctx = canvas.getContext("2d");
    this.ctx.scale(dpr, dpr);
    const css = getComputedStyle(document.documentElement);
    this.colors = { level: css.getPropertyValue("--drive").trim(), g: css.getPropertyValue("--accel").trim() };
    bus.on("stream", (msg) => this.add(msg));
    bus.on("board", () => { this.samples = []; this.schedule(); });
    bus.on("view", (name) => { this.shown = name === "pattern"; this.schedule(); });
    this.draw();
  },

  add(msg) {
    if (msg.board !== Boards.current) return;
    this.samples.push({ time: msg.time, channels: msg.channels ?? [] });
    const cut = msg.time - this.seconds, drop = this.samples.findIndex((s) => s.time >= cut);
    if (drop > 0) this.samples.splice(0, drop);
    this.schedule();
  },

  schedule() {
    if (this.queued || !this.shown) return;
    this.queued = true;
    requestAnimationFrame(() => { this.queued = false; this.draw(); });
  },

  draw() {
    const { ctx, w, h, samples } = this;
    ctx.clearRect(0, 0, w, h);
    ctx.strokeStyle = "#e2e6ee";
    ctx.beginPath(); ctx.moveTo(0, h / 2); ctx.lineTo(w, h / 2); ctx.stroke();
    ctx.fillStyle = "#6b7385";
    ctx.font = "10px monospace";
    if (samples.length < 2) { ctx.fillText(Socket.subscribed ? "waiting for the stream…" : "not streaming", 6, 14); return; }
    const now = samples[samples.length - 1].time, xOf = (t) => w - ((now - t) / this.seconds) * w;
    const gmax = Math.max(0.1, ...samples.flatMap((s) => s.channels.map((c) => c.g ?? 0)));
    ctx.fillText(`${gmax.toFixed(2)} g`, 4, 11);
    ctx.lineWidth = 1.2;
    for (let ch = samples[samples.length - 1].channels.length - 1; ch >= 0; ch--) {
      ctx.globalAlpha = ch === 0 ? 1 : 0.55;
      for (const [key, yOf] of [["level", (v) => h / 2 - v * (h / 2 - 4)], ["g", (v) => h - 3 - (v / gmax) * (h - 6)]]) {
        ctx.strokeStyle = this.colors[key];
        ctx.beginPath();
        let pen = false;
        for (const s of samples) {
          const v = s.channels[ch]?.[key];
          if (v != null) ctx[pen ? "lineTo" : "moveTo"](xOf(s.time), yOf(v));
          pen = v != null;
        }
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
  },
};
