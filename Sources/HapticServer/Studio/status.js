// hapticctl studio: the status area (#errors): failures (.error) and notices (.notice) shown to
// the person with the server's own message text, one entry per key, a repeat counted up (×N).

import { $ } from "./util.js";

/** Failures (.error) and notices (.notice) for the person; a repeat counts up (×N). */
export const Status = {
  entries: new Map(), // key → {node, message, kind, count}
  error(message, key) { this.show("error", message, key); },
  notice(message, key) { this.show("notice", message, key); },
  show(kind, message, key = message) {
    const old = this.entries.get(key);
    if (old && old.message === message && old.kind === kind) {
      old.node.querySelector(".count").textContent = `×${++old.count}`;
      return;
    }
    this.clear(key);
    const node = Object.assign(document.createElement("div"), { className: kind });
    node.innerHTML = '<span class="text"></span><span class="count"></span><button class="dismiss" title="Dismiss">×</button>';
    node.firstChild.textContent = message;
    node.lastChild.addEventListener("click", () => this.clear(key));
    $("errors").appendChild(node);
    this.entries.set(key, { node, message, kind, count: 1 });
    if (this.entries.size > 6) this.clear(this.entries.keys().next().value);
  },
  clear(key) {
    this.entries.get(key)?.node.remove();
    this.entries.delete(key);
  },
};

/** A catch handler showing `what`'s failure in the status area. */
export const showFailure = (what) => (err) => Status.error(`${what}: ${err.message}`);
