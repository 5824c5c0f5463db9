#!/usr/bin/env bash
# Builds and runs tools/dev/edge_map_check.cpp: the outline search's edge map against cv::Canny
# with the curves too small to matter removed, on random images and on TestImages' photos and
# frames, from the image and from the vote's derivatives.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_edge_map_check"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore $(pkg-config --cflags opencv4) tools/dev/edge_map_check.cpp \
  Sources/CAppClipCore/vision/edge_map.cpp -o "$out" \
  $(pkg-config --libs-only-L opencv4) -lopencv_imgcodecs -lopencv_imgproc -lopencv_core
mapfile -t images < <(find TestImages -type f \( -name '*.jpg' -o -name '*.png' \) | sort)
run_check "edge map" "$out" "${images[@]}"
