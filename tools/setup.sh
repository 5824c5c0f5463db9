#!/usr/bin/env bash
# Installs what AppClipCodeKit needs on Debian/Ubuntu: OpenCV (core, imgproc,
# calib3d via libopencv-dev's pkg-config file), libjpeg-turbo, libpng, pkg-config,
# and rsvg-convert (the independent SVG renderer the tests compare against).
set -euo pipefail
packages=(pkg-config libopencv-dev libjpeg62-turbo-dev libpng-dev librsvg2-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all packages present"
    exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
echo "setup: done"
