// How much an elliptical outline looks like a code's rim (or its logo's disc): the five
// stroke rings must lie inside (outside) it at the drawing's radii, scaled by the outline's
// own shape. Unlike the vote peaks' ring check, which casts rays from a centre at one scale
// searched per ray, the outline fixes each ray's scale, so a tilted code's rings line up
// with the comb however steep the view; a frame's textured clutter outlines do not.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "code_geometry.hpp"

namespace appclip::vision {

class OutlineRingCheck {
public:
    // Normalised comb correlation (about 0 for texture, up to ~1 for sharp rings) of the
    // rings taken with `outline` (full-resolution pixels of `luma`) as the rim, and as the
    // logo's disc; the larger of the two.
    float score(const cv::Mat& luma, const cv::RotatedRect& outline);

private:
    // The comb correlation for strokes at `edges` (rising, falling, ...; in outline radii).
    float score_as(const cv::Mat& luma, const cv::RotatedRect& outline, const CodeGeometry::StrokeEdges& edges);

    std::vector<float> profile_;
    std::vector<float> derivative_;
    std::vector<float> edge_peaks_;   // outline_clip's scratch
    std::vector<double> ray_sums_;   // per ray, the comb's sum at each stretch
};

}  // namespace appclip::vision
