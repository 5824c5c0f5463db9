#!/usr/bin/env bash
# Builds the libFuzzer targets (format layer only, with ASan and UBSan) and runs
# each for a while. Usage: tools/fuzz/run.sh [seconds per target, default 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"
out=tools/fuzz/out
mkdir -p "$out"
cxx="${CXX_FUZZ:-clang++}"
sources=(Sources/CAppClipCore/format/*.cpp Sources/CAppClipCore/format/generated/*.cpp)
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I Sources/CAppClipCore/include -I Sources/CAppClipCore)
for target in fuzz_svg_reader fuzz_url_decompress fuzz_reed_solomon; do
    "$cxx" "${flags[@]}" "${sources[@]}" "tools/fuzz/$target.cpp" -o "$out/$target" -fuse-ld=gold 2>&1 | grep -v "Cannot export local symbol" || true
    corpus="$out/corpus-$target"
    mkdir -p "$corpus"
    if [ "$target" = fuzz_svg_reader ] && [ -d ../shared/corpus/apple ]; then
        cp -n ../shared/corpus/apple/apple_00*.svg "$corpus/" 2>/dev/null || true
    fi
    echo "fuzzing $target for ${seconds}s"
    "$out/$target" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 -artifact_prefix="$out/" 2>&1 | tail -n 3
done
echo "fuzz targets ran without a crash"
