#!/usr/bin/env bash
# The studio's page in a real browser (issue 29): `hapticctl studio` over a simulated board,
# driven by Selenium (PyPI) in Debian's headless chromium (Scripts/studio/studio_test.py).
#
#   Scripts/studio-test.sh [SCREENSHOT_DIR]     (default .build/studio-screenshots)
#
# The library is the AHAP corpus (../shared/corpus/ahap) when it is beside the clone, else
# Examples/; the page-load figure is of its longest pattern (--longest-file); the broken file is
# one of the reader's own bad fixtures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
screenshots="${1:-.build/studio-screenshots}"
hapticctl=".build/debug/hapticctl"
[ -x "$hapticctl" ] || swift build --product hapticctl
for tool in chromium chromedriver; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing: run Scripts/install-system-deps.sh" >&2; exit 1; }
done
venv=".build/studio-venv"
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "selenium==4.50.0"
fi
library="Examples"
file="envelopes.ahap"
longest="envelopes.ahap"
if [ -d ../shared/corpus/ahap ]; then
  library="../shared/corpus/ahap"
  file="denizsincar29__apple_haptic_creator__donnalee.ahap"  # the most events: 210
  longest="Lofelt__NiceVibrations__long_clip.ahap"           # the longest: 70 s
fi
mkdir -p "$screenshots"
exec "$venv/bin/python" Scripts/studio/studio_test.py --hapticctl "$hapticctl" --library "$library" \
  --corpus-file "$file" --longest-file "$longest" --broken Tests/HapticAHAPTests/Fixtures/bad/negative-time.ahap --screenshots "$screenshots"
