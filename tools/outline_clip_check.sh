#!/usr/bin/env bash
# Builds and runs tools/dev/outline_clip_check.cpp: the comb's clip level (vision/comb_table.hpp,
# outline_clip) against a plain listing and sort of the profile's local maxima.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_outline_clip_check"
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore tools/dev/outline_clip_check.cpp -o "$out"
run_check "outline clip" "$out"
