// Light added over a part of a code (a highlight's tail) takes ink off the arcs there,
// both colours alike, by an amount that falls off around the highlight. On a light
// background the bands between the rings clip and cannot show it; the arcs' own deficits
// can: what their colour class and the code's light predict, less what was measured.
#pragma once

namespace appclip::vision {

// The bump (a Gaussian around one of the positions, of one of a few widths relative to
// `radius_px`, the code's size in the image) that explains most of `deficit` over the
// positions with `use[i]`, by least squares. Writes its value at every position into
// `added` and returns true when it explains at least a set share of the deficits and takes
// off enough ink to matter; else leaves `added` at zero and returns false.
bool fit_added_light(const float* x, const float* y, const bool* use, const double* deficit, int n, double radius_px,
                     float* added);

}  // namespace appclip::vision
