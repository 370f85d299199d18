#!/usr/bin/env bash
# Sets up a fresh machine and runs hapticctl's main job without hardware: installs system
# packages, builds hapticctl in release mode, checks and renders every pattern (.ahap and
# .haptic) in the project's own Examples/ folder, simulates the first on the simulated LRA and
# measures the board's response map, then serves a simulated board on a pseudo-terminal and
# plays the first three files on it through the real serial path (probe, send), as on a real
# board. Needs nothing outside this repository.
#
#   Scripts/demo.sh                          # the files in Examples/
#   Scripts/demo.sh A.ahap B.haptic …        # these files instead
#   HAPTICCTL_CORPUS=DIR Scripts/demo.sh     # the .ahap and .haptic files in DIR instead
#                                            # (e.g. the optional ../shared/corpus/ahap)
#
# Audio events (Examples/audio-click.ahap) play on the host's default ALSA device; without a
# sound card `send` warns that they are silent and plays the haptics all the same.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash Scripts/install-system-deps.sh
bin="$(bash Scripts/build-release.sh hapticctl)"

if [ $# -gt 0 ]; then
  files=("$@")
else
  corpus="${HAPTICCTL_CORPUS:-$root/Examples}"
  shopt -s nullglob
  files=("$corpus"/*.ahap "$corpus"/*.haptic)
  shopt -u nullglob
  [ ${#files[@]} -gt 0 ] || { echo "error: no .ahap or .haptic files in $corpus (set HAPTICCTL_CORPUS or pass files)" >&2; exit 1; }
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
echo
echo "Simulating $(basename "${files[0]}") on sim-lra (peak, RMS, rise and stop times):"
"$bin" simulate "${files[0]}" --board sim-lra --format summary
"$bin" simulate "${files[0]}" --board sim-lra --format svg -o simulate-demo.svg
echo "Drive and acceleration plot: simulate-demo.svg"

echo
echo "What intensity and sharpness feel like on sim-lra (its response map, measured on the simulator):"
"$bin" characterize --board sim-lra | sed -n '/drive frequency/,$p'
"$bin" characterize --board sim-lra --format svg -o characterize-demo.svg
echo "Intensity → acceleration plot: characterize-demo.svg"

echo
echo "Serving a simulated board on a pseudo-terminal and playing on it:"
link="$(mktemp -u /tmp/hapticctl-demo-XXXXXX)"
"$bin" sim serve --board sim-lra --link "$link" >/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "$link" ] && break; sleep 0.1; done
"$bin" probe --port "$link"
for file in "${files[@]:0:3}"; do
  printf '%s: ' "$(basename "$file")"
  "$bin" send "$file" --port "$link"
done
kill $server
wait $server 2>/dev/null || true
