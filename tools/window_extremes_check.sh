#!/usr/bin/env bash
# Builds and runs tools/dev/window_extremes_check.cpp: the locator's window maxima and minima
# (vision/window_extremes.hpp) against a plain scan of every window, ties included.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_window_extremes_check"
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore tools/dev/window_extremes_check.cpp -o "$out"
run_check "window extremes" "$out"
