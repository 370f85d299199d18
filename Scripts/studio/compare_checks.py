"""The studio browser test's checks of a .haptic clip and of the compare view (steps after the
pad), and of a server without a library.

A .haptic clip opened through the file input is drawn with every haptic event of the server's
render of the same bytes. The compare view, on a studio of its own serving sim-lra and a `sim
serve` uno-hbridge board (so the other steps' figures are taken as before, on one in-process
board), shows the clip on two served boards — A sim-lra channel 0
(in process), B uno-hbridge channel 1 (`sim serve` on a pseudo-terminal: the real serial path)
— and then on a board profile nobody serves (uno-drv2605l): each side's acceleration path is
drawn, its peak is the server's render's for that board or profile and channel, and each side's
response map has a line per sharpness of the server's own map (GET …/response); compare.png (sim-lra against the uno-drv2605l profile).
"A then B" plays the clip on sim-lra, then on uno-hbridge's channel 1 once A has finished: both
players finish, B started after A's duration, and the uno-hbridge board's own trace shows drive
on channel 1 and none on channel 0. A studio started without --library loads with no console
error (it does not ask for a library it has not got).
"""
import json
import os
import time

from harness import Failure, Server, SimServe, wait_until
from timeline_checks import HAPTIC, compare_events, drawn_events

CLIP = os.path.join("Examples", "knock-and-buzz.haptic")

# The page's compare record, once both sides are drawn with frames and five sweeps each.
DRAWN_JS = """
const c = window.studio.compare;
if (!c || !c.sides.a || !c.sides.b) return null;
const ok = (s) => s.frames > 0 && s.sweeps === 5;
const paths = (side) => Array.from(document.querySelectorAll(`#compare-accel path.compare-accel[data-side=${side}]`))
  .filter((p) => (p.getAttribute('d') || '').length > 10).length;
const sweeps = (side) => document.querySelectorAll(`#compare-map-${side} polyline.sweep`).length;
return ok(c.sides.a) && ok(c.sides.b) && paths('a') === 1 && paths('b') === 1 && sweeps('a') === 5 && sweeps('b') === 5
  ? c : null;
"""


def check_haptic_clip(session):
    """The clip through the file input: every haptic event of the server's render of its bytes drawn."""
    body = open(CLIP, "rb").read()
    status, answer = session.server.request("POST", "/v1/boards/sim-lra/render?format=haptic", body)
    if status != 200:
        raise Failure(f"POST /v1/boards/sim-lra/render?format=haptic ({CLIP}): HTTP {status}: {answer}")
    expected = {e["index"]: e for e in answer["render"]["events"] if e["type"] in HAPTIC}
    from selenium.webdriver.common.by import By

    session.driver.find_element(By.CSS_SELECTOR, "#views .tab[data-view=pattern]").click()
    session.driver.find_element(By.ID, "file-input").send_keys(os.path.abspath(CLIP))
    wait_until(f"the render of {CLIP}", lambda: session.js(
        "const r = window.studio.lastRender;"
        " return !!r && r.format === 'haptic' && document.querySelectorAll('#timeline .event').length === r.events.length"))
    events = drawn_events(session)
    compare_events(events, expected)
    session.step(f"the .haptic clip {CLIP}: {len(events)} events drawn where timeToX puts them")


def choose(session, side, value, channel):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(session.driver.find_element(By.ID, f"compare-{side}")).select_by_value(value)
    Select(session.driver.find_element(By.ID, f"compare-{side}-channel")).select_by_value(str(channel))


def server_g(session, path, channel):
    """The g array of `channel` in the server's render of the clip at `path` (…/render)."""
    status, answer = session.server.request("POST", path + "?format=haptic", open(CLIP, "rb").read())
    if status != 200:
        raise Failure(f"POST {path}: HTTP {status}: {answer}")
    channels = [c for c in answer["render"]["channels"] if c["channel"] == channel]
    if not channels:
        raise Failure(f"POST {path}: no channel {channel} in the render")
    return channels[0]["g"]


def check_side(session, record, side, path, channel):
    """Side `side` of the page's record: its peak and sum of g are the server's render's, its map
    has the server's sweeps."""
    g = server_g(session, path + "/render", channel)
    want, drawn = max(g), record["sides"][side]
    if drawn["peakG"] is None or abs(drawn["peakG"] - want) > 1e-9 or abs(drawn["gSum"] - sum(g)) > 1e-6:
        raise Failure(f"compare side {side}: peak {drawn['peakG']} g and sum {drawn['gSum']} drawn, the server's render"
                      f" of {path} channel {channel} says {want} and {sum(g)}")
    status, answer = session.server.request("GET", path + "/response")
    maps = [m for m in answer["response"]["channels"] if m["channel"] == channel] if status == 200 else []
    if not maps or len(maps[0]["sweeps"]) != record["sides"][side]["sweeps"]:
        raise Failure(f"GET {path}/response: HTTP {status}, its channel {channel} does not have the page's sweeps")
    return want


def drawn_as(session, a, b):
    """Waits for the compare record of sides `a` and `b` ((id, channel) each), both drawn."""
    def probe():
        record = session.js(DRAWN_JS)
        sides = record and record["sides"]
        return record if sides and (sides["a"]["id"], sides["a"]["channel"]) == a and (sides["b"]["id"], sides["b"]["channel"]) == b else None

    return wait_until(f"A {a[0]} ch {a[1]} and B {b[0]} ch {b[1]} drawn (acceleration paths, five sweeps each)", probe)


def check_compare(session):
    """The compare view on a studio serving sim-lra and a `sim serve` uno-hbridge board: two
    served boards, a board profile (compare.png), then A then B. Its own server and board, so
    the other steps' figures are taken on the one in-process board as before."""
    from selenium.webdriver.common.by import By

    trace = os.path.join(session.args.screenshots, "uno-hbridge-trace.csv")
    board = SimServe(session.args.hapticctl, "uno-hbridge", trace)
    main, session.server = session.server, None
    try:
        session.server = Server(session.args.hapticctl, None, session.args.studio_dir, board.path, "uno-hbridge")
        session.open_page(session.server.base)
        session.driver.find_element(By.ID, "file-input").send_keys(os.path.abspath(CLIP))
        wait_until(f"the render of {CLIP}", lambda: session.js(
            "const r = window.studio.lastRender; return !!r && r.format === 'haptic'"))
        compare_views(session)
        check_compare_play(session, board)
    finally:
        if session.server is not None:
            session.server.stop()
        session.server = main
        board.stop()


def compare_views(session):
    """Two served boards, then a board profile; compare.png."""
    from selenium.webdriver.common.by import By

    driver = session.driver
    driver.find_element(By.CSS_SELECTOR, "#views .tab[data-view=compare]").click()
    wait_until("the compare view's choices", lambda: session.js(
        "return document.getElementById('compare-b').options.length > 2"))
    choose(session, "a", "board:sim-lra", 0)
    choose(session, "b", "board:uno-hbridge", 1)
    record = drawn_as(session, ("sim-lra", 0), ("uno-hbridge", 1))
    a = check_side(session, record, "a", "/v1/boards/sim-lra", 0)
    b = check_side(session, record, "b", "/v1/boards/uno-hbridge", 1)
    session.step(f"compare: sim-lra ch 0 (peak {a:.4f} g) and uno-hbridge ch 1 (peak {b:.4f} g) overlaid,"
                 " their response maps drawn, as the server renders and measures them")
    choose(session, "b", "profile:uno-drv2605l", 0)
    record = drawn_as(session, ("sim-lra", 0), ("uno-drv2605l", 0))
    if record["sides"]["b"]["kind"] != "profile":
        raise Failure(f"side B is {record['sides']['b']}, not the uno-drv2605l profile")
    c = check_side(session, record, "b", "/v1/profiles/uno-drv2605l", 0)
    if driver.find_element(By.ID, "compare-b-play").is_enabled():
        raise Failure("a board profile's play button is enabled: nothing serves it")
    session.step(f"compare: the uno-drv2605l profile (no board) drawn, peak {c:.4f} g; it cannot be played")
    session.screenshot("compare.png")
    choose(session, "b", "board:uno-hbridge", 1)
    drawn_as(session, ("sim-lra", 0), ("uno-hbridge", 1))


def check_compare_play(session, board):
    """A then B: sim-lra plays the clip, then uno-hbridge channel 1 once A has finished."""
    from selenium.webdriver.common.by import By

    duration = session.js("return window.studio.lastRender.duration")
    session.driver.find_element(By.ID, "compare-both").click()
    plays = wait_until("both sides to play", lambda: (lambda p: p if p and len(p) >= 2 else None)(
        session.js("return window.studio.comparePlays")), timeout=duration + 10)
    (first, second) = plays[-2:]
    if (first["board"], second["board"], second["channel"]) != ("sim-lra", "uno-hbridge", 1):
        raise Failure(f"A then B played {first} then {second}")
    gap = (second["at"] - first["at"]) / 1000
    if gap < duration:
        raise Failure(f"B started {gap:.3f} s after A, before A's {duration:.3f} s were over")
    for play in plays[-2:]:
        wait_until(f"player {play['player']} on {play['board']} to finish", lambda: session.server.get(
            f"/v1/players/{play['player']}")["player"]["state"] == "finished", timeout=duration + 10)
    rows = wait_until("uno-hbridge's trace of channel 1", lambda: [r for r in board.rows() if r[1] == 1 and r[2] != 0])
    stray = [r for r in board.rows() if r[1] == 0 and r[2] != 0]
    if stray:
        raise Failure(f"uno-hbridge drove channel 0 ({len(stray)} trace rows), B plays channel 1 only: {stray[:3]}")
    errors = session.errors()
    if errors:
        raise Failure("errors shown while comparing:\n  " + "\n  ".join(errors))
    session.step(f"A then B: sim-lra, then uno-hbridge ch 1 {gap:.3f} s later (the clip is {duration:.3f} s);"
                 f" both finished; the board's trace drives channel 1 ({len(rows)} rows), not 0")


def check_without_library(session):
    """`hapticctl studio` without --library: the page loads with no console error, no library list."""
    from selenium.webdriver.common.by import By

    plain = Server(session.args.hapticctl, None, session.args.studio_dir)
    try:
        session.open_page(plain.base)
        time.sleep(0.3)  # a request still under way would log its failure now
        severe = session.severe_console()
        if severe:
            raise Failure("console errors on a server without a library:\n  " + "\n  ".join(e["message"] for e in severe))
        if session.driver.find_element(By.ID, "library-box").is_displayed():
            raise Failure("the library list shows on a server without a library")
        offer = plain.get("/v1/server")
        if offer.get("library") is not False:
            raise Failure(f"GET /v1/server on a server without a library: {json.dumps(offer)}")
    finally:
        plain.stop()
    session.step("a studio without --library loads with no console error and no library list")
