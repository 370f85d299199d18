// hapticctl studio: the served boards: the #board choice (a deep link's &board=ID, else the one
// remembered in localStorage), the socket's subscription to the chosen one, its #health line and
// its connect/gone/reset events.

import { $, bus, fmtNum } from "./util.js";
import { Status } from "./status.js";
import { api } from "./api.js";
import { Socket } from "./socket.js";

export const Boards = {
  list: [],
  current: null,

  /** The list, and the choice: `linked` (a deep link's board) when served, else the saved one. */
  async load(linked = null) {
    const select = $("board");
    this.list = (await api("GET", "/v1/boards")).boards ?? [];
    select.replaceChildren(...this.list.map((b) => new Option(`${b.id} — ${b.name}`, b.id)));
    if (this.list.length === 0) Status.error("this server serves no boards", "boards");
    const served = (id) => this.list.some((b) => b.id === id), saved = localStorage.getItem("studio.board");
    if (linked && !served(linked)) {
      // The server's own word on it (GET /v1/boards/{id}: not found, most likely).
      api("GET", `/v1/boards/${encodeURIComponent(linked)}`).then(
        () => Status.error(`board ${linked} (the link's) is not in the server's list`, "link-board"),
        (err) => Status.error(`board ${linked} (the link's): ${err.message}`, "link-board"));
    }
    this.choose(served(linked) ? linked : served(saved) ? saved : this.list[0]?.id ?? null);
    select.addEventListener("change", () => this.choose(select.value));
  },

  choose(id) {
    this.current = id;
    $("board").value = id ?? "";
    if (id) localStorage.setItem("studio.board", id);
    Socket.subscribe(id);
    this.refreshHealth();
    bus.emit("board", id);
  },

  /** #health from GET /v1/boards/{id}. */
  async refreshHealth() {
    const id = this.current;
    if (!id) return;
    try {
      const { board } = await api("GET", `/v1/boards/${encodeURIComponent(id)}`);
      const h = board.health ?? {};
      $("health").textContent = `${board.state} · lookahead ${fmtNum(h.lookahead_ms, 1)} ms · underruns ${h.underruns}` +
        ` · late segments ${h.late_segments}` + (h.round_trip_ms != null ? ` · rtt ${fmtNum(h.round_trip_ms, 2)} ms` : "");
      Status.clear("health");
    } catch (err) {
      Status.error(`board ${id}: ${err.message}`, "health");
    }
  },

  /** A `board` event from the socket: connected is a notice, the rest (gone, reset, …) errors. */
  event(msg) {
    const text = `board ${msg.board} ${msg.event}${msg.message ? `: ${msg.message}` : ""}`;
    Status.show(msg.event === "connected" ? "notice" : "error", text, `board:${msg.board}`);
    if (msg.board === this.current) this.refreshHealth();
  },
};
