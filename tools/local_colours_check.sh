#!/usr/bin/env bash
# Builds and runs tools/dev/local_colours_check.cpp: the local colour thresholds against the
# known classes of ring positions under light added around a point of the code.
exec "$(dirname "$0")/vision_check.sh" "local colours" local_colours_check local_colours
