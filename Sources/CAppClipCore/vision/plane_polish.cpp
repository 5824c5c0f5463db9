#include "plane_polish.hpp"

#include <algorithm>
#include <cmath>

#include "code_geometry.hpp"
#include "concentric_fit.hpp"
#include "homography.hpp"

namespace appclip::vision {
namespace {

constexpr int kScaleSteps = 8;            // either way, of kScaleStep
constexpr double kScaleStep = 0.02;       // of the axis
constexpr int kMinorShiftSteps = 2;       // either way, of kMinorShiftPx, across the minor axis
constexpr double kMinorShiftPx = 0.5;
constexpr int kMajorShiftSteps = 6;       // either way, of kMajorShiftPx, along the major axis
constexpr double kMajorShiftPx = 1.0;
constexpr double kClimbPx = 0.5;          // what the first climbing step moves the rim by, at most
constexpr double kPerspectiveStep = 0.01; // of correction()'s perspective terms, at the first step
constexpr int kClimbSweeps = 4;           // per step size

// A change of the plane: in the image about the code's centre, a shift, scales along the
// rim ellipse's axes and a turn; then the code plane's two perspective terms.
struct PlaneChange {
    double dx = 0, dy = 0, major = 1, minor = 1, turn = 0, tilt_x = 0, tilt_y = 0;
};

cv::Matx33d changed(const cv::Matx33d& h, const cv::Point2d& centre, double axis_angle, const PlaneChange& c) {
    const double ca = std::cos(axis_angle), sa = std::sin(axis_angle);
    const cv::Matx33d to_axes(ca, sa, 0, -sa, ca, 0, 0, 0, 1);
    const cv::Matx33d scale(c.major, 0, 0, 0, c.minor, 0, 0, 0, 1);
    const cv::Matx33d image = translation(centre.x + c.dx, centre.y + c.dy) * rotation(c.turn) * to_axes.t() * scale *
                              to_axes * translation(-centre.x, -centre.y);
    const double p[7] = {0, 0, 0, 0, 0, c.tilt_x, c.tilt_y};
    return image * h * correction(p);
}

// The rim's image: an ellipse, whose axes the polish scales along.
struct RimAxes {
    double semi_major = 0, semi_minor = 0, angle = 0;   // angle of the major axis, radians
};

bool rim_axes(const cv::Matx33d& h, RimAxes& out) {
    // The rim circle x² + y² = r² maps to the conic C = H^-T diag(1, 1, -r²) H^-1.
    const double r = CodeGeometry::get().disc_radius;
    const cv::Matx33d inv = h.inv();
    cv::Matx33d c = inv.t() * cv::Matx33d(1, 0, 0, 0, 1, 0, 0, 0, -r * r) * inv;
    if (c(0, 0) + c(1, 1) < 0) c = -c;
    const double a = c(0, 0), b = c(0, 1), cc = c(1, 1), d = c(0, 2), e = c(1, 2), f = c(2, 2);
    const double det = a * cc - b * b;
    if (!(det > 0)) return false;   // not an ellipse (the rim reaches the horizon)
    // Centre x0 = -M^-1 (d, e); the conic's value there.
    const double x0 = (-cc * d + b * e) / det, y0 = (b * d - a * e) / det;
    const double at_centre = f + d * x0 + e * y0;
    if (!(at_centre < 0)) return false;
    const double theta = 0.5 * std::atan2(2 * b, a - cc);
    const double ct = std::cos(theta), st = std::sin(theta);
    const double lambda_1 = a * ct * ct + 2 * b * ct * st + cc * st * st, lambda_2 = a + cc - lambda_1;
    if (!(lambda_1 > 0 && lambda_2 > 0)) return false;
    const double axis_1 = std::sqrt(-at_centre / lambda_1), axis_2 = std::sqrt(-at_centre / lambda_2);
    out.semi_major = std::max(axis_1, axis_2);
    out.semi_minor = std::min(axis_1, axis_2);
    out.angle = axis_1 >= axis_2 ? theta : theta + 0.5 * kPi;
    return out.semi_minor > 1.0;
}

}  // namespace

double minor_ring_pitch(const cv::Matx33d& h) {
    const cv::Point2d p = apply(h, 0, 0), px = apply(h, 1, 0), py = apply(h, 0, 1);
    const double a = px.x - p.x, b = py.x - p.x, c = px.y - p.y, d = py.y - p.y;
    // The smaller singular value of the local map [a b; c d].
    const double t = a * a + b * b + c * c + d * d, det = a * d - b * c;
    const double small_sq = 0.5 * (t - std::sqrt(std::max(0.0, t * t - 4 * det * det)));
    return std::sqrt(std::max(0.0, small_sq)) * CodeGeometry::get().ring_spacing;
}

double polish_on_rings(const Frame& frame, cv::Matx33d& h, PolishAxes axes_searched) {
    RimAxes axes;
    if (!rim_axes(h, axes)) return ring_contrast(frame, h);
    const double semi_major = axes.semi_major, semi_minor = axes.semi_minor, axis_angle = axes.angle;
    const cv::Point2d centre = apply(h, 0, 0);
    const double sign = ring_contrast(frame, h) >= 0 ? 1.0 : -1.0;
    auto score = [&](const PlaneChange& c) { return sign * ring_contrast(frame, changed(h, centre, axis_angle, c)); };

    // Axis lengths over grids, each with the centre's offset along its axis: for `both` the
    // major axis first, then the minor (see the header).
    PlaneChange best;
    double best_score = score(best);
    // Unit vectors along the major axis and across it.
    const double ux = std::cos(axis_angle), uy = std::sin(axis_angle);
    auto grid = [&](bool minor) {
        const PlaneChange from = best;
        const int shift_steps = minor ? kMinorShiftSteps : kMajorShiftSteps;
        const double shift_px = minor ? kMinorShiftPx : kMajorShiftPx;
        const double shift_x = minor ? -uy : ux, shift_y = minor ? ux : uy;
        for (int i = -kScaleSteps; i <= kScaleSteps; ++i)
            for (int j = -shift_steps; j <= shift_steps; ++j) {
                PlaneChange c = from;
                (minor ? c.minor : c.major) = 1 + kScaleStep * i;
                c.dx = from.dx + shift_x * shift_px * j;
                c.dy = from.dy + shift_y * shift_px * j;
                const double s = score(c);
                if (s > best_score) best_score = s, best = c;
            }
    };
    if (axes_searched == PolishAxes::both) grid(false);
    grid(true);
    for (double step = 1.0; step >= 0.25; step *= 0.5) {
        bool moved = true;
        for (int sweep = 0; sweep < kClimbSweeps && moved; ++sweep) {
            moved = false;
            for (int k = 0; k < 7; ++k)
                for (const double d : {-step, step}) {
                    PlaneChange c = best;
                    switch (k) {
                        case 0: c.dx += d * kClimbPx; break;
                        case 1: c.dy += d * kClimbPx; break;
                        case 2: c.major *= 1 + d * kClimbPx / semi_major; break;
                        case 3: c.minor *= 1 + d * kClimbPx / semi_minor; break;
                        case 4: c.turn += d * kClimbPx / semi_major; break;
                        case 5: c.tilt_x += d * kPerspectiveStep; break;
                        default: c.tilt_y += d * kPerspectiveStep; break;
                    }
                    const double s = score(c);
                    if (s > best_score) best_score = s, best = c, moved = true;
                }
        }
    }
    const cv::Matx33d result = changed(h, centre, axis_angle, best);
    if (std::abs(result(2, 2)) > 1e-12) h = result * (1.0 / result(2, 2));
    return sign * best_score;
}

}  // namespace appclip::vision
