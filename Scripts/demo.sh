#!/usr/bin/env bash
# Sets up a fresh machine and runs hapticctl's main job without hardware:
# installs system packages, builds hapticctl in release mode, and checks every AHAP file in the
# shared corpus (or the files given as arguments).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash Scripts/install-system-deps.sh
swift build -c release --product hapticctl
bin="$(swift build -c release --show-bin-path)/hapticctl"

if [ $# -gt 0 ]; then
  files=("$@")
else
  corpus="${HAPTICCTL_CORPUS:-$root/../shared/corpus/ahap}"
  shopt -s nullglob
  files=("$corpus"/*.ahap)
  [ ${#files[@]} -gt 0 ] || { echo "error: no .ahap files in $corpus (set HAPTICCTL_CORPUS or pass files)" >&2; exit 1; }
fi
"$bin" validate "${files[@]}"
echo
echo "Rendering for the simulated LRA board (sim-lra):"
for file in "${files[@]}"; do
  printf '%s: ' "$(basename "$file")"
  "$bin" render "$file" --board sim-lra --format stats
done
"$bin" render "${files[0]}" --board sim-lra --format svg -o render-demo.svg
echo "Plot of $(basename "${files[0]}"): render-demo.svg"
