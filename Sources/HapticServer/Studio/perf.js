// hapticctl studio: the page's own figures (issue 29: the longest corpus file drawn within 500 ms
// of the page load, a 10-minute pattern drawn without freezing the page). studio.timings gets a
// record per render shown — the request (server and transfer), the JSON parse, the timeline's
// build and draw up to the frame after it (so its paint counts), and for the document a deep link
// opened, loadMs from navigation start — and studio.maxFrameGapMs the longest gap between two
// animation frames (a rAF loop runs all the time) since studio.resetFrameGap().

import { studio } from "./util.js";

const round1 = (v) => (v == null ? null : Math.round(v * 10) / 10);
const KEEP = 100; // records kept in studio.timings, the latest

export const Perf = {
  lastFrame: null,

  /** studio.maxFrameGapMs counts again from the next frame (window.studio.resetFrameGap()). */
  resetFrameGap() {
    studio.maxFrameGapMs = 0;
    this.lastFrame = null;
  },

  init() {
    const tick = (now) => {
      if (this.lastFrame != null) studio.maxFrameGapMs = Math.max(studio.maxFrameGapMs, round1(now - this.lastFrame));
      this.lastFrame = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    // A hidden page gets no frames: not a freeze.
    document.addEventListener("visibilitychange", () => { this.lastFrame = null; });
    // The health line's requests would fill the buffer (250 entries) and hide the renders' entries.
    performance.addEventListener?.("resourcetimingbufferfull", () => performance.clearResourceTimings());
  },

  /**
   * How long the request for `url`, started at `since` (performance.now()), waited for the
   * server's first byte and took to arrive, from the resource timing entries (none: {}).
   */
  network(url, since) {
    const entry = performance.getEntriesByName(url.href).filter((e) => e.startTime >= since - 1).at(-1);
    if (!entry || !(entry.responseStart > 0)) return {};
    return { serverMs: round1(entry.responseStart - entry.requestStart), transferMs: round1(entry.responseEnd - entry.responseStart) };
  },

  /**
   * Records a render shown (`error`: refused). `timing` has source, board, link and what api()
   * measured (requestMs, parseMs, bytes, serverMs, transferMs); `marks` the performance.now()
   * moments: start (before the request), parsed, built (the bus's handlers returned) and painted
   * (the frame after the timeline's draw).
   */
  record(timing, { start, parsed, built, painted = performance.now() }, error = null) {
    const entry = {
      ...timing,
      requestMs: round1(timing.requestMs), parseMs: round1(timing.parseMs),
      drawMs: error ? null : round1(painted - parsed), buildMs: error ? null : round1(built - parsed),
      totalMs: round1(painted - start),
      loadMs: timing.link && !error ? round1(painted) : null, // performance.now() counts from navigation start
    };
    if (error) entry.error = error;
    studio.timings.push(entry);
    if (studio.timings.length > KEEP) studio.timings.splice(0, studio.timings.length - KEEP);
    return entry;
  },
};
