// Small helpers for 3x3 homographies (code plane → image).
#pragma once
#include <opencv2/core.hpp>

namespace appclip::vision {

inline cv::Point2d apply(const cv::Matx33d& h, double x, double y) {
    const double w = h(2, 0) * x + h(2, 1) * y + h(2, 2);
    const double iw = std::abs(w) > 1e-12 ? 1.0 / w : 0.0;
    return {(h(0, 0) * x + h(0, 1) * y + h(0, 2)) * iw, (h(1, 0) * x + h(1, 1) * y + h(1, 2)) * iw};
}

// Centred code coordinates (origin at the code centre) ↔ SVG user space (0..800).
inline cv::Matx33d svg_from_centred() { return {1, 0, 400, 0, 1, 400, 0, 0, 1}; }
inline cv::Matx33d centred_from_svg() { return {1, 0, -400, 0, 1, -400, 0, 0, 1}; }

inline cv::Matx33d rotation(double radians) {
    const double c = std::cos(radians), s = std::sin(radians);
    return {c, -s, 0, s, c, 0, 0, 0, 1};
}

inline cv::Matx33d mirror_y() { return {1, 0, 0, 0, -1, 0, 0, 0, 1}; }

// Uniform scaling about the origin, and a shift.
inline cv::Matx33d scaling(double f) { return {f, 0, 0, 0, f, 0, 0, 0, 1}; }
inline cv::Matx33d translation(double dx, double dy) { return {1, 0, dx, 0, 1, dy, 0, 0, 1}; }

// A local correction of a code's plane, applied as H · M(p) in centred code units: a
// homography with no in-plane rotation component (7 parameters; shifts and perspective are
// scaled so all seven are of similar size near the rim).
inline cv::Matx33d correction(const double p[7]) {
    return {1 + p[0], p[1], 400 * p[2], p[1], 1 + p[3], 400 * p[4], p[5] / 400, p[6] / 400, 1};
}

// Pixels per code unit around a code-plane point (square root of the local Jacobian area).
inline double local_scale(const cv::Matx33d& h, double x, double y) {
    const cv::Point2d p = apply(h, x, y), px = apply(h, x + 1, y), py = apply(h, x, y + 1);
    const double a = (px.x - p.x) * (py.y - p.y) - (px.y - p.y) * (py.x - p.x);
    return std::sqrt(std::abs(a));
}

// Pixels per code unit along the code-plane direction (ux, uy) at a point that `h` takes to
// image point `image` with projective depth `w` (h's last row times the point): the Jacobian
// of the projection applied to the direction, for callers that have the image point already.
inline double pixels_per_unit_along(const cv::Matx33d& h, const cv::Point2d& image, double w, double ux, double uy) {
    const double dx = (h(0, 0) - image.x * h(2, 0)) * ux + (h(0, 1) - image.x * h(2, 1)) * uy;
    const double dy = (h(1, 0) - image.y * h(2, 0)) * ux + (h(1, 1) - image.y * h(2, 1)) * uy;
    return std::sqrt(dx * dx + dy * dy) / std::abs(w);
}

}  // namespace appclip::vision
