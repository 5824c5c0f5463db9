#!/usr/bin/env bash
# Instructions per frame of the development driver, counted by callgrind: a latency A/B that
# other jobs on the machine cannot blur (wall-clock medians on this shared 2-core VM move by
# up to 25 % between runs; instruction counts of the same binary on the same frames do not move).
#
#   tools/dev/build.sh release
#   tools/dev/instructions.sh [--driver PATH] [--count N] SET_DIR     # default driver and N = 6
#
# Takes the first N 1280x720 frames of SET_DIR/camera and SET_DIR/negatives, runs each group
# twice under callgrind (counting only inside Detector::detect, less the format tables'
# one-time build in the first detect), and prints instructions per detect and the ten
# costliest functions (self cost; the tables' build shows among them).
set -euo pipefail
driver=/tmp/acc_dev_build/release/detect_main
count=6
while [[ $# -gt 1 ]]; do
  case "$1" in
    --driver) driver="$2"; shift 2 ;;
    --count) count="$2"; shift 2 ;;
    *) break ;;
  esac
done
set_dir="${1:?usage: $0 [--driver PATH] [--count N] SET_DIR}"
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for group in camera negatives; do
  files=()
  for json in "$set_dir/$group"/*.json; do
    [[ ${#files[@]} -ge $count ]] && break
    grep -q '"width": 1280' "$json" || continue
    for ext in jpg png; do [[ -f "${json%.json}.$ext" ]] && files+=("${json%.json}.$ext"); done
  done
  [[ ${#files[@]} -gt 0 ]] || { echo "$group: no 1280x720 frames in $set_dir/$group" >&2; continue; }
  valgrind --tool=callgrind --callgrind-out-file="$out/$group" --toggle-collect='*Detector::detect*' \
    "$driver" --repeat 2 "${files[@]}" >/dev/null 2>"$out/$group.log"
  total=$(grep -oP 'Collected : \K[0-9]+' "$out/$group.log")
  tables=$(callgrind_annotate --inclusive=yes "$out/$group" 2>/dev/null | grep -m1 'FormatTables::FormatTables' |
           grep -oP '^ *\K[0-9,]+' | tr -d , || true)
  total=$((total - ${tables:-0}))
  echo "$group: ${#files[@]} frames, $((total / (2 * ${#files[@]}))) instructions per detect"
  callgrind_annotate "$out/$group" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | sed -n '2,11p' | cut -c1-140
done
