#!/usr/bin/env bash
# Builds and runs tools/dev/steep_read_check.cpp: the whole reader (acc_detector_detect) on
# steep codes drawn by the generator's rasterizer and seen in perspective (see the source).
# The core's objects come from tools/dev/build.sh (release), cached in this checkout's .build:
# a build directory shared by several checkouts (the developer's and a CI clone's) would mix
# objects from different sources, since build.sh rebuilds only what is older than its source.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
export BUILD_DIR="${BUILD_DIR:-$PWD/.build/acc_steep_read}"
tools/dev/build.sh release > /dev/null 2>&1
# The core's objects by the names build.sh gives them, from the sources there are now (a
# glob over the directory would also link the objects of sources since removed).
objects=()
while IFS= read -r src; do objects+=("$BUILD_DIR/release/$(echo "$src" | tr '/' '_').o"); done \
    < <(find Sources/CAppClipCore -name '*.cpp' | sort)
out="$BUILD_DIR/steep_read_check"
pkgs="opencv4 libjpeg libpng"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore/include -I Sources/CAppClipCore $(pkg-config --cflags $pkgs) \
    tools/dev/steep_read_check.cpp "${objects[@]}" \
    $(pkg-config --libs-only-L $pkgs) -lopencv_calib3d -lopencv_imgproc -lopencv_core -ljpeg -lpng -o "$out"
run_check "steep reads" "$out"
