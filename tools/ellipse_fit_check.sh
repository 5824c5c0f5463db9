#!/usr/bin/env bash
# Builds and runs tools/dev/ellipse_fit_check.cpp: the vision layer's own ellipse fit against
# ellipses of known geometry (exact and noisy points, whole ellipses and arcs, degenerate sets).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_ellipse_fit_check"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore/include -I Sources/CAppClipCore \
    $(pkg-config --cflags opencv4) Sources/CAppClipCore/vision/ellipse_fit.cpp tools/dev/ellipse_fit_check.cpp \
    $(pkg-config --libs-only-L opencv4) -lopencv_core -o "$out"
run_check "ellipse fit" "$out"
