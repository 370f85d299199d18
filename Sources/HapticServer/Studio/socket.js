// hapticctl studio: the WebSocket /v1/ws. Requests carry ids and get promises (send: none, for
// live parameters); stream (stamped with its arrival, receivedAt) and player events go to the
// bus, board events to Boards; opening and losing it go to the bus as "socket"; a lost socket
// rejects what waits, forgets our players and reconnects (1 s, doubling up to 10 s), saying so
// once per loss.

import { bus, studio } from "./util.js";
import { Status, showFailure } from "./status.js";
import { ApiError, apiUrl } from "./api.js";
import { Boards } from "./boards.js";
import { Audition } from "./audition.js";

/** The socket: requests with ids get promises; events go to the bus; reconnects when lost. */
export const Socket = {
  ws: null, open: false, everOpened: false, nextId: 1, pending: new Map(), retryMs: 1000, subscribed: null,

  connect() {
    const url = apiUrl("/v1/ws");
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    this.ws = new WebSocket(url);
    this.ws.addEventListener("open", () => {
      Object.assign(this, { open: true, retryMs: 1000, subscribed: null });
      if (this.everOpened) Status.notice("reconnected to the server", "socket");
      this.everOpened = true;
      this.subscribe(Boards.current);
      bus.emit("socket", { open: true });
    });
    this.ws.addEventListener("message", (e) => this.receive(e.data));
    this.ws.addEventListener("close", (e) => this.closed(e));
  },

  closed(e) {
    const wasOpen = this.open;
    Object.assign(this, { open: false, ws: null });
    for (const { reject } of this.pending.values()) reject(new ApiError("server gone: the WebSocket closed"));
    this.pending.clear();
    Audition.forget();
    bus.emit("socket", { open: false });
    // Said once per loss (retries of a lost server stay quiet), and for a first connect.
    if (wasOpen || !this.everOpened) {
      Status.error(`server gone: the WebSocket closed (code ${e.code}${e.reason ? `: ${e.reason}` : ""}); reconnecting…`, "socket");
    }
    setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 10000);
  },

  /** Sends `message` with an id; resolves with the reply, rejects with the error's message. */
  request(message) {
    if (!this.open) return Promise.reject(new ApiError("not connected to the server (the WebSocket is closed)"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  },

  /** Sends `message` without an id: no reply (live parameters); a refusal comes as an error, shown. */
  send(message) {
    if (this.open) this.ws.send(JSON.stringify(message));
  },

  /** Deletes `player` (a page's own; gone already is the server's expected not_found), a failure
   * shown as `what`'s. */
  deletePlayer(player, what) {
    this.request({ op: "delete", player }).catch((err) => { if (err.code !== "not_found") showFailure(what)(err); });
  },

  /** Streams `board` (and stops streaming the previous one). */
  subscribe(board) {
    if (!this.open || board === this.subscribed) return;
    if (this.subscribed) this.request({ op: "unsubscribe", board: this.subscribed }).catch(showFailure("unsubscribe"));
    this.subscribed = board;
    if (board) this.request({ op: "subscribe", board }).catch(showFailure(`subscribe to ${board}`));
  },

  receive(text) {
    const receivedAt = performance.now(); // a stream message's arrival (the pad's latency ends there)
    let msg;
    try { msg = JSON.parse(text); } catch { Status.error(`unreadable WebSocket message: ${String(text).slice(0, 120)}`); return; }
    if (msg.type === "stream") {
      msg.receivedAt = receivedAt;
      studio.streamCount += 1;
      studio.lastStream = msg;
      bus.emit("stream", msg);
    } else if (msg.type === "reply" || msg.type === "error") {
      const waiting = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      const e = msg.error ?? {};
      if (msg.type === "reply") waiting?.resolve(msg);
      else if (waiting) waiting.reject(new ApiError(e.message ?? JSON.stringify(msg), 0, e.code, e.field));
      else Status.error(`${msg.op ?? "request"}: ${e.message ?? JSON.stringify(msg)}`);
    } else if (msg.type === "player") bus.emit("player", msg);
    else if (msg.type === "board") Boards.event(msg);
    else if (msg.type === "hello") studio.client = msg.client;
    // Other (newer) message types are not this page's business.
  },
};
