#!/usr/bin/env bash
# Builds and runs the codec stress harness (tools/dev/codec_stress.cpp): 500,000 heavily
# damaged observations of real codes (200,000 random, 50,000 erased, 50,000 erased and
# misread, 200,000 highlights with misread rims) must each be read correctly or refused.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
out="${TMPDIR:-/tmp}/acc_codec_stress"
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore/include -I Sources/CAppClipCore \
    Sources/CAppClipCore/format/*.cpp Sources/CAppClipCore/format/generated/*.cpp \
    tools/dev/codec_stress.cpp -o "$out"
run_check "codec stress" "$out"   # fails on any wrong payload
