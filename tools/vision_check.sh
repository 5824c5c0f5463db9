#!/usr/bin/env bash
# Builds and runs one of the vision checks in tools/dev (against codes drawn by the
# generator's rasterizer, so the format layer is linked in) and prints its summary.
#   tools/vision_check.sh LABEL PROGRAM VISION_SOURCE...   e.g. "outline rings" outline_rings_check outline_rings image_view
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
label="$1" program="$2"
shift 2
vision=()
for name in "$@"; do vision+=("Sources/CAppClipCore/vision/$name.cpp"); done
out="${TMPDIR:-/tmp}/acc_$program"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore/include -I Sources/CAppClipCore \
    $(pkg-config --cflags opencv4) Sources/CAppClipCore/format/*.cpp Sources/CAppClipCore/format/generated/*.cpp \
    "${vision[@]}" "tools/dev/$program.cpp" \
    $(pkg-config --libs-only-L opencv4) -lopencv_imgproc -lopencv_core -o "$out"
run_check "$label" "$out"
