#!/usr/bin/env bash
# Installs what tools/synth and tools/score.py need, non-interactively, on Debian 12.
#
#   bash tools/setup_synth.sh            # everything (needs root for apt-get)
#   SKIP_APT=1 bash tools/setup_synth.sh # only the Python side and the sample photos
#
# What it installs:
#   - librsvg2-bin (rsvg-convert: the independent SVG renderer the synthesiser uses)
#   - mate-backgrounds, plasma-workspace-wallpapers: real photographs (GPL-2+ / LGPL-3)
#     used as backgrounds for generated (not committed) frame sets
#   - the pinned pip packages of tools/requirements.txt (numpy, opencv-python-headless)
#   - scikit-image's bundled sample photographs (CC0 / public domain), taken out of the
#     pinned scikit-image wheel (downloaded with pip, not installed) into
#     out/backgrounds/skimage/ — the only photos used for the committed TestImages/
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
PYTHON="${PYTHON:-python3}"
SKIMAGE_VERSION="0.26.0"
DEST="${ACC_BACKGROUNDS:-$ROOT/out/backgrounds}/skimage"

if [ -z "${SKIP_APT:-}" ]; then
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    if ! $SUDO apt-get install -y --no-install-recommends librsvg2-bin mate-backgrounds plasma-workspace-wallpapers; then
        $SUDO apt-get update
        $SUDO apt-get install -y --no-install-recommends librsvg2-bin mate-backgrounds plasma-workspace-wallpapers
    fi
fi

"$PYTHON" -m pip install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"

# The sample photos: only the image files of the wheel are kept.
if [ ! -f "$DEST/coffee.png" ]; then
    TMP="$(mktemp -d)"
    trap 'rm -rf "$TMP"' EXIT
    "$PYTHON" -m pip download --quiet --disable-pip-version-check --no-deps \
        --dest "$TMP" "scikit-image==$SKIMAGE_VERSION"
    mkdir -p "$DEST"
    "$PYTHON" - "$TMP" "$DEST" <<'PY'
import glob, os, sys, zipfile
src, dest = sys.argv[1], sys.argv[2]
wheel = glob.glob(os.path.join(src, "scikit_image-*.whl"))[0]
wanted = {"astronaut.png", "brick.png", "camera.png", "chelsea.png", "clock_motion.png",
          "coffee.png", "coins.png", "grass.png", "gravel.png", "hubble_deep_field.jpg",
          "rocket.jpg", "text.png", "retina.jpg"}
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        base = name.rsplit("/", 1)[-1]
        if name.startswith("skimage/data/") and base in wanted:
            with open(os.path.join(dest, base), "wb") as f:
                f.write(z.read(name))
print("sample photos:", len(os.listdir(dest)), "files in", dest)
PY
fi

command -v rsvg-convert >/dev/null || { echo "rsvg-convert is missing (apt-get install librsvg2-bin)" >&2; exit 1; }
"$PYTHON" -c "import cv2, numpy; print('cv2', cv2.__version__, 'numpy', numpy.__version__)"
