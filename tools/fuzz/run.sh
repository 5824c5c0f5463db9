#!/usr/bin/env bash
# Builds the libFuzzer targets (with ASan and UBSan) and runs each for a while: the format
# layer's parsers; the image loader (io layer: libjpeg-turbo, libpng, our EXIF reader) with
# the whole detector on what it decodes, from the seeds of tools/fuzz/make_image_seeds.py;
# and the detector on pixel buffers of any format, size, stride and search hint.
# Usage: tools/fuzz/run.sh [seconds per target, default 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"
out=tools/fuzz/out
mkdir -p "$out/obj"
cxx="${CXX_FUZZ:-clang++}"
sanitizers=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
flags=(-std=c++17 -O1 -g -I Sources/CAppClipCore/include -I Sources/CAppClipCore $(pkg-config --cflags opencv4 libjpeg libpng))
libs=($(pkg-config --libs-only-L opencv4 libjpeg libpng) -lopencv_calib3d -lopencv_imgproc -lopencv_core -ljpeg -lpng)

# The core once, instrumented for the fuzzer but without its main (two compilers at a time).
export cxx
export flags_line="${flags[*]} ${sanitizers[*]} -fsanitize=fuzzer-no-link"
find Sources/CAppClipCore -name '*.cpp' | sort | xargs -P 2 -I{} sh -c \
    'obj="tools/fuzz/out/obj/$(echo "{}" | tr / _).o"; $cxx $flags_line -c "{}" -o "$obj"'
objects=("$out"/obj/*.o)

for target in fuzz_svg_reader fuzz_url_decompress fuzz_reed_solomon fuzz_image_load fuzz_image_view; do
    "$cxx" "${flags[@]}" "${sanitizers[@]}" -fsanitize=fuzzer "tools/fuzz/$target.cpp" "${objects[@]}" "${libs[@]}" \
        -o "$out/$target" -fuse-ld=gold 2>&1 | grep -v "Cannot export local symbol" || true
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
