// Light over a part of a code (a highlight's falloff, where nothing clips yet) lifts both arc
// colours there alike, so one foreground/third threshold for the whole code reads the lifted
// third colour as foreground, confidently, and the arc word, read only as sampled, fails.
// Near any position the arcs still fall into two classes with the light's shift between them:
// a threshold learned from the neighbourhood follows the light where a code-wide one cannot.
#pragma once
#include "appclip_core.h"

namespace appclip::vision {

// For every ring position with `known[i]`: a two-means split of the `ink` of the known positions
// around it (middles at `x`, `y` in the image, weighed as by a Gaussian of `width` code radii,
// the code `radius_px` across its half), started from the code's classes `lo` and `hi`. Where
// both local classes carry weight and lie at least kMinShare of the code's class distance apart,
// `threshold[i]` is their midpoint and `share[i]` their distance over the code's (the
// confidence scales with it); elsewhere, one colour around, the code's midpoint and 1.
void local_colour_thresholds(const float* x, const float* y, const bool* known, const float* ink, double radius_px,
                             double width, double lo, double hi, float threshold[ACC_RING_POSITIONS],
                             float share[ACC_RING_POSITIONS]);

}  // namespace appclip::vision
