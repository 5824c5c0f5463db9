#include "plane_polish.hpp"

#include <algorithm>
#include <cmath>

#include "code_geometry.hpp"
#include "concentric_fit.hpp"
#include "coordinate_ascent.hpp"
#include "ellipse_fit.hpp"
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
constexpr double kSmallestClimbStep = 0.25;

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

// One axis's grid: the length it scales, and the centre's offsets along (dx, dy).
struct AxisGrid {
    double PlaneChange::*length;
    int shift_steps;
    double shift_px, dx, dy;
};

}  // namespace

double minor_ring_pitch(const cv::Matx33d& h) {
    const cv::Point2d p = apply(h, 0, 0), px = apply(h, 1, 0), py = apply(h, 0, 1);
    const double a = px.x - p.x, b = py.x - p.x, c = px.y - p.y, d = py.y - p.y;
    // The smaller singular value of the local map [a b; c d].
    const double t = a * a + b * b + c * c + d * d, det = a * d - b * c;
    const double small_sq = 0.5 * (t - std::sqrt(std::max(0.0, t * t - 4 * det * det)));
    return std::sqrt(std::max(0.0, small_sq)) * CodeGeometry::get().ring_spacing;
}

bool RingPolish::start(const Frame& frame, const cv::Matx33d& h) {
    // The rim circle x² + y² = r² maps to the conic C = H^-T diag(1, 1, -r²) H^-1.
    const double r = CodeGeometry::get().disc_radius;
    const cv::Matx33d inv = h.inv();
    cv::Matx33d c = inv.t() * cv::Matx33d(1, 0, 0, 0, 1, 0, 0, 0, -r * r) * inv;
    if (c(0, 0) + c(1, 1) < 0) c = -c;
    ConicEllipse rim;
    if (!ellipse_of_conic(c(0, 0), 2 * c(0, 1), c(1, 1), 2 * c(0, 2), 2 * c(1, 2), c(2, 2), rim) || !(rim.semi_minor > 1.0))
        return false;
    h_ = h;
    centre_ = apply(h, 0, 0);
    semi_major_ = rim.semi_major, semi_minor_ = rim.semi_minor;
    axis_angle_ = rim.minor_angle + 0.5 * kPi;
    start_contrast_ = ring_contrast_in_disc(frame, h);
    return true;
}

double RingPolish::polish(const Frame& frame, PolishAxes axes, cv::Matx33d& out) const {
    const double sign = start_contrast_ >= 0 ? 1.0 : -1.0;
    auto score = [&](const PlaneChange& c) { return sign * ring_contrast_in_disc(frame, changed(h_, centre_, axis_angle_, c)); };
    PlaneChange best;
    double best_score = sign * start_contrast_;
    // Each grid from the best so far: the axis's length, and the centre's offset along it.
    const double ux = std::cos(axis_angle_), uy = std::sin(axis_angle_);
    auto search = [&](const AxisGrid& grid) {
        const PlaneChange from = best;
        for (int i = -kScaleSteps; i <= kScaleSteps; ++i)
            for (int j = -grid.shift_steps; j <= grid.shift_steps; ++j) {
                PlaneChange c = from;
                c.*grid.length = 1 + kScaleStep * i;
                c.dx = from.dx + grid.dx * grid.shift_px * j;
                c.dy = from.dy + grid.dy * grid.shift_px * j;
                const double s = score(c);
                if (s > best_score) best_score = s, best = c;
            }
    };
    if (axes == PolishAxes::both) search({&PlaneChange::major, kMajorShiftSteps, kMajorShiftPx, ux, uy});
    search({&PlaneChange::minor, kMinorShiftSteps, kMinorShiftPx, -uy, ux});
    auto nudge = [&](PlaneChange c, int parameter, double d) {
        switch (parameter) {
            case 0: c.dx += d * kClimbPx; break;
            case 1: c.dy += d * kClimbPx; break;
            case 2: c.major *= 1 + d * kClimbPx / semi_major_; break;
            case 3: c.minor *= 1 + d * kClimbPx / semi_minor_; break;
            case 4: c.turn += d * kClimbPx / semi_major_; break;
            case 5: c.tilt_x += d * kPerspectiveStep; break;
            default: c.tilt_y += d * kPerspectiveStep; break;
        }
        return c;
    };
    best = coordinate_ascent(best, best_score, 7, kClimbSweeps, kSmallestClimbStep, nudge, score);
    out = changed(h_, centre_, axis_angle_, best);
    if (std::abs(out(2, 2)) > 1e-12) out = out * (1.0 / out(2, 2));
    return sign * best_score;
}

}  // namespace appclip::vision
