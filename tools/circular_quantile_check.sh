#!/usr/bin/env bash
# Builds and runs tools/dev/circular_quantile_check.cpp: the light field's sliding order statistic
# (vision/circular_quantile.hpp) against nth_element over each window gathered afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_circular_quantile_check"
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore tools/dev/circular_quantile_check.cpp -o "$out"
run_check "circular quantiles" "$out"
