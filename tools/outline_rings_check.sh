#!/usr/bin/env bash
# Builds and runs tools/dev/outline_rings_check.cpp: the locator's outline ranking against
# codes of known geometry drawn by the generator's rasterizer (rim and logo-disc outlines must
# score as rings; wrong sizes, moved outlines and texture must not).
exec "$(dirname "$0")/vision_check.sh" "outline rings" outline_rings_check outline_rings image_view
