#!/usr/bin/env bash
# Builds and runs tools/dev/pyramid_check.cpp: the locator's own pyramid against the OpenCV calls
# it replaces (cv::pyrDown, cv::resize with INTER_AREA by whole factors and to other sizes) on
# random images.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/acc_pyramid_check"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore $(pkg-config --cflags opencv4) tools/dev/pyramid_check.cpp \
  Sources/CAppClipCore/vision/pyramid.cpp -o "$out" $(pkg-config --libs-only-L opencv4) -lopencv_imgproc -lopencv_core
"$out"   # exits 1 on any differing pixel
