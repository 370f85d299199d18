// hapticctl studio: the browser page served at /studio/ by `hapticctl studio` (this module is
// its entry point; the page's files are native ES modules, no build step).
//
// It renders a pattern on the chosen board (POST /v1/boards/{id}/render), draws the result on
// one time axis (events, parameter curves, the board's drive and simulated vibration), and
// auditions it through the WebSocket /v1/ws (play, stop, seek, loop, rate; the 200 Hz stream
// moves the playhead and feeds the live strip); its pad view drives a held player on the board
// live (x sharpness, y intensity) and measures the pad → drive latency. Modules: util (helpers,
// the bus, `studio`), status (#errors), api (HTTP), socket (WebSocket), boards, document (the
// loaded document), timeline and lanes (the pattern view), warnings, audition, live (the live
// strip), pad (the pad view), compare and compare_plots (the compare view), perf (the page's
// timings and frame gaps) and this one: the view tabs, opening files (button, input, drag and
// drop), deep links, window.studio and start-up. The pad and compare views plug in through
// `bus` events ("render", "stream", "board", "player", "socket", "view") and `Views`.
//
// Deep links: /studio/?file=NAME opens library file NAME at start-up, &board=ID on board ID
// (both URL-decoded; a refusal shows like any other, with the server's message); they go with
// ?access_token=TOKEN (api.js).

import { $, bus, studio } from "./util.js";
import { Status } from "./status.js";
import { api } from "./api.js";
import { Socket } from "./socket.js";
import { Boards } from "./boards.js";
import { Doc } from "./document.js";
import { Timeline } from "./timeline.js";
import { Audition } from "./audition.js";
import { Live } from "./live.js";
import { Pad } from "./pad.js";
import { Compare } from "./compare.js";
import { Perf } from "./perf.js";

/** The deep link's parameters (URLSearchParams decodes them); empty ones count as absent. */
const LINK = new URLSearchParams(location.search);
const linked = (name) => LINK.get(name) || null;

/** The views behind the header's tabs (the pattern view, the pad, compare); the one shown goes
 *  to the bus as "view". */
const Views = {
  init() {
    for (const tab of document.querySelectorAll("#views .tab")) tab.addEventListener("click", () => this.show(tab.dataset.view));
  },
  show(name) {
    for (const tab of document.querySelectorAll("#views .tab")) tab.classList.toggle("active", tab.dataset.view === name);
    for (const view of document.querySelectorAll("main > .view")) view.hidden = view.dataset.view !== name;
    bus.emit("view", name);
  },
};

/** The Open file button, the file input and drag-and-drop anywhere on the page. */
function initFiles() {
  const input = $("file-input"), overlay = $("drop-overlay");
  $("open-file").addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    if (input.files?.[0]) Doc.openFile(input.files[0]).finally(() => { input.value = ""; });
  });
  const hasFiles = (e) => Array.from(e.dataTransfer?.types ?? []).includes("Files");
  window.addEventListener("dragover", (e) => { if (hasFiles(e)) { e.preventDefault(); overlay.hidden = false; } });
  window.addEventListener("dragleave", (e) => { if (!e.relatedTarget) overlay.hidden = true; });
  window.addEventListener("drop", (e) => {
    e.preventDefault();
    overlay.hidden = true;
    if (e.dataTransfer?.files?.[0]) Doc.openFile(e.dataTransfer.files[0]);
  });
}

// What the browser test (and a curious console) reads: util.js's fields, then these accessors.
Object.defineProperties(studio, Object.getOwnPropertyDescriptors({
  get playerId() { return Audition.playerId; },
  get padPlayerId() { return Pad.playerId; },
  get view() { return { ...Timeline.view }; },
  timeToX: (t) => Timeline.timeToX(t),
  fit: () => Timeline.fit(),
  resetFrameGap: () => Perf.resetFrameGap(),
}));
window.studio = studio;

async function start() {
  Perf.init();
  Views.init();
  Timeline.init();
  Audition.init();
  Live.init();
  Pad.init();
  Compare.init();
  initFiles();
  window.addEventListener("unhandledrejection", (e) => Status.error(`unexpected: ${e.reason?.message ?? e.reason}`));
  try {
    await Boards.load(linked("board"));
  } catch (err) {
    Status.error(`cannot load the boards: ${err.message}`, "boards");
    return;
  }
  // The linked file first (it is what the page load is timed to); the library list meanwhile.
  if (linked("file")) Doc.open({ kind: "file", name: linked("file") }, { link: true });
  Socket.connect();
  // The library list only from a server that has one (asking one that has none is a 404 the
  // browser's console would show as an error).
  try {
    if ((await api("GET", "/v1/server")).library) await Doc.loadLibrary();
  } catch (err) {
    Status.error(`cannot ask the server what it offers: ${err.message}`, "server");
  }
  studio.ready = true;
  // The health line: every second while the page is visible and the server is there.
  setInterval(() => { if (!document.hidden && Socket.open) Boards.refreshHealth(); }, 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) Boards.refreshHealth(); });
}

start();
