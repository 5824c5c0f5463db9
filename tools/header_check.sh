#!/usr/bin/env bash
# Builds and runs one of the checks in tools/dev of header-only code in the vision layer (no
# sources or libraries to link) and prints its summary.
#   tools/header_check.sh LABEL PROGRAM   e.g. "outline clip" outline_clip_check
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/run_check.sh
source tools/lib/run_check.sh
label="$1" program="$2"
out="${TMPDIR:-/tmp}/acc_$program"
"${CXX:-clang++}" -std=c++17 -O2 -I Sources/CAppClipCore "tools/dev/$program.cpp" -o "$out"
run_check "$label" "$out"
