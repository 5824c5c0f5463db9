// Light added over a part of a code (a highlight's tail) takes ink off the arcs there,
// both colours alike, by an amount that falls off around the highlight. On a light
// background the bands between the rings clip and cannot show it; the arcs' own shortfall
// can: near the highlight even the foreground arcs fall short of the code's usual ink.
#pragma once

namespace appclip::vision {

// The light over the code from the ring positions' peak ink (`peak`, over the positions with
// `use[i]`, whose middles lie at `x`, `y` in the image, the code `radius_px` across its
// half): each position's shortfall from the code's usual highest ink (`top`, written) is
// taken among its neighbours on its ring, where some arc reaches the foreground unless all
// are third-coloured, and a bump is fitted to those shortfalls (a Gaussian around one of the
// positions of largest shortfall, of one of a few widths, then moved and widened while it
// explains more, by least squares). Writes the ink the bump takes off at every position into
// `added`; false when it explains too little of the shortfalls or takes off too little ink.
bool estimate_added_light(const float* x, const float* y, double radius_px, const float* peak, const bool* use,
                          float* added, float& top);

}  // namespace appclip::vision
