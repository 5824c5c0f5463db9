#!/usr/bin/env bash
# Builds and runs tools/dev/outline_rings_check.cpp: the locator's outline ranking against
# codes of known geometry drawn by the generator's rasterizer (rim and logo-disc outlines must
# score as rings; wrong sizes, moved outlines and texture must not).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/acc_outline_rings_check"
# shellcheck disable=SC2046
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore/include -I Sources/CAppClipCore \
    $(pkg-config --cflags opencv4) Sources/CAppClipCore/format/*.cpp Sources/CAppClipCore/format/generated/*.cpp \
    Sources/CAppClipCore/vision/outline_rings.cpp Sources/CAppClipCore/vision/image_view.cpp \
    tools/dev/outline_rings_check.cpp \
    $(pkg-config --libs-only-L opencv4) -lopencv_imgproc -lopencv_core -o "$out"
if ! result="$("$out")"; then
    printf 'outline rings FAILED:\n%s\n' "$result"
    exit 1
fi
echo "outline rings: $result"
