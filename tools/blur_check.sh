#!/usr/bin/env bash
# Builds and runs tools/dev/blur_check.cpp: the locator's vote smoothing and the drawing fit's
# blur against the OpenCV calls they replace (cv::GaussianBlur, cv::sepFilter2D) on random planes.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_blur_check"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore $(pkg-config --cflags opencv4) tools/dev/blur_check.cpp \
  Sources/CAppClipCore/vision/vote_filters.cpp Sources/CAppClipCore/vision/zero_border_blur.cpp -o "$out" \
  $(pkg-config --libs-only-L opencv4) -lopencv_imgproc -lopencv_core
run_check "blur" "$out"
