"""The studio browser test's checks of audition and of errors (steps 3 to 5).

Play (looping) streams the pattern to the board: the stream counts up, the playhead shows and
moves on, a drive level shows; stop hides the playhead (playing.png). A broken pattern opened
through the file input shows the server's error message (error.png). A deep link to a missing
file on a missing board (/studio/?file=…&board=…) shows the server's message for each.
"""
import os
import time
import urllib.parse

from harness import LINKED_JS, Failure, wait_until

# The playhead's x (its getBBox()), or null while it is hidden.
PLAYHEAD_JS = """
const node = document.getElementById('playhead');
if (!node || getComputedStyle(node).display === 'none') return null;
const box = node.getBBox();
return box.x;
"""


def check_play(session):
    """Play (looped), the playhead moving on and the drive showing; then stop."""
    from selenium.webdriver.common.by import By

    driver = session.driver
    # Looping: a short pattern keeps the playhead up until stop.
    loop = driver.find_element(By.ID, "loop")
    if not loop.is_selected():
        loop.click()
    before = session.js("return window.studio.streamCount")
    driver.find_element(By.ID, "play").click()
    wait_until("stream messages", lambda: session.js("return window.studio.streamCount") > before)
    wait_until("the playhead to show", lambda: session.js(PLAYHEAD_JS) is not None, poll=0.02)
    first, second = wait_until("the playhead to move on", playhead_moved(session), poll=0.02)
    wait_until("a drive level in the stream", lambda: session.js(
        "const s = window.studio; return s.levelPeak > 0 ||"
        " !!(s.lastStream && s.lastStream.channels.some((c) => Math.abs(c.level || 0) > 0))"))
    session.step(f"playing: the stream counts up, the playhead moves ({first:.1f} → {second:.1f}), the drive shows")
    session.screenshot("playing.png")
    driver.find_element(By.ID, "stop").click()
    wait_until("the playhead to hide after stop", lambda: session.js(PLAYHEAD_JS) is None)
    errors = session.errors()
    if errors:
        raise Failure("errors shown during a normal session:\n  " + "\n  ".join(errors))
    session.step("stop hides the playhead; no error shown")


def playhead_moved(session):
    """A probe for wait_until: reads the playhead's x each call, and returns (earlier x, later x)
    once a read >= 100 ms after another finds it more than 0.5 px further on (else None)."""
    reads = []  # (when, x): the playhead must be further on in a read >= 100 ms after another

    def moved():
        x = session.js(PLAYHEAD_JS)
        now = time.monotonic()
        if x is not None:
            reads.append((now, x))
        return next(((a, b) for (ta, a) in reads for (tb, b) in reads if tb - ta >= 0.1 and b > a + 0.5), None)

    return moved


def check_broken_file(session):
    """--broken through the file input: the server refuses it, and the page shows its message."""
    from selenium.webdriver.common.by import By

    path = os.path.abspath(session.args.broken)
    with open(path, "rb") as file:
        body = file.read()
    extension = os.path.splitext(path)[1].lower()
    query = {".ahap": "?format=ahap", ".haptic": "?format=haptic"}.get(extension, "")
    status, answer = session.server.request("POST", "/v1/boards/sim-lra/render" + query, body)
    if status < 400 or not (answer or {}).get("error", {}).get("message"):
        raise Failure(f"{path} is not refused by the server (HTTP {status}): pass a broken pattern")
    message = answer["error"]["message"]
    session.driver.find_element(By.ID, "file-input").send_keys(path)
    shown = wait_until("an .error with the server's message", lambda: [
        text for text in session.errors() if message in text])
    if "error:" not in shown[0]:
        raise Failure(f"the error shown has no 'error:': {shown[0]!r}")
    session.step(f"the broken file's error is shown: {message}")
    session.screenshot("error.png")


def check_link_errors(session):
    """A deep link to a missing file on a missing board: the server's message for each."""
    server = session.server
    name, board = "no such file.ahap", "no-such-board"
    _, file_answer = server.request("POST", "/v1/boards/sim-lra/render?file=" + urllib.parse.quote(name), b"")
    _, board_answer = server.request("GET", "/v1/boards/" + urllib.parse.quote(board))
    messages = [((answer or {}).get("error") or {}).get("message") for answer in (file_answer, board_answer)]
    if not all(messages):
        raise Failure(f"the server does not refuse {name!r} or board {board}: {file_answer}, {board_answer}")
    query = urllib.parse.urlencode({"file": name, "board": board}, quote_via=urllib.parse.quote)
    session.driver.get(f"{server.base}/studio/?{query}")

    def shown():
        errors = session.errors()
        return all(any(message in text for text in errors) for message in messages) and errors

    wait_until(f"the server's errors for {name!r} and {board}", shown)
    record = wait_until("the deep link's record", lambda: session.js(LINKED_JS))
    if not record.get("error") or record.get("loadMs") is not None:
        raise Failure(f"the failed deep link's timings record has no error or a loadMs: {record}")
    session.step(f"a deep link to a missing file and board shows the server's errors: {messages[0]}; {messages[1]}")
