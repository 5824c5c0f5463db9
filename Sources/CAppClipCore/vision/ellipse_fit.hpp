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

// The ellipse a x² + b xy + c y² + d x + e y + f = 0 (signs such that a + c > 0): centre,
// semi-axes, and the minor axis's angle (radians, (-π/2, π/2]). False when the conic is no
// real ellipse.
struct ConicEllipse {
    double x0, y0, semi_minor, semi_major, minor_angle;
};
bool ellipse_of_conic(double a, double b, double c, double d, double e, double f, ConicEllipse& out);

}  // namespace appclip::vision
