#!/usr/bin/env bash
# Runs the whole C++ core under ASan and UBSan over the committed test images and
# over broken files (empty, truncated, garbage, giant dimensions): any report fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export BUILD_DIR="${BUILD_DIR:-${TMPDIR:-/tmp}/acc_sanitize_build}"
driver="$(tools/dev/build.sh sanitize 2>/dev/null | tail -n 1)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/empty.jpg"
head -c 20000 TestImages/sample_photo.jpg > "$tmp/truncated.jpg"
head -c 4096 /dev/urandom > "$tmp/garbage.png"
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x02\x00\x00\x00\x00\x00\x00\x00' > "$tmp/giant.png"
# Frames too narrow to hold a code (valid PNGs, gray ramps): the detector must say "no code",
# not fail inside a filter (a 4 x 16,392 image once shrank to 2 columns for the vote filter).
python3 - "$tmp" <<'PY'
import sys
sys.path.insert(0, "tools/fuzz")
from make_image_seeds import png
for w, h in [(1, 1), (2, 2), (4, 16392), (16392, 4), (39, 2000), (40, 40)]:
    rows = [bytes((x * 7 + y * 3) % 256 for x in range(w)) for y in range(h)]
    with open(f"{sys.argv[1]}/narrow_{w}x{h}.png", "wb") as f:
        f.write(png(0, 8, rows, width=w, height=h))
PY
mapfile -t images < <(find TestImages -type f \( -name '*.png' -o -name '*.jpg' \) | sort)
# Sanitizer reports exit with their own codes; 1 only means some file was not an image.
export ASAN_OPTIONS=detect_leaks=1:exitcode=98 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
status=0
"$driver" "${images[@]}" "$tmp"/*.jpg "$tmp"/*.png > "$tmp/out.jsonl" || status=$?
if [ "$status" -gt 1 ]; then
    echo "sanitizers: the driver failed with status $status" >&2
    exit 1
fi
narrow=$(grep -c '"file":"[^"]*/narrow_[0-9x]*\.png","status":"ok",.*"count":0,' "$tmp/out.jsonl" || true)
if [ "$narrow" != 6 ]; then
    echo "sanitizers: $narrow of 6 frames too narrow for a code came back as 'ok, no code':" >&2
    grep '/narrow_' "$tmp/out.jsonl" | cut -c1-200 >&2
    exit 1
fi
echo "sanitizers: $(wc -l < "$tmp/out.jsonl") files read under ASan+UBSan, no report; 6 frames too narrow for a code: ok, none found"
