#!/usr/bin/env bash
# Soak test (issue 14; not run by CI): loops the AHAP corpus over one `hapticctl sim serve` with
# line faults, ±200 ppm drift and a board reset every 97 s, and every 5th run kills `send` with
# SIGKILL mid-pattern. From the served board's trace it checks that the drive stopped within the
# watchdog (100 ms) plus a frame after each host death while driving, that every reset
# mid-pattern was reported (`stopped_by: reset`) and the next `send` played, and that the
# server's memory stays flat (≤ 20 % growth); it reports underruns, late segments and the
# server's CPU per minute.
#
#   Scripts/soak.sh [MINUTES]            (default 10)
#
# Environment: HAPTICCTL_CORPUS (default ../shared/corpus/ahap), SOAK_DIR (default a new folder
# under ${TMPDIR:-/tmp}; it keeps the trace, the events and every send's report). Exit status 0
# when every check passed, 1 otherwise. The summary's figures go into the issue's closing note.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
minutes=${1:-10}
[[ $minutes =~ ^[0-9]+$ ]] && ((minutes > 0)) || {
  echo "usage: Scripts/soak.sh [MINUTES]" >&2
  exit 64
}
corpus=${HAPTICCTL_CORPUS:-../shared/corpus/ahap}
dir=${SOAK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/hapticctl-soak-XXXXXX")}
mkdir -p "$dir"
mapfile -t patterns < <(ls "$corpus"/*.ahap 2>/dev/null | sort)
((${#patterns[@]} > 0)) || {
  echo "error: no .ahap files in $corpus (set HAPTICCTL_CORPUS)" >&2
  exit 1
}
echo "building hapticctl (release)…"
swift build -c release --product hapticctl >"$dir/build.log" 2>&1 || {
  tail -20 "$dir/build.log" >&2
  exit 1
}
hapticctl=$PWD/.build/release/hapticctl

faults=(--drop 0.001 --corrupt 0.0001 --drift-ppm 200 --reset-every 97)
"$hapticctl" sim serve "${faults[@]}" --trace "$dir/board.csv" --trace-rate 1000 >"$dir/serve.out" 2>"$dir/serve.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
while [[ ! -s $dir/serve.out ]]; do sleep 0.05; done
port=$(head -1 "$dir/serve.out")

# Resident memory (kB) and CPU time (clock ticks) of the server.
rss() { awk '/^VmRSS/ {print $2}' "/proc/$server/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
ticks_per_second=$(getconf CLK_TCK)
sleep 2
rss_start=$(rss)
declare -a cpu_minutes=()
minute_ticks=$(cpu_ticks)
minute_start=$SECONDS

start=$SECONDS
deadline=$((start + minutes * 60))
runs=0 played=0 resets=0 kills=0 failures=0 after_reset=0 underruns=0 late=0 unanswered=0 index=0
echo "soak: ${minutes} min over $port (${faults[*]}), corpus ${#patterns[@]} files, work in $dir"
while ((SECONDS < deadline)); do
  pattern=${patterns[index % ${#patterns[@]}]}
  index=$((index + 1))
  runs=$((runs + 1))
  name=$(basename "$pattern" .ahap)
  if ((runs % 5 == 0)); then
    # A host that dies mid-pattern: only the board's watchdog can stop the drive.
    "$hapticctl" send "$pattern" --port "$port" --json >"$dir/run-$runs.json" 2>"$dir/run-$runs.err" &
    sender=$!
    sleep "0.$((RANDOM % 9 + 3))"
    if kill -9 "$sender" 2>/dev/null; then kills=$((kills + 1)); fi
    wait "$sender" 2>/dev/null || true
    sleep 0.2
  else
    status=0
    "$hapticctl" send "$pattern" --port "$port" --json >"$dir/run-$runs.json" 2>"$dir/run-$runs.err" || status=$?
    report=$(cat "$dir/run-$runs.json")
    stopped=$(grep -o '"stopped_by":"[a-z]*"' <<<"$report" | cut -d'"' -f4 || true)
    if ((status == 0)); then
      played=$((played + 1))
      after_reset=0
      if grep -q '"board_status_answered":true' <<<"$report"; then
        underruns=$((underruns + $(grep -o '"underruns":[0-9]*' <<<"$report" | cut -d: -f2)))
        late=$((late + $(grep -o '"late_segments":[0-9]*' <<<"$report" | cut -d: -f2)))
      else
        unanswered=$((unanswered + 1)) # the board's counts of this run are unknown
      fi
    elif [[ $stopped == reset ]] && ((after_reset == 0)); then
      resets=$((resets + 1))
      after_reset=1 # the next send must play
    else
      failures=$((failures + 1))
      echo "FAIL run $runs ($name): exit $status, $(head -c 300 "$dir/run-$runs.err")" >&2
    fi
  fi
  if ((SECONDS - minute_start >= 60)); then
    now_ticks=$(cpu_ticks)
    cpu_minutes+=("$(awk -v d=$((now_ticks - minute_ticks)) -v s=$((SECONDS - minute_start)) -v hz="$ticks_per_second" \
      'BEGIN {printf "%.1f", 100 * d / hz / s}')")
    minute_ticks=$now_ticks
    minute_start=$SECONDS
  fi
done
rss_end=$(rss)
kill -TERM $server
wait $server 2>/dev/null || true
trap - EXIT

# Every host death while the board drove: the watchdog stop and the first silent row after it.
watchdog=$(awk -F, '
  FNR == 1 { next }
  FILENAME ~ /events/ {
    if ($2 == "host_gone") gone[++n] = $1
    if ($2 == "watchdog_stop") stop[++m] = $1
    next
  }
  {
    t = $1; d = $3
    while (k < n && gone[k + 1] <= t) { k++; driving[k] = (last != 0); silent[k] = -1 }
    if (k > 0 && driving[k] && silent[k] < 0 && d == 0) silent[k] = t
    last = d
  }
  END {
    worst_stop = 0; worst_silent = 0; deaths = 0; bad = 0
    for (i = 1; i <= n; i++) {
      if (!driving[i]) continue
      deaths++
      # The drive may already have stopped by itself (the queue ran dry: an underrun); else
      # the watchdog stops it, in the 200 ms after the host died.
      for (j = 1; j <= m; j++) if (stop[j] >= gone[i] - 0.001 && stop[j] <= gone[i] + 0.2) {
        if (stop[j] - gone[i] > worst_stop) worst_stop = stop[j] - gone[i]
        break
      }
      if (silent[i] < 0 || silent[i] - gone[i] > 0.102) bad++
      if (silent[i] - gone[i] > worst_silent) worst_silent = silent[i] - gone[i]
    }
    printf "%d %d %.1f %.1f\n", deaths, bad, worst_stop * 1000, worst_silent * 1000
  }' "$dir/board.events.csv" "$dir/board.csv")
read -r deaths bad_deaths worst_stop worst_silent <<<"$watchdog"
board_resets=$(grep -c ',reset,' "$dir/board.events.csv" || true)
board_underruns=$(grep -c ',underrun,' "$dir/board.events.csv" || true)
growth=$(awk -v a="$rss_start" -v b="$rss_end" 'BEGIN {printf "%.1f", 100 * (b - a) / a}')

echo
echo "soak summary ($dir)"
echo "  minutes: $minutes; runs: $runs (played to the end: $played, reset mid-pattern and reported: $resets, killed: $kills, failed: $failures)"
echo "  faults: ${faults[*]}; board resets: $board_resets"
echo "  sends that played: $underruns underruns, $late late segments, $unanswered whose board did not answer its final status (counts unknown; board events file: $board_underruns underruns, resets and kills included)"
echo "  host deaths while driving: $deaths; drive 0 ≤ $worst_silent ms after (watchdog stops ≤ $worst_stop ms after); over 100 ms + a frame: $bad_deaths"
echo "  server RSS: $rss_start kB at start, $rss_end kB at end ($growth %); CPU per minute: ${cpu_minutes[*]:-n/a} %"
# Underruns and late segments are figures, not failures: a send starts on a fresh link whose
# lookahead (80 ms) has not yet grown with the loss, so a loss in a short dense pattern's first
# moments can arrive late (docs/protocol.md §8).
ok=1
((failures == 0)) || ok=0
((bad_deaths == 0)) || ok=0
awk -v g="$growth" 'BEGIN {exit !(g <= 20)}' || {
  echo "  server memory grew by $growth %" >&2
  ok=0
}
((ok)) && echo "  result: PASS" || echo "  result: FAIL"
((ok))
