#!/usr/bin/env bash
# Builds and runs tools/dev/huffman_check.cpp: the URL coders' Huffman codes (two queues)
# against the merging rule applied plainly, on every context of Apple's tries and on random
# tie-heavy symbol sets.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_huffman_check"
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore/include -I Sources/CAppClipCore \
    Sources/CAppClipCore/format/huffman.cpp Sources/CAppClipCore/format/generated/*.cpp \
    tools/dev/huffman_check.cpp -o "$out"
run_check "huffman codes" "$out"
