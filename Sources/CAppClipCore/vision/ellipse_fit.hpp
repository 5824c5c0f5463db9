// Direct least-squares ellipse fit (the ellipse-specific conic fit, solved through its 3x3
// reduced eigenproblem). Used on every traced ring and outline: OpenCV's version spent a
// tenth of a textured frame's time in heap-allocated matrices and a general eigensolver.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

namespace appclip::vision {

// The ellipse through `points` in OpenCV's convention: `size.width` is the minor axis and
// lies along `angle` (degrees, [0, 180)), `size.height` the major axis. A zero-size box when
// the points fix no ellipse (fewer than 5, collinear, or a hyperbola fits them better).
cv::RotatedRect fit_ellipse(const std::vector<cv::Point2f>& points);

}  // namespace appclip::vision
