#!/usr/bin/env bash
# The studio's speed figures (issue 29) on a release build, their budgets enforced: the longest
# corpus file's timeline drawn within 500 ms of the page load (median of 5 loads after a warm-up),
# and a 10-minute pattern drawn with no animation-frame gap over 1 s. The browser test
# (Scripts/studio/studio_test.py) measures them; CI runs it on the debug build and only prints
# them, since a test must not depend on a machine's speed.
#
#   Scripts/benchmarks/studio-figures.sh [SCREENSHOT_DIR]
#
# Needs ../shared/corpus/ahap beside the clone (the corpus' longest file) and what
# Scripts/studio-test.sh needs (chromium, chromium-driver; selenium into .build/studio-venv).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
[ -d ../shared/corpus/ahap ] || { echo "error: ../shared/corpus/ahap is missing (the corpus' longest file)" >&2; exit 2; }
swift build -c release --product hapticctl
venv=".build/studio-venv"
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "selenium==4.50.0"
fi
screenshots="${1:-.build/studio-figures}"
mkdir -p "$screenshots"
exec "$venv/bin/python" Scripts/studio/studio_test.py --budgets --hapticctl .build/release/hapticctl \
  --library ../shared/corpus/ahap --corpus-file denizsincar29__apple_haptic_creator__donnalee.ahap \
  --longest-file Lofelt__NiceVibrations__long_clip.ahap \
  --broken Tests/HapticAHAPTests/Fixtures/bad/negative-time.ahap --screenshots "$screenshots"
