#!/usr/bin/env bash
# The project's test command (README): unit, conformance and blackbox tests, then
# the fuzz targets briefly. FUZZ_SECONDS=0 skips fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
swift test --skip-build
tools/cli_test.sh
python3 -m unittest discover -s tools/tests -p 'test_score.py'
tools/sanitize_check.sh
tools/codec_stress_check.sh
tools/huffman_check.sh
tools/ellipse_fit_check.sh
tools/window_extremes_check.sh
tools/outline_clip_check.sh
tools/circular_quantile_check.sh
tools/blur_check.sh
tools/contour_check.sh
tools/edge_map_check.sh
tools/pyramid_check.sh
tools/outline_rings_check.sh
tools/steep_rim_check.sh
tools/parted_rings_check.sh
tools/rim_edge_check.sh
tools/symmetric_centre_check.sh
tools/peak_merge_check.sh
tools/plane_polish_check.sh
tools/steep_read_check.sh
tools/local_colours_check.sh
seconds="${FUZZ_SECONDS:-20}"
if [ "$seconds" != "0" ]; then
    tools/fuzz/run.sh "$seconds"
fi
