#!/usr/bin/env python3
"""Browser test of the studio page (Sources/HapticServer/Studio) in headless Chromium.

Usage:
  python3 Scripts/studio/studio_test.py --hapticctl PATH --library DIR \
      --corpus-file NAME --longest-file LONGEST --broken FILE --screenshots DIR [--studio-dir PAGE_DIR]

It starts `PATH studio --sim sim-lra --listen 127.0.0.1:0 --library DIR` (with --studio-dir, also
`--studio-dir PAGE_DIR`: the page is served from PAGE_DIR, e.g. Sources/HapticServer/Studio, not
the copy made at build time), opens /studio/ and:
  1. waits for window.studio.ready and finds no SEVERE console message;
  2. selects library file NAME (one with haptic events, best at least 0.2 s long), and checks the
     drawn events against the server's own render (count, data-time, x within 1 px of
     window.studio.timeToX) and that the board lane's .drive and .accel paths are drawn;
  3. plays it (looping): the stream counts up, the playhead shows and moves on between two
     reads >= 100 ms apart, the stream shows a drive level; then stops and the playhead hides;
  4. loads FILE (a broken pattern) through the file input and finds the server's error message
     in an .error element;
  5. opens a deep link to a missing file on a missing board (/studio/?file=…&board=…) and finds
     the server's messages for both in .error elements;
  6. page load (issue 29: <= 500 ms): opens /studio/?file=LONGEST&board=sim-lra once to warm up,
     then 5 times, and reads each load's loadMs (navigation start to the timeline painted, from
     window.studio.timings); with --budgets, not ok when the median is over 500 ms;
  7. a 10-minute pattern (issue 29: drawn without freezing the page, <= 1 s): writes a 600 s AHAP
     (a transient every 0.25 s, a 2 s continuous event with an intensity curve every 10 s) into a
     temporary folder, opens it through the file input, checks its events are all drawn, zooms
     in (3 wheel events), pans, zooms out (the button, twice), each redraw putting the events
     where timeToX says; with --budgets, not ok when window.studio.maxFrameGapMs (the longest gap between
     animation frames, reset before opening) is over 1000 ms;
  8. writes timeline.png, playing.png, error.png, longest.png and ten-minutes.png into DIR.
Each figure is printed on a line of its own starting "figure ".
Needs python3 with selenium 4, /usr/bin/chromium and /usr/bin/chromedriver (Debian's chromium
and chromium-driver). Exits 0 when every step passed, 1 on a failure (with its reason), 2 when
it cannot run. The figures' budgets fail the run only with --budgets: a speed target is
measured on a release build (Scripts/benchmarks/studio-figures.sh), not asserted by a test that
runs on a debug build on any machine (CI's figures are printed, not judged).
"""
import argparse
import json
import os
import queue
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

WAIT = 10.0  # seconds, the longest any single wait takes
LONG = 180.0  # seconds, the longest wait for a long pattern's render (a debug build's server)
POLL = 0.1   # seconds between polls
LOADS = 5             # measured page loads (after one to warm up)
LOAD_BUDGET_MS = 500  # issue 29: the longest corpus file drawn within this of the page load
FREEZE_MS = 1000      # issue 29: a 10-minute pattern draws with no frame gap longer than this


class Failure(Exception):
    """A check that did not hold; the message says which and why."""


def wait_until(what, probe, timeout=WAIT, poll=POLL):
    """Polls `probe` until it returns a truthy value (returned) or `timeout` passes (Failure)."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = probe()
            if value:
                return value
        except Failure:
            raise
        except Exception as err:  # a probe may fail while the page is still loading
            last_error = err
        if time.monotonic() >= deadline:
            detail = f" (last error: {last_error})" if last_error else ""
            raise Failure(f"timed out after {timeout:g} s waiting for {what}{detail}")
        time.sleep(poll)


# ---------------------------------------------------------------- the server

class Server:
    """`hapticctl studio` on a free loopback port."""

    def __init__(self, hapticctl, library, studio_dir=None):
        command = [hapticctl, "studio", "--sim", "sim-lra", "--listen", "127.0.0.1:0", "--library", library]
        if studio_dir is not None:
            command += ["--studio-dir", studio_dir]
        print("starting:", " ".join(command), flush=True)
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        # Drain stdout for as long as the server runs (a full pipe would block it).
        threading.Thread(target=self._read, daemon=True).start()
        first = self._line()
        prefix = "listening on "
        if not first.startswith(prefix):
            raise Failure(f"the server's first line is {first!r}, not 'listening on http://HOST:PORT'")
        self.base = first[len(prefix):].strip().rstrip("/")
        wait_until("the server to answer GET /v1/boards", lambda: self.get("/v1/boards").get("boards") is not None)

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _line(self):
        try:
            line = self.lines.get(timeout=WAIT)
        except queue.Empty:
            raise Failure(f"the server printed nothing in {WAIT:g} s")
        if line is None:
            raise Failure(f"the server exited (status {self.process.wait()}) before saying where it listens")
        return line

    def request(self, method, path, body=None):
        """(status, JSON answer) of `method path`."""
        request = urllib.request.Request(self.base + path, data=body, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def get(self, path):
        status, answer = self.request("GET", path)
        if status != 200:
            raise Failure(f"GET {path}: HTTP {status}: {answer}")
        return answer

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                print("the server did not exit on SIGTERM; killing it", flush=True)
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------- the browser

def make_driver(chromium, chromedriver):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    options.binary_location = chromium
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


# Each drawn haptic event: its index, type, data-time and getBBox() x, and timeToX(data-time).
EVENTS_JS = """
return Array.from(document.querySelectorAll('#timeline .event')).map((node) => {
  const box = node.getBBox();
  const time = Number(node.getAttribute('data-time'));
  return {index: Number(node.getAttribute('data-index')), type: node.getAttribute('data-type'),
          time: node.getAttribute('data-time'), x: box.x, expected: window.studio.timeToX(time)};
});
"""

PLAYHEAD_JS = """
const node = document.getElementById('playhead');
if (!node || getComputedStyle(node).display === 'none') return null;
const box = node.getBBox();
return box.x;
"""

HAPTIC = ("transient", "continuous")

# The render a deep link opened: its record in window.studio.timings (null until drawn or refused).
LINKED_JS = "const t = window.studio && window.studio.timings; return (t && t.find((r) => r.link)) || null;"

ERRORS_JS = "return Array.from(document.querySelectorAll('#errors .error')).map((e) => e.textContent)"


def ten_minute_ahap(seconds=600):
    """A `seconds` long AHAP: a transient every 0.25 s (the last at `seconds`), and every 10 s a
    2 s continuous event with an intensity curve over it."""
    pattern = []
    for k in range(int(seconds / 0.25) + 1):
        pattern.append({"Event": {"Time": k * 0.25, "EventType": "HapticTransient", "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": round(0.3 + 0.1 * (k % 8), 2)},
            {"ParameterID": "HapticSharpness", "ParameterValue": 0.6}]}})
    for k in range(seconds // 10):
        time_ = k * 10.0 + 5.0
        pattern.append({"Event": {"Time": time_, "EventType": "HapticContinuous", "EventDuration": 2.0,
                                  "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8},
                                                      {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}})
        pattern.append({"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": time_,
                                           "ParameterCurveControlPoints": [
                                               {"Time": 0.0, "ParameterValue": 0.2},
                                               {"Time": 1.0, "ParameterValue": 1.0},
                                               {"Time": 2.0, "ParameterValue": 0.2}]}})
    return {"Version": 1.0, "Metadata": {"Project": "studio_test", "Description": f"{seconds} s of events"},
            "Pattern": pattern}


def parts(record):
    """Where a render's time went, from its window.studio.timings record."""
    network = ""
    if record.get("serverMs") is not None:
        network = f" [server {record['serverMs']:.0f}, transfer {record['transferMs']:.0f}]"
    return (f"request {record['requestMs']:.0f}{network}, parse {record['parseMs']:.0f},"
            f" draw {record['drawMs']:.0f} (build {record['buildMs']:.0f}), {record['bytes'] / 1e6:.2f} MB")


class StudioTest:
    def __init__(self, args):
        self.args = args
        self.passed = 0
        self.failed = 0  # "not ok" steps: a figure over its budget (the test goes on)
        self.server = None
        self.driver = None

    def step(self, name):
        self.passed += 1
        print(f"ok {self.passed + self.failed} - {name}", flush=True)

    def not_ok(self, name):
        self.failed += 1
        print(f"not ok {self.passed + self.failed} - {name}", flush=True)

    def judge(self, summary, value, budget):
        """A figure's step: within `budget` ms, or over it (not ok only with --budgets)."""
        if value <= budget:
            self.step(f"{summary} (<= {budget} ms)")
        elif self.args.budgets:
            self.not_ok(f"{summary}, over {budget} ms")
        else:
            self.step(f"{summary} (over {budget} ms; budgets are checked with --budgets on a release build)")

    @staticmethod
    def figure(text):
        print(f"figure {text}", flush=True)

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def screenshot(self, name):
        path = os.path.join(self.args.screenshots, name)
        if not self.driver.save_screenshot(path):
            raise Failure(f"could not write the screenshot {path}")

    def run(self):
        os.makedirs(self.args.screenshots, exist_ok=True)
        self.server = Server(self.args.hapticctl, self.args.library, self.args.studio_dir)
        self.driver = make_driver(self.args.chromium, self.args.chromedriver)
        self.load_page()
        self.check_timeline()
        self.check_play()
        self.check_broken_file()
        self.check_link_errors()
        self.check_page_load()
        self.check_ten_minutes()

    def load_page(self):
        self.driver.get(self.server.base + "/studio/")
        wait_until("window.studio.ready", lambda: self.js("return !!(window.studio && window.studio.ready)"))
        severe = [entry for entry in self.driver.get_log("browser") if entry.get("level") == "SEVERE"]
        if severe:
            raise Failure("console errors on load:\n  " + "\n  ".join(entry["message"] for entry in severe))
        self.step("the page loads (window.studio.ready) with no console error")

    def check_timeline(self):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        name = self.args.corpus_file
        status, answer = self.server.request("POST", "/v1/boards/sim-lra/render?file=" + urllib.parse.quote(name), b"")
        if status != 200:
            raise Failure(f"POST /v1/boards/sim-lra/render?file={name}: HTTP {status}: {answer}")
        expected = {e["index"]: e for e in answer["render"]["events"] if e["type"] in HAPTIC}
        if not expected:
            raise Failure(f"{name} renders no haptic event: choose a corpus file with some")

        library = wait_until("the library list", lambda: self.driver.find_element(By.ID, "library").is_displayed()
                             and self.driver.find_element(By.ID, "library"))
        values = [option.get_attribute("value") for option in Select(library).options]
        if name not in values:
            raise Failure(f"{name} is not in the library list ({len(values) - 1} files)")
        Select(library).select_by_value(name)
        wait_until(f"the render of {name}", lambda: self.js(
            "const r = window.studio.lastRender;"
            " return !!r && document.querySelectorAll('#timeline .event').length === r.events.length"))

        def drawn():
            events = [e for e in self.js(EVENTS_JS) if e["type"] in HAPTIC]
            return events if events and all(e["x"] != 0 or e["expected"] == 0 for e in events) else None

        events = wait_until("the events to be drawn", drawn)
        if len(events) != len(expected):
            raise Failure(f"{len(events)} haptic event elements drawn, the render has {len(expected)}")
        for event in events:
            want = expected.get(event["index"])
            if want is None:
                raise Failure(f"an event element has data-index {event['index']}, not a haptic event of the render")
            if event["type"] != want["type"]:
                raise Failure(f"event {event['index']}: data-type {event['type']}, the render says {want['type']}")
            if abs(float(event["time"]) - want["time"]) > 1e-9:
                raise Failure(f"event {event['index']}: data-time {event['time']}, the render says {want['time']}")
            if abs(event["x"] - event["expected"]) > 1:
                raise Failure(f"event {event['index']} at t={want['time']}: drawn at x={event['x']:.2f},"
                              f" timeToX gives {event['expected']:.2f}")
        self.step(f"{len(events)} events of {name} drawn where timeToX puts them")

        paths = wait_until("the board lane's paths", lambda: self.js(
            "const d = (c) => Array.from(document.querySelectorAll('#timeline path.' + c)).map((p) => p.getAttribute('d') || '');"
            " const drive = d('drive'), accel = d('accel');"
            " return drive.length && accel.length && drive.every((s) => s.length > 2) && accel.every((s) => s.length > 2)"
            " ? {drive: drive.length, accel: accel.length} : null"))
        self.step(f"the board lane draws {paths['drive']} drive and {paths['accel']} accel paths")
        self.screenshot("timeline.png")

    def check_play(self):
        from selenium.webdriver.common.by import By

        # Looping: a short pattern keeps the playhead up until stop.
        loop = self.driver.find_element(By.ID, "loop")
        if not loop.is_selected():
            loop.click()
        before = self.js("return window.studio.streamCount")
        self.driver.find_element(By.ID, "play").click()
        wait_until("stream messages", lambda: self.js("return window.studio.streamCount") > before)
        wait_until("the playhead to show", lambda: self.js(PLAYHEAD_JS) is not None, poll=0.02)
        reads = []  # (when, x): the playhead must be further on in a read >= 100 ms after another

        def moved():
            x = self.js(PLAYHEAD_JS)
            now = time.monotonic()
            if x is not None:
                reads.append((now, x))
            return next(((a, b) for (ta, a) in reads for (tb, b) in reads if tb - ta >= 0.1 and b > a + 0.5), None)

        first, second = wait_until("the playhead to move on", moved, poll=0.02)
        wait_until("a drive level in the stream", lambda: self.js(
            "const s = window.studio; return s.levelPeak > 0 ||"
            " !!(s.lastStream && s.lastStream.channels.some((c) => Math.abs(c.level || 0) > 0))"))
        self.step(f"playing: the stream counts up, the playhead moves ({first:.1f} → {second:.1f}), the drive shows")
        self.screenshot("playing.png")
        self.driver.find_element(By.ID, "stop").click()
        wait_until("the playhead to hide after stop", lambda: self.js(PLAYHEAD_JS) is None)
        errors = self.js("return Array.from(document.querySelectorAll('#errors .error')).map((e) => e.textContent)")
        if errors:
            raise Failure("errors shown during a normal session:\n  " + "\n  ".join(errors))
        self.step("stop hides the playhead; no error shown")

    def check_broken_file(self):
        from selenium.webdriver.common.by import By

        path = os.path.abspath(self.args.broken)
        with open(path, "rb") as file:
            body = file.read()
        extension = os.path.splitext(path)[1].lower()
        query = {".ahap": "?format=ahap", ".haptic": "?format=haptic"}.get(extension, "")
        status, answer = self.server.request("POST", "/v1/boards/sim-lra/render" + query, body)
        if status < 400 or not (answer or {}).get("error", {}).get("message"):
            raise Failure(f"{path} is not refused by the server (HTTP {status}): pass a broken pattern")
        message = answer["error"]["message"]
        self.driver.find_element(By.ID, "file-input").send_keys(path)
        shown = wait_until("an .error with the server's message", lambda: [
            text for text in self.js("return Array.from(document.querySelectorAll('#errors .error')).map((e) => e.textContent)")
            if message in text])
        if "error:" not in shown[0]:
            raise Failure(f"the error shown has no 'error:': {shown[0]!r}")
        self.step(f"the broken file's error is shown: {message}")
        self.screenshot("error.png")

    def check_link_errors(self):
        """A deep link to a missing file on a missing board: the server's message for each."""
        name, board = "no such file.ahap", "no-such-board"
        _, file_answer = self.server.request("POST", "/v1/boards/sim-lra/render?file=" + urllib.parse.quote(name), b"")
        _, board_answer = self.server.request("GET", "/v1/boards/" + urllib.parse.quote(board))
        messages = [((answer or {}).get("error") or {}).get("message") for answer in (file_answer, board_answer)]
        if not all(messages):
            raise Failure(f"the server does not refuse {name!r} or board {board}: {file_answer}, {board_answer}")
        query = urllib.parse.urlencode({"file": name, "board": board}, quote_via=urllib.parse.quote)
        self.driver.get(f"{self.server.base}/studio/?{query}")

        def shown():
            errors = self.js(ERRORS_JS)
            return all(any(message in text for text in errors) for message in messages) and errors

        wait_until(f"the server's errors for {name!r} and {board}", shown)
        record = wait_until("the deep link's record", lambda: self.js(LINKED_JS))
        if not record.get("error") or record.get("loadMs") is not None:
            raise Failure(f"the failed deep link's timings record has no error or a loadMs: {record}")
        self.step(f"a deep link to a missing file and board shows the server's errors: {messages[0]}; {messages[1]}")

    def check_page_load(self):
        """/studio/?file=LONGEST&board=sim-lra: one load to warm up, then LOADS timed ones."""
        from selenium.webdriver.common.by import By

        name = self.args.longest_file
        query = urllib.parse.urlencode({"file": name, "board": "sim-lra"}, quote_via=urllib.parse.quote)
        url = f"{self.server.base}/studio/?{query}"
        self.driver.get_log("browser")  # the missing file's 404s were expected
        records = []
        for attempt in range(1 + LOADS):
            self.driver.get(url)
            record = wait_until(f"the deep-linked {name} drawn", lambda: self.js(LINKED_JS), timeout=LONG)
            if record.get("error"):
                raise Failure(f"the deep link to {name} failed: {record['error']}")
            if record.get("source") != name or record.get("board") != "sim-lra" or not record.get("loadMs"):
                raise Failure(f"the deep link's timings record is not {name} on sim-lra with a loadMs: {record}")
            if attempt:
                records.append(record)
        # The last load: the linked board and file chosen, every event drawn, nothing wrong.
        chosen = wait_until("the library list to show the linked file", lambda: self.js(
            "const b = document.getElementById('board').value, l = document.getElementById('library').value;"
            " return l ? [b, l] : null"))
        if chosen != ["sim-lra", name]:
            raise Failure(f"the deep link shows board {chosen[0]} and library file {chosen[1]}, not sim-lra and {name}")
        drawn = len(self.driver.find_elements(By.CSS_SELECTOR, "#timeline .event"))
        if drawn != records[-1]["events"]:
            raise Failure(f"{drawn} .event elements drawn for {name}, the render has {records[-1]['events']}")
        severe = [entry for entry in self.driver.get_log("browser") if entry.get("level") == "SEVERE"]
        errors = self.js(ERRORS_JS)
        if severe or errors:
            raise Failure("the deep-linked page has errors:\n  " + "\n  ".join(
                [entry["message"] for entry in severe] + errors))
        loads = [record["loadMs"] for record in records]
        median = statistics.median(loads)
        typical = min(records, key=lambda r: abs(r["loadMs"] - median))
        self.figure(f"page-load ms: min {min(loads):.0f} median {median:.0f} max {max(loads):.0f}"
                    f" ({LOADS} loads of {name})")
        self.figure(f"page-load parts ms (the median load): total {typical['totalMs']:.0f} of load"
                    f" {typical['loadMs']:.0f}: {parts(typical)}")
        self.screenshot("longest.png")
        summary = f"page load of {name}: median {median:.0f} ms"
        self.judge(summary, median, LOAD_BUDGET_MS)

    def check_ten_minutes(self):
        """A 10-minute pattern through the file input; zoomed in, panned and zoomed out."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
        from selenium.webdriver.common.by import By

        document = ten_minute_ahap()
        in_file = sum(1 for entry in document["Pattern"] if "Event" in entry)
        with tempfile.TemporaryDirectory(prefix="studio-test-") as folder:
            path = os.path.join(folder, "ten-minutes.ahap")
            with open(path, "w") as file:
                json.dump(document, file)
            self.js("window.studio.resetFrameGap()")
            self.driver.find_element(By.ID, "file-input").send_keys(path)
            record = wait_until("the 10-minute pattern drawn", lambda: self.js(
                "return window.studio.timings.find((r) => r.source === 'ten-minutes.ahap') || null"), timeout=LONG)
        if record.get("error"):
            raise Failure(f"the 10-minute pattern is refused: {record['error']}")
        opened_gap = self.js("return window.studio.maxFrameGapMs")
        duration = self.js("return window.studio.lastRender.duration")
        drawn = len(self.driver.find_elements(By.CSS_SELECTOR, "#timeline .event"))
        if not drawn == record["events"] == in_file:
            raise Failure(f"the 10-minute pattern has {in_file} events; the render {record['events']}, drawn {drawn}")

        svg = self.driver.find_element(By.ID, "timeline")
        redraws = []  # (what, ms)

        def redraw(what, act, changed):
            count, view = self.js("return window.studio.drawCount"), self.js("return window.studio.view")

            def placed():  # redrawn, and every event where timeToX puts it
                if self.js("return window.studio.drawCount") <= count:
                    return None
                events = self.js(EVENTS_JS)
                return all(abs(e["x"] - e["expected"]) <= 1 for e in events) and events

            act()
            events = wait_until(f"the redraw after {what}", placed)
            after = self.js("return window.studio.view")
            if not changed(view, after):
                raise Failure(f"{what} did not change the view as it should: {view} -> {after}")
            if len(events) != in_file:
                raise Failure(f"after {what}, {len(events)} events drawn, not {in_file}")
            redraws.append((what, self.js("return window.studio.lastDrawMs")))

        span = lambda view: view["end"] - view["start"]  # noqa: E731
        for _ in range(3):
            redraw("a wheel zoom in", lambda: ActionChains(self.driver).scroll_from_origin(
                ScrollOrigin.from_element(svg), 0, -300).perform(), lambda a, b: span(b) < span(a) * 0.9)
        redraw("a pan (drag left)", lambda: ActionChains(self.driver).move_to_element(svg).click_and_hold()
               .move_by_offset(-100, 0).move_by_offset(-100, 0).release().perform(),
               lambda a, b: b["start"] > a["start"] and abs(span(b) - span(a)) < 1e-6 * span(a))
        for _ in range(2):
            redraw("a zoom out (button)", lambda: self.driver.find_element(By.ID, "zoom-out").click(),
                   lambda a, b: span(b) > span(a) * 1.1)
        gap = self.js("return window.studio.maxFrameGapMs")
        self.screenshot("ten-minutes.png")
        self.figure(f"ten-minute ms: total {record['totalMs']:.0f}, max frame gap {gap:.0f}"
                    f" (opening: {opened_gap:.0f}) ({in_file} events, {duration:g} s)")
        self.figure(f"ten-minute parts ms: {parts(record)}")
        self.figure("ten-minute redraw ms: " + ", ".join(f"{what} {ms:.0f}" for what, ms in redraws))
        summary = f"a {duration:g} s pattern: {drawn} events drawn, redrawn {len(redraws)} times, max frame gap {gap:.0f} ms"
        self.judge(summary, gap, FREEZE_MS)

    def close(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception as err:
                print(f"closing the browser: {err}", file=sys.stderr)
        if self.server is not None:
            self.server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hapticctl", required=True, help="the hapticctl executable")
    parser.add_argument("--library", required=True, help="the library directory the server serves")
    parser.add_argument("--corpus-file", required=True, help="a library file (relative name) to show and play")
    parser.add_argument("--longest-file", required=True, help="the library file the page-load figure is of"
                        " (the longest pattern)")
    parser.add_argument("--broken", required=True, help="a broken pattern file the server refuses")
    parser.add_argument("--screenshots", required=True, help="where to write the screenshots")
    parser.add_argument("--studio-dir", help="serve the page from this folder (hapticctl studio --studio-dir),"
                        " e.g. Sources/HapticServer/Studio, instead of the copy made at build time")
    parser.add_argument("--budgets", action="store_true",
                        help="fail when a figure is over its budget (a release build's benchmark)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("studio_test: needs selenium 4 (pip install selenium)", file=sys.stderr)
        return 2
    for tool in (args.hapticctl, args.chromium, args.chromedriver):
        if not os.access(tool, os.X_OK):
            print(f"studio_test: {tool} is not an executable", file=sys.stderr)
            return 2
    if args.studio_dir is not None and not os.path.isfile(os.path.join(args.studio_dir, "index.html")):
        print(f"studio_test: {args.studio_dir} has no index.html", file=sys.stderr)
        return 2

    test = StudioTest(args)
    failed = 0
    try:
        test.run()
    except Failure as failure:
        failed = 1
        print(f"FAIL: {failure}", file=sys.stderr, flush=True)
    except Exception as error:  # selenium or the OS: still a failure with its reason
        failed = 1
        print(f"FAIL: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
    finally:
        test.close()
    failed += test.failed
    print(f"studio_test: {test.passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
