"""The studio browser test's checks of the page and its drawn timeline (steps 1 and 2).

The page loads with no console error; a library file chosen in the page's list is drawn with
every haptic event of the server's own render (POST /v1/boards/sim-lra/render?file=…): the same
count, index, type and data-time, each at the x that window.studio.timeToX gives (within 1 px);
and the board lane's .drive and .accel paths are drawn. Writes timeline.png.
"""
import urllib.parse

from harness import EVENTS_JS, Failure, wait_until

# The types of the render's haptic events: the drawn .event elements compared with the render.
HAPTIC = ("transient", "continuous")


def load_page(session):
    """Opens /studio/ and waits for window.studio.ready; no SEVERE console message."""
    session.open_page(session.server.base)
    severe = session.severe_console()
    if severe:
        raise Failure("console errors on load:\n  " + "\n  ".join(entry["message"] for entry in severe))
    session.step("the page loads (window.studio.ready) with no console error")


def check_timeline(session):
    """The library file --corpus-file: its events against the server's render, then the board lane."""
    name = session.args.corpus_file
    expected = server_events(session, name)
    select_library_file(session, name)
    events = drawn_events(session)
    compare_events(events, expected)
    session.step(f"{len(events)} events of {name} drawn where timeToX puts them")
    check_board_lane(session)
    session.screenshot("timeline.png")


def server_events(session, name):
    """The haptic events of the server's render of library file `name`, by index."""
    status, answer = session.server.request(
        "POST", "/v1/boards/sim-lra/render?file=" + urllib.parse.quote(name), b"")
    if status != 200:
        raise Failure(f"POST /v1/boards/sim-lra/render?file={name}: HTTP {status}: {answer}")
    expected = {e["index"]: e for e in answer["render"]["events"] if e["type"] in HAPTIC}
    if not expected:
        raise Failure(f"{name} renders no haptic event: choose a corpus file with some")
    return expected


def select_library_file(session, name):
    """Chooses `name` in the page's library list and waits for every event of its render drawn."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = session.driver
    library = wait_until("the library list", lambda: driver.find_element(By.ID, "library").is_displayed()
                         and driver.find_element(By.ID, "library"))
    values = [option.get_attribute("value") for option in Select(library).options]
    if name not in values:
        raise Failure(f"{name} is not in the library list ({len(values) - 1} files)")
    Select(library).select_by_value(name)
    wait_until(f"the render of {name}", lambda: session.js(
        "const r = window.studio.lastRender;"
        " return !!r && document.querySelectorAll('#timeline .event').length === r.events.length"))


def drawn_events(session):
    """The drawn haptic events (EVENTS_JS), once laid out (an x, unless timeToX says 0)."""
    def drawn():
        events = [e for e in session.js(EVENTS_JS) if e["type"] in HAPTIC]
        return events if events and all(e["x"] != 0 or e["expected"] == 0 for e in events) else None

    return wait_until("the events to be drawn", drawn)


def compare_events(events, expected):
    """Each drawn event is one of the render's, with its type and time, where timeToX puts it."""
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


def check_board_lane(session):
    """The board lane's .drive and .accel paths: at least one of each, none empty."""
    paths = wait_until("the board lane's paths", lambda: session.js(
        "const d = (c) => Array.from(document.querySelectorAll('#timeline path.' + c)).map((p) => p.getAttribute('d') || '');"
        " const drive = d('drive'), accel = d('accel');"
        " return drive.length && accel.length && drive.every((s) => s.length > 2) && accel.every((s) => s.length > 2)"
        " ? {drive: drive.length, accel: accel.length} : null"))
    session.step(f"the board lane draws {paths['drive']} drive and {paths['accel']} accel paths")
