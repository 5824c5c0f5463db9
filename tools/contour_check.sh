#!/usr/bin/env bash
# Builds and runs tools/dev/contour_check.cpp: the outline search's contour tracing against the
# OpenCV call it replaces (cv::findContours, RETR_LIST, CHAIN_APPROX_NONE) on random binary
# images and on the Canny edges of TestImages' photos and frames.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/acc_contour_check"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore $(pkg-config --cflags opencv4) tools/dev/contour_check.cpp \
  Sources/CAppClipCore/vision/contour_tracer.cpp -o "$out" \
  $(pkg-config --libs-only-L opencv4) -lopencv_imgcodecs -lopencv_imgproc -lopencv_core
mapfile -t images < <(find TestImages -type f \( -name '*.jpg' -o -name '*.png' \) | sort)
"$out" "${images[@]}"   # exits 1 on any difference
