#!/usr/bin/env bash
# Heap allocations per warm detect, counted by valgrind: the detector is meant to allocate
# nothing once its buffers have grown to a frame's needs.
#
#   tools/dev/build.sh release
#   tools/dev/heap_allocations.sh [--driver PATH] [DRIVER_FLAGS...] -- FRAME...
#
# For each frame, runs the driver under valgrind with --repeat 11 and --repeat 31 (one
# detector, the same frame again and again) and prints the difference of the two "total heap
# usage" counts over 20: the allocations of one warm detect. (Warm takes a few frames: a
# tracked code that does not read fuses more frames' evidence, and reads its drawing, over its
# first ten or so.) The driver's own bookkeeping (a vector of the repeats' times, grown once
# between the two) adds 0.05. DRIVER_FLAGS go to the driver
# (--nv12, --gray; --track counts tracked frames instead).
set -euo pipefail
driver=/tmp/acc_dev_build/release/detect_main
if [[ "${1:-}" == "--driver" ]]; then driver="$2"; shift 2; fi
flags=()
while [[ $# -gt 0 && "$1" != "--" ]]; do flags+=("$1"); shift; done
[[ "${1:-}" == "--" ]] || { echo "usage: $0 [--driver PATH] [DRIVER_FLAGS...] -- FRAME..." >&2; exit 2; }
shift
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
repeat_flag=--repeat
for f in "${flags[@]}"; do [[ "$f" == "--track" ]] && repeat_flag=--track-repeat; done
count() {   # total heap allocations of one driver run
  valgrind "$driver" "${flags[@]}" "$@" 2>&1 >/dev/null | grep -oP 'total heap usage: \K[0-9,]+' | tr -d ,
}
for frame in "$@"; do
  eleven=$(count "$repeat_flag" 11 "$frame")
  thirty_one=$(count "$repeat_flag" 31 "$frame")
  awk -v f="$frame" -v a="$eleven" -v b="$thirty_one" 'BEGIN { printf "%s: %.2f heap allocations per warm detect\n", f, (b - a) / 20 }'
done
