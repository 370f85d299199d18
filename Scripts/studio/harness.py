"""The studio browser test's harness (Scripts/studio/studio_test.py).

Starts and stops `hapticctl studio` (and, for the compare view, a `sim serve` board on a
pseudo-terminal it serves) and reads the address it prints, sets up headless Chromium
through chromedriver, reports the steps ("ok N - …", "not ok N - …", "figure …") and judges
figures against their budgets, waits for the page, runs JavaScript in it and writes screenshots.
The checks themselves are in timeline_checks.py, audition_checks.py, pad_checks.py,
compare_checks.py and figures.py.
"""
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

WAIT = 10.0  # seconds, the longest any single wait takes
LONG = 180.0  # seconds, the longest wait for a long pattern's render (a debug build's server)
POLL = 0.1   # seconds between polls


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

def stop_process(process, what):
    """SIGTERM, then SIGKILL if `process` has not exited within WAIT seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            print(f"{what} did not exit on SIGTERM; killing it", flush=True)
            process.kill()
            process.wait()


class SimServe:
    """`hapticctl sim serve --board BOARD --trace TRACE`: a simulated board on a pseudo-terminal
    (the real serial path), its drive written to TRACE (time_s,channel,drive,accel_g)."""

    def __init__(self, hapticctl, board, trace):
        command = [hapticctl, "sim", "serve", "--board", board, "--trace", trace, "--trace-rate", "1000"]
        print("starting:", " ".join(command), flush=True)
        self.trace = trace
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        self.path = self.process.stdout.readline().strip()
        if not self.path.startswith("/dev/"):
            raise Failure(f"sim serve's first line is {self.path!r}, not its pseudo-terminal's path")
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()

    def rows(self):
        """The trace's rows so far: (time_s, channel, drive, accel_g)."""
        with open(self.trace) as lines:
            next(lines, None)
            return [(float(a), int(b), float(c), float(d)) for a, b, c, d in
                    (line.strip().split(",") for line in lines if line.count(",") == 3)]

    def stop(self):
        stop_process(self.process, "sim serve")


class Server:
    """`hapticctl studio` on a free loopback port: the in-process simulated sim-lra, and with
    `port` the board served on that serial port (rendered for `board`); with `library`, that
    folder as its library."""

    def __init__(self, hapticctl, library, studio_dir=None, port=None, board=None):
        command = [hapticctl, "studio", "--sim", "sim-lra", "--listen", "127.0.0.1:0"]
        if library is not None:
            command += ["--library", library]
        if port is not None:
            command += ["--port", port, "--board", board]
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
        """(status, JSON answer) of `method path` (None for an answer with no body, a 204)."""
        request = urllib.request.Request(self.base + path, data=body, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def get(self, path):
        status, answer = self.request("GET", path)
        if status != 200:
            raise Failure(f"GET {path}: HTTP {status}: {answer}")
        return answer

    def stop(self):
        stop_process(self.process, "the server")


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

# The render a deep link opened: its record in window.studio.timings (null until drawn or refused).
LINKED_JS = "const t = window.studio && window.studio.timings; return (t && t.find((r) => r.link)) || null;"

# The text of each error the page shows.
ERRORS_JS = "return Array.from(document.querySelectorAll('#errors .error')).map((e) => e.textContent)"


# ---------------------------------------------------------------- the run

class Session:
    """One run of the test: the server, the browser, and the steps' count so far."""

    def __init__(self, args):
        self.args = args
        self.passed = 0
        self.failed = 0  # "not ok" steps: a figure over its budget (the test goes on)
        self.server = None
        self.driver = None

    def start(self):
        """The screenshots' folder, `hapticctl studio`, and the browser."""
        os.makedirs(self.args.screenshots, exist_ok=True)
        self.server = Server(self.args.hapticctl, self.args.library, self.args.studio_dir)
        self.driver = make_driver(self.args.chromium, self.args.chromedriver)

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

    def open_page(self, base):
        """Opens the studio page of the server at `base` and waits for window.studio.ready."""
        self.driver.get(f"{base}/studio/")
        wait_until("window.studio.ready", lambda: self.js("return !!(window.studio && window.studio.ready)"))

    def errors(self):
        """The text of each .error element the page shows."""
        return self.js(ERRORS_JS)

    def severe_console(self):
        """The browser console's SEVERE entries since the last read of its log."""
        return [entry for entry in self.driver.get_log("browser") if entry.get("level") == "SEVERE"]

    def screenshot(self, name):
        path = os.path.join(self.args.screenshots, name)
        if not self.driver.save_screenshot(path):
            raise Failure(f"could not write the screenshot {path}")

    def close(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception as err:
                print(f"closing the browser: {err}", file=sys.stderr)
        if self.server is not None:
            self.server.stop()
