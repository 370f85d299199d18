// hapticctl studio: the compare view: the loaded document on two boards or board profiles, A
// and B (a served board, "board:ID", or a board type the server knows, "profile:ID", each with a
// channel). Their simulated acceleration is overlaid on one time axis and their response maps
// (what `hapticctl characterize` measures) are plotted side by side on one scale
// (compare_plots.js); a served side plays the document on its channel, and "A then B" plays
// one after the other, B when A's player has finished. Renders come from
// POST /v1/boards|profiles/{id}/render, maps from GET …/response; both are kept per document.

import { $, bus, studio } from "./util.js";
import { Status, showFailure } from "./status.js";
import { api } from "./api.js";
import { Socket } from "./socket.js";
import { Boards } from "./boards.js";
import { Doc } from "./document.js";
import { SIDE_COLORS, drawAccel, drawMap, mapFigures, mapRange } from "./compare_plots.js";

const SIDES = ["a", "b"];
const endpoint = (choice) => `/v1/${choice.kind === "board" ? "boards" : "profiles"}/${encodeURIComponent(choice.id)}`;

export const Compare = {
  profiles: [],
  shown: false,
  seq: 0,
  renders: new WeakMap(), // document → Map("board:ID" → render)
  responses: new Map(),   // "board:ID" → response
  players: { a: null, b: null },
  chain: null,            // the player id whose end starts B ("A then B")

  async init() {
    for (const key of SIDES) {
      $(`compare-${key}`).addEventListener("change", () => { this.fillChannels(key); this.remember(); this.refresh(); });
      $(`compare-${key}-channel`).addEventListener("change", () => { this.remember(); this.refresh(); });
      $(`compare-${key}-play`).addEventListener("click", () => this.play(key));
    }
    $("compare-both").addEventListener("click", () => this.playBoth());
    $("compare-stop").addEventListener("click", () => this.stop());
    bus.on("view", (name) => { this.shown = name === "compare"; if (this.shown) this.refresh(); });
    bus.on("render", () => { if (this.shown) this.refresh(); });
    bus.on("player", (msg) => this.playerEvent(msg));
    window.addEventListener("resize", () => { if (this.shown) this.draw(); });
  },

  /** The choices: the served boards, then the profiles (GET /v1/profiles); A the current board, B a profile. */
  async load() {
    this.profiles = (await api("GET", "/v1/profiles")).profiles ?? [];
    const options = [
      ...Boards.list.map((b) => new Option(`board ${b.id} — ${b.name}`, `board:${b.id}`)),
      ...this.profiles.map((p) => new Option(`profile ${p.id} — ${p.name}`, `profile:${p.id}`)),
    ];
    const saved = JSON.parse(localStorage.getItem("studio.compare") ?? "null");
    const defaults = { a: `board:${Boards.current}`, b: `profile:${this.profiles.find((p) => p.id !== Boards.current)?.id}` };
    for (const key of SIDES) {
      const select = $(`compare-${key}`);
      select.replaceChildren(...options.map((o) => new Option(o.text, o.value)));
      const wanted = saved?.[key]?.value;
      select.value = options.some((o) => o.value === wanted) ? wanted : defaults[key];
      this.fillChannels(key, saved?.[key]?.value === select.value ? saved[key].channel : null);
    }
  },

  /** The channel choice of side `key`'s board or profile (`channel` if it has it, else 0). */
  fillChannels(key, channel = null) {
    const choice = this.choice(key, false), select = $(`compare-${key}-channel`);
    const channels = choice?.info?.channels ?? [];
    select.replaceChildren(...channels.map((c, i) => new Option(`ch ${i} ${c.kind} ${Math.round(c.resonant_hz)} Hz`, String(i))));
    select.value = String(channel != null && channel < channels.length ? channel : 0);
    $(`compare-${key}-play`).disabled = choice?.kind !== "board";
    $(`compare-${key}-play`).title = choice?.kind === "board" ? `Play the pattern on ${choice.id}, channel ${select.value}`
      : "A board profile is not a served board: choose a board to play";
  },

  /** Side `key`'s choice: {kind, id, channel, info, label}. */
  choice(key, withChannel = true) {
    const value = $(`compare-${key}`).value;
    if (!value) return null;
    const [kind, ...rest] = value.split(":"), id = rest.join(":");
    const info = kind === "board" ? Boards.list.find((b) => b.id === id) : this.profiles.find((p) => p.id === id);
    const channel = withChannel ? Number($(`compare-${key}-channel`).value || 0) : 0;
    return { kind, id, channel, info, label: `${key.toUpperCase()}: ${kind} ${id} ch ${channel}` };
  },

  remember() {
    const saved = {};
    for (const key of SIDES) saved[key] = { value: $(`compare-${key}`).value, channel: Number($(`compare-${key}-channel`).value || 0) };
    localStorage.setItem("studio.compare", JSON.stringify(saved));
  },

  /** Renders and measures what is missing for the current document and both sides, then draws. */
  async refresh() {
    const doc = Doc.current, seq = ++this.seq;
    if (this.profiles.length === 0) {
      try { await this.load(); } catch (err) { Status.error(`compare: cannot list the board profiles: ${err.message}`, "compare"); return; }
    }
    if (!doc) { $("compare-empty").hidden = false; this.draw(); return; }
    $("compare-empty").hidden = true;
    if (!this.renders.has(doc)) this.renders.set(doc, new Map());
    const renders = this.renders.get(doc);
    const fetches = SIDES.map((key) => this.choice(key)).filter(Boolean).flatMap((c) => {
      const name = `${c.kind}:${c.id}`, path = endpoint(c);
      const render = renders.has(name) ? null : (doc.kind === "file"
        ? api("POST", `${path}/render`, { query: { file: doc.name } })
        : api("POST", `${path}/render`, { query: { format: doc.format }, body: doc.text }))
        .then(({ render: r }) => renders.set(name, r))
        .catch((err) => { renders.set(name, { error: err.message }); });
      const response = this.responses.has(name) ? null : api("GET", `${path}/response`)
        .then(({ response: r }) => this.responses.set(name, r))
        .catch((err) => Status.error(`response map of ${c.kind} ${c.id}: ${err.message}`, `response:${name}`));
      return [render, response].filter(Boolean);
    });
    await Promise.all(fetches);
    if (seq === this.seq && Doc.current === doc) this.draw();
  },

  /** Draws both plots from what is kept; each side's refusal shown with the server's message. */
  draw() {
    const doc = Doc.current, renders = (doc && this.renders.get(doc)) ?? new Map();
    const sides = [], maps = [], record = { document: doc?.name ?? null, sides: {} };
    for (const key of SIDES) {
      const c = this.choice(key);
      if (!c) continue;
      const name = `${c.kind}:${c.id}`, render = renders.get(name), response = this.responses.get(name);
      if (render?.error) Status.error(`cannot render ${doc.name} on ${c.kind} ${c.id}: ${render.error}`, `compare:${key}`);
      else Status.clear(`compare:${key}`);
      const channel = render?.channels?.find((ch) => ch.channel === c.channel) ?? null;
      const peak = channel ? Math.max(0, ...channel.g) : null;
      const felt = channel ? channel.g.filter((g) => g >= render.threshold_g).length / channel.rate : null;
      sides.push({ key, channel, threshold: render?.threshold_g, label: `${c.label}${peak != null ? ` — peak ${peak.toFixed(3)} g` : ""}` });
      const map = response?.channels?.find((m) => m.channel === c.channel) ?? null;
      if (map) maps.push({ key, map, threshold: response.threshold_g, choice: c });
      $(`compare-${key}-caption`).textContent = c.label;
      $(`compare-${key}-caption`).style.color = SIDE_COLORS[key];
      $(`compare-${key}-figures`).textContent = map ? mapFigures(map) : "";
      record.sides[key] = { kind: c.kind, id: c.id, channel: c.channel, peakG: peak, feltSeconds: felt,
        gSum: channel ? channel.g.reduce((sum, g) => sum + g, 0) : null,
        frames: channel?.g.length ?? 0, sweeps: map?.sweeps.length ?? 0 };
    }
    drawAccel($("compare-accel"), doc ? sides : [], renders.values().next().value?.duration ?? 0);
    const range = mapRange(maps.map((m) => m.map));
    for (const key of SIDES) {
      const m = maps.find((x) => x.key === key);
      if (m) drawMap($(`compare-map-${key}`), m.map, m.threshold, range, key);
      else $(`compare-map-${key}`).replaceChildren();
    }
    studio.compare = { ...record, drawn: (studio.compare?.drawn ?? 0) + 1 };
  },

  /** Plays the document on side `key`'s board and channel; resolves with the player id (null: refused). */
  async play(key) {
    const doc = Doc.current, c = this.choice(key);
    if (!doc) { Status.error("nothing to play: choose a library file or open a file first"); return null; }
    if (c?.kind !== "board") { Status.error(`${key.toUpperCase()} is a board profile, not a served board: it cannot play`); return null; }
    this.discard(key);
    const message = { op: "play", board: c.id, channels: [c.channel] };
    if (doc.kind === "file") message.file = doc.name;
    else Object.assign(message, { document: doc.text }, doc.format ? { format: doc.format } : {});
    try {
      const { player } = await Socket.request(message);
      this.players[key] = player.id;
      (studio.comparePlays ??= []).push({ side: key, board: c.id, channel: c.channel, player: player.id, at: performance.now() });
      return player.id;
    } catch (err) {
      Status.error(`play ${doc.name} on ${c.id}: ${err.message}`);
      return null;
    }
  },

  /** A, then B when A's player has finished (a refused or failed A stops the chain). */
  async playBoth() {
    this.chain = null;
    const first = await this.play("a");
    if (first != null) this.chain = first;
  },

  stop() {
    this.chain = null;
    for (const key of SIDES) {
      const player = this.players[key];
      if (player != null) Socket.request({ op: "stop", player }).catch(showFailure("stop"));
    }
  },

  discard(key) {
    const player = this.players[key];
    if (player == null) return;
    this.players[key] = null;
    Socket.deletePlayer(player, "delete");
  },

  playerEvent({ change, player }) {
    if (!player || !SIDES.some((key) => this.players[key] === player.id)) return;
    if (player.state === "failed") Status.error(`player ${player.id} failed: ${player.error ?? "(no reason given)"}`);
    if (player.id === this.chain && ["finished", "stopped", "failed"].includes(change)) {
      this.chain = null;
      if (change === "finished") this.play("b");
    }
  },
};
