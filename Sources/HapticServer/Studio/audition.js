// hapticctl studio: auditioning the document on the board through our own player on the socket:
// #play (from the start marker), #stop, #loop and #rate, seeks from the timeline; player events
// and the stream move the playhead and #position; a board change discards the player and
// renders the document again.

import { $, bus, clamp, fmtSeconds, studio } from "./util.js";
import { Status, showFailure } from "./status.js";
import { Socket } from "./socket.js";
import { Boards } from "./boards.js";
import { Doc } from "./document.js";
import { Timeline } from "./timeline.js";

/** Our player on the board: play, stop, seek, loop and rate over the socket. */
export const Audition = {
  playerId: null,
  state: null,
  board: null,
  startOffset: 0,

  init() {
    $("play").addEventListener("click", () => this.play());
    $("stop").addEventListener("click", () => this.stop());
    $("loop").addEventListener("change", () => this.update({ loop: $("loop").checked }));
    $("rate").addEventListener("change", () => {
      const text = $("rate").value.trim(), rate = Number(text);
      if (text === "") return; // being edited: play uses 1 meanwhile
      if (Number.isFinite(rate) && rate > 0) this.update({ rate });
      else Status.error(`rate: ${text} is not a number from 0.25 to 4`);
    });
    bus.on("player", (msg) => this.playerEvent(msg));
    bus.on("stream", (msg) => this.streamed(msg));
    bus.on("board", () => { this.discard(); Doc.render(); });
  },

  active() { return this.playerId != null && ["playing", "paused"].includes(this.state); },

  async play() {
    const doc = Doc.current, board = Boards.current;
    if (!doc) { Status.error("nothing to play: choose a library file or open a file first"); return; }
    if (!board) { Status.error("no board to play on"); return; }
    this.discard();
    const message = { op: "play", board, loop: $("loop").checked, rate: Number($("rate").value) || 1 };
    if (this.startOffset > 0) message.offset = this.startOffset;
    if (doc.kind === "file") message.file = doc.name;
    else Object.assign(message, { document: doc.text }, doc.format ? { format: doc.format } : {});
    studio.levelPeak = 0;
    try {
      const { player } = await Socket.request(message);
      Object.assign(this, { playerId: player.id, board, state: player.state });
    } catch (err) {
      Status.error(`play ${doc.name} on ${board}: ${err.message}`);
    }
  },

  stop() {
    if (this.playerId != null) Socket.request({ op: "stop", player: this.playerId }).catch(showFailure("stop"));
  },

  /** Seeks the playing player, or sets where the next play starts. */
  seek(t) {
    t = clamp(t, 0, Timeline.render?.duration ?? t);
    if (this.active()) Socket.request({ op: "seek", player: this.playerId, offset: t }).catch(showFailure("seek"));
    else { this.startOffset = t; Timeline.overlay(); }
  },

  /** Loop or rate changed: applied to a live player at once. */
  update(fields) {
    if (this.active()) Socket.request({ op: "set", player: this.playerId, ...fields }).catch(showFailure("set"));
  },

  /** Deletes our previous player (gone already, the server's not_found is expected). */
  discard() {
    if (this.playerId == null) return;
    const player = this.playerId;
    this.forget();
    Socket.deletePlayer(player, "delete");
  },

  forget() {
    Object.assign(this, { playerId: null, state: null });
    Timeline.setPlayhead(null);
    $("position").textContent = "";
  },

  playerEvent({ change, player, message }) {
    if (!player || player.id !== this.playerId) return;
    this.state = player.state;
    if (change === "failed" || player.state === "failed") {
      Status.error(`player ${player.id} failed: ${player.error ?? message ?? "(no reason given)"}`);
    }
    if (!["playing", "paused"].includes(player.state) || ["stopped", "finished", "failed", "deleted"].includes(change)) {
      Timeline.setPlayhead(null);
      $("position").textContent = player.state;
      Boards.refreshHealth(); // after each play ends
    }
    if (change === "deleted") this.playerId = null;
  },

  streamed(msg) {
    if (msg.board !== Boards.current) return;
    for (const c of msg.channels ?? []) studio.levelPeak = Math.max(studio.levelPeak, Math.abs(c.level ?? 0));
    if (this.playerId == null || msg.board !== this.board) return;
    const head = (msg.players ?? []).find((p) => p.player === this.playerId);
    Timeline.setPlayhead(head ? head.offset : null);
    if (head) $("position").textContent = `${head.state} ${fmtSeconds(head.offset)}`;
  },
};
