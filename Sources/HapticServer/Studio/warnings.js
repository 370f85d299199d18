// hapticctl studio: the render's warnings (#warnings): one li.warning each, with the server's
// message; a timed one (data-time) centers the timeline on its time when clicked.

import { $, fmtSeconds } from "./util.js";
import { Timeline } from "./timeline.js";

export const Warnings = {
  /** #warnings: one li.warning per warning; a timed one centers the view on its time. */
  show(render) {
    $("warnings").replaceChildren(...(render?.warnings ?? []).map((w) => {
      const li = Object.assign(document.createElement("li"), { className: "warning", textContent: w.message });
      if (w.time == null) li.classList.add("untimed");
      else {
        Object.assign(li, { title: `show ${fmtSeconds(w.time)}` }).dataset.time = w.time;
        li.addEventListener("click", () => Timeline.centerOn(w.time));
      }
      return li;
    }));
  },
};
