#!/usr/bin/env bash
# Builds the libFuzzer targets (with ASan and UBSan) and runs each for a while: the format
# layer's parsers, and the image loader (io layer: libjpeg-turbo, libpng, our EXIF reader)
# followed by the whole detector on what it decodes, which starts from the seeds of
# tools/fuzz/make_image_seeds.py.
# Usage: tools/fuzz/run.sh [seconds per target, default 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"
out=tools/fuzz/out
mkdir -p "$out"
cxx="${CXX_FUZZ:-clang++}"
sources=(Sources/CAppClipCore/format/*.cpp Sources/CAppClipCore/format/generated/*.cpp)
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I Sources/CAppClipCore/include -I Sources/CAppClipCore)
io_sources=(Sources/CAppClipCore/io/*.cpp Sources/CAppClipCore/vision/*.cpp)
io_libs=($(pkg-config --cflags --libs-only-L opencv4 libjpeg libpng)
         -lopencv_calib3d -lopencv_imgproc -lopencv_core -ljpeg -lpng)
for target in fuzz_svg_reader fuzz_url_decompress fuzz_reed_solomon fuzz_image_load; do
    extra=()
    [ "$target" = fuzz_image_load ] && extra=("${io_sources[@]}" "${io_libs[@]}")
    "$cxx" "${flags[@]}" "${sources[@]}" "tools/fuzz/$target.cpp" "${extra[@]}" -o "$out/$target" -fuse-ld=gold 2>&1 | grep -v "Cannot export local symbol" || true
    corpus="$out/corpus-$target"
    mkdir -p "$corpus"
    if [ "$target" = fuzz_svg_reader ] && [ -d ../shared/corpus/apple ]; then
        cp -n ../shared/corpus/apple/apple_00*.svg "$corpus/" 2>/dev/null || true
    fi
    [ "$target" = fuzz_image_load ] && cp -n tools/fuzz/seeds/image/* "$corpus/" 2>/dev/null || true
    echo "fuzzing $target for ${seconds}s"
    "$out/$target" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 -artifact_prefix="$out/" 2>&1 | tail -n 3
done
echo "fuzz targets ran without a crash"
