// hapticctl studio: the loaded document: a library file (#library, from GET /v1/library, asked
// of a server with a library only; or named by a deep link, /studio/?file=NAME) or a file the
// person opened, shown in #source and
// rendered on the current board (POST /v1/boards/{id}/render); each render (or null on a
// refusal) goes to the bus as "render", and its timings, once drawn, to studio.timings (perf.js).

import { $, bus, studio } from "./util.js";
import { Status } from "./status.js";
import { api } from "./api.js";
import { Boards } from "./boards.js";
import { Audition } from "./audition.js";
import { Timeline } from "./timeline.js";
import { Perf } from "./perf.js";

/** What is shown and played: {kind: "file", name} (library) or {kind: "document", name, text, format}. */
export const Doc = {
  current: null,
  seq: 0,
  linked: false, // the next render is of the document a deep link opened (its record gets loadMs)

  async loadLibrary() {
    const select = $("library");
    try {
      select.append(...(await api("GET", "/v1/library")).files.map((f) => new Option(f, f)));
      $("library-box").hidden = false;
      if (this.current?.kind === "file") select.value = this.current.name; // a deep link's (opened already)
      select.addEventListener("change", () => { if (select.value) this.open({ kind: "file", name: select.value }); });
    } catch (err) {
      Status.error(`library: ${err.message}`);
    }
  },

  async openFile(file) {
    $("library").value = "";
    if (file.size > 4 << 20) { Status.error(`${file.name}: larger than the server takes (4 MiB)`); return; }
    let text;
    try { text = await file.text(); } catch (err) { Status.error(`${file.name}: cannot read it: ${err.message}`); return; }
    const ext = file.name.toLowerCase().split(".").pop();
    this.open({ kind: "document", name: file.name, text, format: ["ahap", "haptic"].includes(ext) ? ext : null });
  },

  /** Shows and renders `doc`; `link`: a deep link names it (the page load is timed to its drawing). */
  open(doc, { link = false } = {}) {
    this.current = doc;
    this.linked = link;
    $("source").textContent = `${doc.kind === "file" ? "library" : "file"}: ${doc.name}`;
    Audition.startOffset = 0;
    this.render();
  },

  /** Renders the document on the current board; a refusal shows the server's message. */
  async render() {
    const doc = this.current, board = Boards.current;
    if (!doc || !board) return;
    const seq = ++this.seq, start = performance.now();
    const timing = { source: doc.name, board, link: this.linked };
    this.linked = false;
    const path = `/v1/boards/${encodeURIComponent(board)}/render`;
    try {
      const { render } = doc.kind === "file"
        ? await api("POST", path, { query: { file: doc.name }, timing })
        : await api("POST", path, { query: { format: doc.format }, body: doc.text, timing });
      if (seq !== this.seq) return; // a newer render was asked for
      Status.clear("render");
      studio.lastRender = render;
      const parsed = performance.now();
      bus.emit("render", render);
      const built = performance.now(), painted = await Timeline.painted();
      if (seq === this.seq) Perf.record({ ...timing, events: render.events.length }, { start, parsed, built, painted });
    } catch (err) {
      if (seq !== this.seq) return;
      Perf.record(timing, { start }, err.message);
      Status.error(`cannot render ${doc.name} on ${board}: ${err.message}`, "render");
      this.current = studio.lastRender = null;
      $("source").textContent = `${doc.name} (not loaded)`;
      bus.emit("render", null);
    }
  },
};
