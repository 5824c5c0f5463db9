#!/usr/bin/env bash
# Builds and runs the codec's two checks: the stress harness (tools/dev/codec_stress.cpp),
# 500,000 heavily damaged observations of real codes (200,000 random, 50,000 erased, 50,000
# erased and misread, 200,000 highlights with misread rims) each read correctly or refused;
# and the arc word's close-rival rule against a brute-force search (tools/dev/arc_rival_check.cpp).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
for check in codec_stress arc_rival_check; do
    "${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore/include -I Sources/CAppClipCore \
        Sources/CAppClipCore/format/*.cpp Sources/CAppClipCore/format/generated/*.cpp \
        "tools/dev/$check.cpp" -o "${TMPDIR:-/tmp}/acc_$check"
done
run_check "codec stress" "${TMPDIR:-/tmp}/acc_codec_stress"   # fails on any wrong payload
run_check "arc word rivals" "${TMPDIR:-/tmp}/acc_arc_rival_check"   # fails on any disagreement
