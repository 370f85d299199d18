#!/usr/bin/env bash
# Runs a libFuzzer target of hapticctl (issue 14) on its seed corpus.
#
#   Scripts/fuzz.sh TARGET [SECONDS] [LIBFUZZER OPTION…]
#
# TARGET: ahap (the AHAP reader, writer round trip, renderer, conversion to .haptic and Android), wire (frame decoding, message
# round trip, the reliable link and the simulated board's message handling), board-file (board
# files and the profiles they give), haptic (the .haptic and .vij reader, the clip as a pattern,
# the .haptic and both AHAP writers, the renderer, conversion back and to Android), firmware (the Uno firmware's portable core built on the
# host with clang -fsanitize=fuzzer,address,undefined), or all (each in turn). SECONDS: how long
# each runs (default 60). Extra options go to libFuzzer, e.g. -runs=10000000 or -jobs=2.
#
# Seeds: the real files (../shared/corpus/ahap and haptic, the AHAP test fixtures, Boards/*.json and the
# board-file fixtures), the protocol test vectors of docs/protocol.md, and every input a fuzzer
# once found a bug with (Scripts/fuzz/regressions/TARGET/, committed: a found crash stays fixed).
# New inputs collect in Scripts/fuzz/.build/corpus/TARGET/ (kept between runs, not committed);
# a crash, hang or sanitizer report is written to Scripts/fuzz/.build/artifacts/TARGET/ and the
# script exits non-zero. Swift targets build with `swift build --sanitize=fuzzer` in the nested
# package Scripts/fuzz (the root package never builds them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
target=${1:-}
seconds=${2:-60}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
work=$root/Scripts/fuzz/.build

usage() {
  echo "usage: Scripts/fuzz.sh ahap|wire|board-file|haptic|firmware|all [SECONDS] [LIBFUZZER OPTION…]" >&2
  exit 64
}
[[ $seconds =~ ^[0-9]+$ ]] || usage

# The protocol test vectors (docs/protocol.md §9), one file each, as the wire target's "raw
# bytes" operation (op 0, a length byte, the bytes) — and for the firmware target as given by
# its own make target.
wire_seeds() {
  local out=$1 name hex bytes
  mkdir -p "$out"
  awk '/<!-- vectors:begin -->/{on=1; next} on && /^```text/{next} on && /^```/{exit} on && NF>1' \
    "$root/docs/protocol.md" |
    while read -r name hex; do
      bytes=$(echo "$hex" | wc -w)
      (( bytes <= 255 )) || continue
      printf "\\x00\\x$(printf %02x "$bytes")$(echo "$hex" | sed -E 's/([0-9A-Fa-f]{2}) ?/\\x\1/g')" >"$out/vector-$name"
    done
  # identify as a valid frame (op 1, type 0x01, no payload), time passing, a status request.
  printf '\x01\x01\x00\x02\x05\x01\x08\x00\x02\x14\x03' >"$out/identify-status"
}

build_swift() {
  echo "== building the Swift fuzz targets (release, libFuzzer + AddressSanitizer)"
  mkdir -p "$work"
  # SwiftPM (6.3) keeps a nested package's build description across builds without noticing a
  # source file added to the root package it depends on by path: the next build fails with
  # "cannot find 'X' in scope" for the new file's declarations (seen here with
  # HapticTransport/BoardIdentity.swift, in this package and in Scripts/benchmarks). Dropping
  # the cached description makes it scan the sources again; everything else stays incremental.
  rm -f "$work/release/description.json"
  # -Xswiftc instruments the root package's modules too (--sanitize alone covers only this
  # package's targets; --sanitize=fuzzer tells SwiftPM that libFuzzer supplies main).
  swift build --package-path "$root/Scripts/fuzz" -c release --sanitize=fuzzer --sanitize=address \
    -Xswiftc -sanitize=fuzzer,address >"$work/build.log" 2>&1 || {
    grep -v "warning: Cannot export local symbol" "$work/build.log" | tail -30 >&2
    echo "error: the Swift fuzz targets did not build (log: $work/build.log)" >&2
    exit 1
  }
}

# run NAME BINARY MAX_LEN SEED_DIR…
run() {
  local name=$1 binary=$2 max_len=$3
  shift 3
  local corpus=$work/corpus/$name artifacts=$work/artifacts/$name/
  mkdir -p "$corpus" "$artifacts" "$root/Scripts/fuzz/regressions/$name"
  echo "== fuzzing $name for ${seconds} s"
  local log=$work/$name.log status=0
  "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
    -artifact_prefix="$artifacts" "${extra[@]}" "$corpus" "$root/Scripts/fuzz/regressions/$name" "$@" \
    >"$log" 2>&1 || status=$?
  grep -E "DONE|^stat::number_of_executed_units|^stat::average_exec_per_sec|^Done " "$log" || true
  if (( status != 0 )); then
    grep -E "ERROR|SUMMARY|Fatal error|==[0-9]+==|Test unit written" "$log" | head -20 >&2
    echo "error: fuzz target $name failed (exit $status); log $log, inputs in $artifacts" >&2
    return 1
  fi
}

fuzz_one() {
  local seeds=$work/seeds/$1
  rm -rf "$seeds"
  mkdir -p "$seeds"
  case $1 in
    ahap)
      [[ -x $work/release/FuzzAHAP ]] || build_swift
      cp "$root"/Tests/HapticAHAPTests/Fixtures/good/*.ahap "$root"/Tests/HapticAHAPTests/Fixtures/bad/* "$seeds/" 2>/dev/null || true
      run ahap "$work/release/FuzzAHAP" 16384 "$seeds" $(ls -d "$root/../shared/corpus/ahap" 2>/dev/null)
      ;;
    wire)
      [[ -x $work/release/FuzzWire ]] || build_swift
      wire_seeds "$seeds"
      run wire "$work/release/FuzzWire" 2048 "$seeds"
      ;;
    board-file)
      [[ -x $work/release/FuzzBoardFile ]] || build_swift
      cp "$root"/Boards/*.json "$seeds/"
      find "$root/Tests/HapticBoardsTests" -name '*.json' -exec cp {} "$seeds/" \; 2>/dev/null || true
      run board-file "$work/release/FuzzBoardFile" 8192 "$seeds"
      ;;
    haptic)
      [[ -x $work/release/FuzzHaptic ]] || build_swift
      find "$root/../shared/corpus/haptic" \( -name '*.haptic' -o -name '*.vij' \) -exec cp {} "$seeds/" \; 2>/dev/null || true
      run haptic "$work/release/FuzzHaptic" 16384 "$seeds"
      ;;
    firmware)
      local firmware=$root/Boards/uno-drv2605l/firmware
      echo "== building the firmware fuzz target (clang, libFuzzer + ASan + UBSan)"
      make -s -C "$firmware" fuzz fuzz-seeds
      run firmware "$firmware/build/fuzz-board" 2048 "$firmware/build/fuzz-seeds"
      ;;
    *) usage ;;
  esac
}

case $target in
  all)
    build_swift
    failed=0
    for name in ahap wire board-file haptic firmware; do fuzz_one "$name" || failed=1; done
    exit $failed
    ;;
  ahap | wire | board-file | haptic | firmware)
    # A stale build would fuzz old code: always rebuild the Swift targets (incremental).
    [[ $target == firmware ]] || build_swift
    fuzz_one "$target"
    ;;
  *) usage ;;
esac
