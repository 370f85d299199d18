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
  6. the pad (issue 29: pad → drive latency <= 20 ms p95, target 10 ms): opens the page afresh
     and its pad view, presses the pad at (x 0.2, y 0.3) (x sharpness, y intensity), moves to
     (0.9, 0.9) and jumps 24 times between intensity 0.2 and 0.9 (150 ms apart), releases; from the
     stream the page recorded, the level at y 0.9 is at least 1.5 times the level at y 0.3, the
     drive frequency at x 0.9 above x 0.2's, the level 0 within 200 ms of the release; the page
     measured at least 10 steps' latency and shows it (with --budgets, not ok when its p95 is
     over 20 ms); its player deleted over HTTP, the page prepares another;
  7. a .haptic clip (Examples/knock-and-buzz.haptic) through the file input: its events drawn as
     the server renders the same bytes;
  8. the compare view, on a second studio serving sim-lra and a `PATH sim serve --board
     uno-hbridge --trace …` board on a pseudo-terminal (`--port PTY --board uno-hbridge`), the
     clip opened again: A sim-lra channel 0, B uno-hbridge channel 1:
     each side's acceleration path and five response-map lines drawn, its peak the server's
     render's, its sweeps the server's map's; then B on the uno-drv2605l profile (no board: its
     play button disabled); "A then B" plays on sim-lra, then on uno-hbridge channel 1 after A's
     duration, both finish, and the board's trace drives channel 1 only;
  9. page load (issue 29: <= 500 ms): opens /studio/?file=LONGEST&board=sim-lra once to warm up,
     then 5 times, and reads each load's loadMs (navigation start to the timeline painted, from
     window.studio.timings); with --budgets, not ok when the median is over 500 ms;
 10. a 10-minute pattern (issue 29: drawn without freezing the page, <= 1 s): writes a 600 s AHAP
     (a transient every 0.25 s, a 2 s continuous event with an intensity curve every 10 s) into a
     temporary folder, opens it through the file input, checks its events are all drawn, zooms
     in (3 wheel events), pans, zooms out (the button, twice), each redraw putting the events
     where timeToX says; with --budgets, not ok when window.studio.maxFrameGapMs (the longest gap
     between animation frames, reset before opening) is over 1000 ms;
 11. a studio started without --library loads with no console error and no library list;
 12. writes timeline.png, playing.png, error.png, pad.png, compare.png, longest.png and
     ten-minutes.png into DIR.
Each figure is printed on a line of its own starting "figure ".
Needs python3 with selenium 4, /usr/bin/chromium and /usr/bin/chromedriver (Debian's chromium
and chromium-driver). Exits 0 when every step passed, 1 on a failure (with its reason), 2 when
it cannot run. The figures' budgets fail the run only with --budgets: a speed target is
measured on a release build (Scripts/benchmarks/studio-figures.sh), not asserted by a test that
runs on a debug build on any machine (CI's figures are printed, not judged).

The steps are in timeline_checks.py (1, 2), audition_checks.py (3 to 5), pad_checks.py (6),
compare_checks.py (7, 8, 11) and figures.py (9, 10); harness.py starts the server and the browser and prints the steps. This script is run by path
(Scripts/studio-test.sh, Scripts/benchmarks/studio-figures.sh), its folder first on sys.path.
"""
import argparse
import os
import sys

from audition_checks import check_broken_file, check_link_errors, check_play
from compare_checks import check_compare, check_haptic_clip, check_without_library
from figures import check_page_load, check_ten_minutes
from harness import Failure, Session
from pad_checks import check_pad
from timeline_checks import check_timeline, load_page


def run(session):
    """The steps in order; the first that does not hold raises Failure."""
    session.start()
    load_page(session)
    check_timeline(session)
    check_play(session)
    check_broken_file(session)
    check_link_errors(session)
    check_pad(session)
    check_haptic_clip(session)
    check_compare(session)
    check_page_load(session)
    check_ten_minutes(session)
    check_without_library(session)


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

    test = Session(args)
    failed = 0
    try:
        run(test)
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
