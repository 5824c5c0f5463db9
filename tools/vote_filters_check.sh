#!/usr/bin/env bash
# Builds and runs tools/dev/vote_filters_check.cpp: the locator's vote smoothing
# (vision/vote_filters.cpp) against OpenCV's cv::GaussianBlur on random planes.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/acc_vote_filters_check"
pkgs="opencv4"
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore $(pkg-config --cflags $pkgs) tools/dev/vote_filters_check.cpp \
  Sources/CAppClipCore/vision/vote_filters.cpp -o "$out" $(pkg-config --libs-only-L $pkgs) -lopencv_imgproc -lopencv_core
result="$("$out")"   # exits 1 on any failure
echo "vote smoothing: $result"
