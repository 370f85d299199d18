"""The studio browser test's check of the pad (step 6).

Opens the page afresh and its pad view (#views .tab[data-view=pad]), waits for the pad's player
(window.studio.padPlayerId), and drives #pad with the mouse through the DevTools protocol
(Input.dispatchMouseEvent, each move one jump): a press at (x 0.2, y 0.3) of the pad (x
sharpness, y intensity), 300 ms, a move to (0.9, 0.9), 300 ms, JUMPS jumps between intensity 0.2
and 0.9 150 ms apart, a release. From what the page recorded (window.studio.padStream, the
stream's channel 0 with each message's arrival; window.studio.padEvents, the pointer's events on
the same clock) it checks that the drive's level at y 0.9 is at least LEVEL_RATIO times the level
at y 0.3, that its frequency at x 0.9 is higher than at x 0.2 (sharpness moves sim-lra's drive
frequency), and that the level is 0 within RELEASE_MS of the release and stays 0; and that the
page measured the pad → drive latency of at least MIN_STEPS steps and shows it in #pad-latency.
The latency is a figure ("figure pad-latency ms: …"), judged against LATENCY_BUDGET_MS (p95; issue
29's target is 10 ms) only with --budgets. Writes pad.png (the pad held at (0.75, 0.65)). Last,
the pad's player is deleted over HTTP, as another client might: the page prepares another.
"""
import math
import statistics
import time

from harness import Failure, wait_until

PRESS = (0.2, 0.3)
HIGH = (0.9, 0.9)
JUMPS = 24                # jumps between LOW_Y and HIGH[1] (each a step of 0.7 in intensity; p95 of 20+)
LOW_Y = 0.2
HOLD = 0.3                # seconds at the press and at HIGH
JUMP_GAP = 0.15           # seconds between jumps
SETTLE_MS = 100           # a window's level and hz are read this long after it began
LEVEL_RATIO = 1.5         # the level at y 0.9 over the level at y 0.3, at least
RELEASE_MS = 200          # the level is 0 this soon after the release
MIN_STEPS = 10            # latencies measured, at least
LATENCY_BUDGET_MS = 20    # issue 29: pad → drive on loopback, p95 (target 10 ms)

# The pad's box in the viewport (scrolled into view first).
PAD_BOX_JS = """
const pad = document.getElementById('pad');
pad.scrollIntoView({block: 'center'});
const r = pad.getBoundingClientRect();
return {left: r.left, top: r.top, width: r.width, height: r.height};
"""


def percentile(values, p):
    """The nearest-rank percentile `p` (0..1) of `values` (the page's own rule)."""
    ordered = sorted(values)
    return ordered[min(max(math.ceil(p * len(ordered)) - 1, 0), len(ordered) - 1)]


def check_pad(session):
    """The pad view: a press, a move, jumps and a release, checked from the stream the page saw."""
    from selenium.webdriver.common.by import By

    driver = session.driver
    driver.get_log("browser")  # the earlier steps' expected 404s
    session.open_page(session.server.base)
    driver.find_element(By.CSS_SELECTOR, "#views .tab[data-view=pad]").click()
    wait_until("the pad view shown", lambda: driver.find_element(By.ID, "pad").is_displayed()
               and not driver.find_element(By.ID, "view-pattern").is_displayed())
    player = wait_until("the pad's player prepared", lambda: session.js("return window.studio.padPlayerId"))
    board = session.js("return document.getElementById('board').value")
    if board != "sim-lra":
        raise Failure(f"the pad drives board {board!r}, not sim-lra")

    box = session.js(PAD_BOX_JS)
    mouse = Mouse(driver, box)
    mouse.move(*PRESS, pressed=False)
    mouse.press(*PRESS)
    time.sleep(HOLD)
    mouse.move(*HIGH)
    time.sleep(HOLD)
    for k in range(JUMPS):
        mouse.move(HIGH[0], LOW_Y if k % 2 == 0 else HIGH[1])
        time.sleep(JUMP_GAP)
    mouse.release()
    time.sleep(0.5)  # the page records the stream 400 ms past the release
    stream = session.js("return window.studio.padStream")
    events = session.js("return window.studio.padEvents")
    latencies = session.js("return window.studio.padLatencies")

    low, high, jumps, up = pointer_times(events)
    level_low, hz_low = window(stream, low + SETTLE_MS, high, "at the press (0.2, 0.3)")
    level_high, hz_high = window(stream, high + SETTLE_MS, jumps, "at (0.9, 0.9)")
    session.figure(f"pad level: {level_low:.3f} at y 0.3, {level_high:.3f} at y 0.9;"
                   f" hz: {hz_low:g} at x 0.2, {hz_high:g} at x 0.9 (player {player})")
    if not level_low > 0 or level_high < LEVEL_RATIO * level_low:
        raise Failure(f"the drive's level at y 0.9 ({level_high:.4f}) is not {LEVEL_RATIO}x its level"
                      f" at y 0.3 ({level_low:.4f})")
    if not hz_high > hz_low:
        raise Failure(f"the drive's frequency at x 0.9 ({hz_high:g} Hz) is not above x 0.2's ({hz_low:g} Hz)")
    session.step(f"the pad drives the board: level {level_low:.3f} → {level_high:.3f} from y 0.3 to 0.9,"
                 f" {hz_low:g} → {hz_high:g} Hz from x 0.2 to 0.9")

    quiet = release_quiet(stream, up)
    session.step(f"the release stops the drive: level 0 {quiet:.0f} ms after it (<= {RELEASE_MS} ms)")

    if len(latencies) < MIN_STEPS:
        raise Failure(f"the page measured {len(latencies)} pad → drive latencies, not {MIN_STEPS} or more"
                      f" ({JUMPS} jumps of 0.7 in intensity): {latencies}")
    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
    shown = driver.find_element(By.ID, "pad-latency").text
    expected = f"pad → drive: p50 {p50:.1f} ms, p95 {p95:.1f} ms ({len(latencies)} steps)"
    if shown != expected:
        raise Failure(f"#pad-latency shows {shown!r}, not {expected!r}")
    session.figure(f"pad-latency ms: p50 {p50:.1f} p95 {p95:.1f} max {max(latencies):.1f}"
                   f" ({len(latencies)} steps; mean {statistics.mean(latencies):.1f})")
    severe = session.severe_console()
    errors = session.errors()
    if severe or errors:
        raise Failure("the pad shows errors:\n  " + "\n  ".join([entry["message"] for entry in severe] + errors))
    session.judge(f"pad → drive latency: p95 {p95:.1f} ms of {len(latencies)} steps", p95, LATENCY_BUDGET_MS)

    # The screenshot: held at a point, the readout showing the drive; then released.
    mouse.move(0.75, 0.65, pressed=False)
    mouse.press(0.75, 0.65)
    time.sleep(HOLD)
    session.screenshot("pad.png")
    mouse.release()
    wait_until("the drive at rest after the screenshot's press", lambda: session.js(
        "const s = window.studio.lastStream; return !!s && s.channels[0].level === 0"))

    # Its player deleted by another client (HTTP): the page prepares another, and says nothing.
    status, answer = session.server.request("DELETE", f"/v1/players/{player}")
    if status != 204:
        raise Failure(f"DELETE /v1/players/{player}: HTTP {status}: {answer}")
    again = wait_until("a new pad player", lambda: session.js(
        f"const p = window.studio.padPlayerId; return p != null && p !== {player} ? p : null"))
    errors = session.errors()
    if errors:
        raise Failure("errors shown after the pad's player was deleted:\n  " + "\n  ".join(errors))
    session.step(f"the pad's player {player} deleted by another client: the page prepared player {again}")


class Mouse:
    """The left mouse button on the pad through the DevTools protocol; points are pad fractions
    (x from the left, y from the bottom)."""

    def __init__(self, driver, box):
        self.driver, self.box, self.at = driver, box, (0, 0)

    def _send(self, kind, x, y, **fields):
        self.at = (x, y)
        self.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": kind, "x": self.box["left"] + x * self.box["width"],
            "y": self.box["top"] + (1 - y) * self.box["height"], **fields})

    def move(self, x, y, pressed=True):
        self._send("mouseMoved", x, y, **({"button": "left", "buttons": 1} if pressed else {}))

    def press(self, x, y):
        self._send("mousePressed", x, y, button="left", buttons=1, clickCount=1)

    def release(self):
        self._send("mouseReleased", *self.at, button="left", buttons=0, clickCount=1)


def pointer_times(events):
    """The page's times (ms) of the press, the move to HIGH, the first jump and the release."""
    def first(kind, where=lambda e: True):
        found = next((e["t"] for e in events if e["kind"] == kind and where(e)), None)
        if found is None:
            raise Failure(f"the page noted no pointer {kind} as expected: {events[:40]}")
        return found

    near = lambda e, x, y: abs(e["x"] - x) < 0.01 and abs(e["y"] - y) < 0.01  # noqa: E731
    down = first("down", lambda e: near(e, *PRESS))
    high = first("move", lambda e: near(e, *HIGH))
    jump = first("move", lambda e: e["t"] > high and near(e, HIGH[0], LOW_Y))
    up = first("up")
    if not down < high < jump < up:
        raise Failure(f"the pointer's events are out of order: down {down}, high {high}, jump {jump}, up {up}")
    return down, high, jump, up


def window(stream, start, end, what):
    """The median level and hz streamed from `start` to `end` (page ms)."""
    samples = [s for s in stream if start <= s["t"] <= end]
    if len(samples) < 10:
        raise Failure(f"{len(samples)} stream messages {what} ({end - start:.0f} ms), not 10 or more")
    return (statistics.median(s["level"] for s in samples),
            statistics.median(s["hz"] for s in samples if s["hz"] is not None))


def release_quiet(stream, up):
    """How long after the release (ms) the level came to 0 for good; Failure when not within RELEASE_MS."""
    after = [s for s in stream if s["t"] >= up]
    if not after or after[-1]["t"] < up + RELEASE_MS:
        raise Failure(f"the stream after the release was recorded for {(after[-1]['t'] - up) if after else 0:.0f} ms,"
                      f" not {RELEASE_MS} ms")
    last_busy = next((i for i in range(len(after) - 1, -1, -1) if after[i]["level"] != 0), None)
    if last_busy == len(after) - 1:
        raise Failure(f"the drive still moves {after[-1]['t'] - up:.0f} ms after the release: level {after[-1]['level']}")
    quiet = after[last_busy + 1]["t"] - up if last_busy is not None else after[0]["t"] - up
    if quiet > RELEASE_MS:
        raise Failure(f"the drive's level came to 0 only {quiet:.0f} ms after the release, not within {RELEASE_MS} ms")
    return quiet
