#!/usr/bin/env bash
# Command-line contract checks: Apple's generator flags, templates listing, decode --json
# lines, exit codes. Ground truth: Apple's corpus and documentation in ../shared, and
# rsvg-convert renders. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
cli="${CLI:-.build/debug/appclipcode}"
shared="${APPCLIP_SHARED:-../shared}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() {  # check NAME COMMAND...
    local name="$1"; shift
    if "$@" > "$tmp/out" 2> "$tmp/err"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; sed 's/^/    /' "$tmp/err" | head -5; fi
}

# Apple's flags, SVG output byte-identical with Apple's own file for the same URL.
if [ -d "$shared/corpus/apple" ]; then
    # Every file of Apple's corpus, regenerated from its manifest URL, byte for byte.
    check "generate reproduces all of Apple's corpus byte for byte" python3 -c "
import json, subprocess, sys
folder = '$shared/corpus/apple'
bad = []
for item in json.load(open(folder + '/manifest.json')):
    ours = subprocess.run(['$cli', 'generate', '--url', item['url'], '--index', '0', '--type', 'cam', '--logo', 'badge'],
                          capture_output=True, check=True).stdout
    if ours != open(folder + '/' + item['file'], 'rb').read():
        bad.append(item['file'])
print(len(bad), 'differ', bad, file=sys.stderr)
sys.exit(1 if bad else 0)"
    check "decode --json reads apple_092.svg from geometry" bash -c \
        "'$cli' decode --json '$shared/corpus/apple/apple_092.svg' | python3 -c 'import json,sys; l=json.loads(sys.stdin.readline()); c=l[\"codes\"][0]; assert l[\"error\"] is None and c[\"state\"]==\"decoded\" and c[\"url\"]==\"https://qr.netflix.com/title/80100172\", l'"
    check "templates matches Apple's documented listing" bash -c \
        "diff <('$cli' templates) <(grep '^Index: ' '$shared/seeds/app-clips-documentation.md')"
elif [ "${CI:-}" = "true" ]; then
    fail=$((fail + 1)); echo "FAIL: shared corpus missing under CI"
fi

# Positional URL, -o, custom colors, NFC, no logo, PNG through libpng read back by the decoder.
check "positional URL and -o" "$cli" generate https://appclip.example.com/shop?p=42 -o "$tmp/b.svg"
check "custom colors, nfc, no logo" "$cli" generate --url https://a.co/x --foreground 123456 --background FFFFFF --type nfc --logo none --output "$tmp/c.svg"
check "SVG round trip through decode" bash -c \
    "'$cli' decode '$tmp/b.svg' | grep -qx '$tmp/b.svg: https://appclip.example.com/shop?p=42'"
check "PNG output is a PNG of the requested size" bash -c \
    "'$cli' generate --url https://a.co/png --index 9 --output '$tmp/d.png' --size 333 && python3 -c 'import struct,sys; d=open(\"$tmp/d.png\",\"rb\").read(24); assert d[:8]==b\"\\x89PNG\\r\\n\\x1a\\n\" and struct.unpack(\">II\", d[16:24])==(333,333)'"
check "rsvg-convert render of our SVG decodes" bash -c \
    "rsvg-convert -w 400 '$tmp/b.svg' -o '$tmp/b.png' && '$cli' decode --json '$tmp/b.png' | grep -q '\"url\":\"https://appclip.example.com/shop?p=42\"'"
check "track reads an rsvg render as RGB, gray and NV12 frames" bash -c \
    "rsvg-convert -w 400 '$tmp/c.svg' -o '$tmp/c.png' && for f in '' --gray --nv12; do '$cli' track --json \$f '$tmp/c.png' '$tmp/c.png' | tail -1 | python3 -c 'import json,sys; a=json.loads(sys.stdin.read())[\"anchors\"]; assert len(a)==1 and a[0][\"url\"]==\"https://a.co/x\", a' || exit 1; done"
check "track refuses --gray with --nv12" bash -c "! '$cli' track --gray --nv12 '$tmp/c.png' 2>/dev/null"
check "bench reads an rsvg render as RGB, gray and NV12 frames" bash -c \
    "for f in '' --gray --nv12; do '$cli' bench --json \$f '$tmp/c.png' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"frames\"]==1 and d[\"decoded_codes\"]==1 and d[\"unreadable_files\"]==0, d' || exit 1; done"
check "bench refuses --gray with --nv12" bash -c "! '$cli' bench --gray --nv12 '$tmp/c.png' 2>/dev/null"

# Errors: invalid URL → exit 2 with a message; bad flags → usage error; unreadable file → error line + exit 1.
check "invalid URL exits 2" bash -c "'$cli' generate --url http://example.com -o '$tmp/x.svg'; test \$? -eq 2"
check "too-long URL says how many bits" bash -c "'$cli' generate --url https://example.com/$(printf 'Zq7x%.0s' {1..20}) -o '$tmp/x.svg' 2>&1 | grep -q 'bits'"
check "--index and --foreground together are refused" bash -c "! '$cli' generate --url https://a.co --index 1 --foreground 000000 --background FFFFFF"
check "missing file gives an error line and exit 1" bash -c \
    "'$cli' decode --json '$tmp/nope.jpg' > '$tmp/o.json'; s=\$?; test \$s -eq 1 && python3 -c 'import json; l=json.load(open(\"$tmp/o.json\")); assert l[\"error\"] and l[\"codes\"]==[]'"
check "--files-from streams one line per file" bash -c \
    "printf '%s\n%s\n' '$tmp/b.svg' '$tmp/c.svg' | '$cli' decode --json --files-from - | python3 -c 'import json,sys; lines=[json.loads(l) for l in sys.stdin]; assert len(lines)==2 and all(l[\"codes\"][0][\"state\"]==\"decoded\" for l in lines)'"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
