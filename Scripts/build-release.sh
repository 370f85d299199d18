#!/usr/bin/env bash
# Builds a product in release mode with the Swift runtime and Foundation linked in
# (--static-swift-stdlib), in .build-release/, and prints the path of the built executable.
# Used by Scripts/demo.sh and Scripts/install.sh.
#
#   Scripts/build-release.sh [PRODUCT]     (default: hapticctl)
#
# Why static: a hapticctl linked to the shared Swift libraries spends most of its start in the
# dynamic loader (its relocations) and page faults of those libraries — `hapticctl --version`
# took 11 ms and `validate FILE` 13 ms (medians of 40 runs, 2-core AMD EPYC), linked in 6 ms and
# 8 ms; scripts call hapticctl once per effect. The executable is larger (86 MB, ICU's data
# included) and runs on machines without a Swift toolchain.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
product="${1:-hapticctl}"
flags=(-c release --static-swift-stdlib --scratch-path "$root/.build-release")
(cd "$root" && swift build "${flags[@]}" --product "$product" >&2)
echo "$(cd "$root" && swift build "${flags[@]}" --show-bin-path)/$product"
