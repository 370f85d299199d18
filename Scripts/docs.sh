#!/usr/bin/env bash
# Builds the DocC catalogs of the public libraries (swift-docc-plugin) and fails on any DocC
# warning: a broken symbol link is a defect. Archives land in
# .build/plugins/Swift-DocC/outputs/<Target>.doccarchive.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
status=0
for target in CoreHapticsCompat HapticEngine HapticAHAP; do
  log="$(mktemp)"
  if ! swift package --disable-sandbox generate-documentation --target "$target" >"$log" 2>&1; then
    cat "$log"; echo "docs: $target failed" >&2; status=1
  elif grep -qi "warning:" "$log"; then
    grep -i "warning:" "$log" | sort -u; echo "docs: $target has DocC warnings" >&2; status=1
  else
    echo "docs: $target built without warnings"
  fi
  rm -f "$log"
done
exit $status
