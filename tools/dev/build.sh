#!/usr/bin/env bash
# Builds the development driver (detect_main) against every CAppClipCore source.
#   tools/dev/build.sh            optimised build (-O2)       → $BUILD_DIR/release/detect_main
#   tools/dev/build.sh debug      -O2 with a stage-by-stage trace on stderr
#   tools/dev/build.sh sanitize   ASan + UBSan build (-O1 -g) → $BUILD_DIR/sanitize/detect_main
#   tools/dev/build.sh profile    the release build with line tables (-O2, DWARF 4: valgrind 3.19 cannot read DWARF 5), for callgrind_annotate and perf
# Objects are cached per mode and rebuilt when their source or any header is newer.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mode="${1:-release}"
build="${BUILD_DIR:-/tmp/acc_dev_build}/$mode"
cxx="${CXX:-clang++}"
case "$mode" in
  release)  flags=(-O2 -DNDEBUG) ; link=() ;;
  debug)    flags=(-O2 -g -DACC_VISION_DEBUG) ; link=() ;;
  profile)  flags=(-O2 -gdwarf-4 -DNDEBUG) ; link=() ;;
  sanitize) flags=(-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined)
            link=(-fsanitize=address,undefined) ;;
  *) echo "usage: $0 [release|debug|profile|sanitize]" >&2; exit 2 ;;
esac
pkgs="opencv4 libjpeg libpng"
cflags=($(pkg-config --cflags $pkgs))
libs=($(pkg-config --libs-only-L $pkgs) -lopencv_calib3d -lopencv_imgproc -lopencv_core -ljpeg -lpng)
mkdir -p "$build"
# Newest header a source can see: its own folder, the public header, the format layer's top level.
newest_header() {
  local dir; dir="$(dirname "$1")"
  { find "$dir" -maxdepth 1 -name '*.hpp'; find "$root/Sources/CAppClipCore/include" -name '*.h';
    [[ "$dir" == */generated ]] || find "$root/Sources/CAppClipCore/format" -maxdepth 1 -name '*.hpp'; } |
    xargs stat -c %Y | sort -n | tail -1
}
objects=()
sources=$(find "$root/Sources/CAppClipCore" -name '*.cpp' | sort; echo "$root/tools/dev/detect_main.cpp")
for src in $sources; do
  obj="$build/$(echo "${src#$root/}" | tr '/' '_').o"
  objects+=("$obj")
  if [[ ! -f "$obj" || "$src" -nt "$obj" || $(stat -c %Y "$obj") -le $(newest_header "$src") ]]; then
    echo "compile ${src#$root/}" >&2
    "$cxx" -std=c++17 -Wall -Wextra "${flags[@]}" -I"$root/Sources/CAppClipCore/include" "${cflags[@]}" \
      -c "$src" -o "$obj"
  fi
done
"$cxx" "${objects[@]}" "${link[@]}" "${libs[@]}" -o "$build/detect_main"
echo "$build/detect_main"
