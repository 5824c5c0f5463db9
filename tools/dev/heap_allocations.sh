#!/usr/bin/env bash
# Heap allocations per warm detect, counted by valgrind: the detector is meant to allocate
# nothing once its buffers have grown to a frame's needs.
#
#   tools/dev/build.sh release
#   tools/dev/heap_allocations.sh [--driver PATH] [DRIVER_FLAGS...] -- FRAME...
#
# For each frame, runs the driver under valgrind with --repeat 1 and --repeat 11 (one
# detector, the same frame again and again) and prints the difference of the two "total heap
# usage" counts over 10: the allocations of one warm detect. The driver's own bookkeeping
# (a vector of the repeats' times) adds 0.4, which the integer division drops. DRIVER_FLAGS
# go to the driver (--nv12, --gray; --track --track-repeat N counts tracked frames instead,
# with --repeat 1).
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
  once=$(count "$repeat_flag" 1 "$frame")
  eleven=$(count "$repeat_flag" 11 "$frame")
  echo "$frame: $(( (eleven - once) / 10 )) heap allocations per warm detect"
done
