#include "rim_edge.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "code_geometry.hpp"
#include "ellipse_fit.hpp"
#include "rough_ellipse.hpp"

namespace appclip::vision {
namespace {

constexpr int kMaxSteps = 64;           // samples per ray at most (coarser steps on large codes)
constexpr float kEdgeFloor = 6.f;       // luma over two steps: weaker changes are noise
constexpr float kEdgeShare = 0.1f;      // of the ray's strongest edge
constexpr double kMinUsable = 0.6;      // of the rays: the rest left the frame
constexpr double kMinSupport = 0.5;     // of the usable rays: edges on the ellipse
constexpr int kDraws = 40;              // five-edge ellipses tried per fit
constexpr double kInlierPx = 1.0;       // an edge this near an ellipse lies on it (pixels,
constexpr double kInlierShare = 0.015;  // or this share of its distance from the centre)

// Distance along the ray origin + s·u (s > 0) to the ellipse, or -1 when it misses.
double ray_to_ellipse(const cv::RotatedRect& e, const cv::Point2d& origin, const cv::Point2d& u) {
    const double a = 0.5 * e.size.width, b = 0.5 * e.size.height;
    if (!(a > 0 && b > 0)) return -1;
    const double t = e.angle * kDeg, c = std::cos(t), s = std::sin(t);
    const double wx = c * (origin.x - e.center.x) + s * (origin.y - e.center.y);
    const double wy = -s * (origin.x - e.center.x) + c * (origin.y - e.center.y);
    const double vx = c * u.x + s * u.y, vy = -s * u.x + c * u.y;
    const double alpha = vx * vx / (a * a) + vy * vy / (b * b);
    const double beta = wx * vx / (a * a) + wy * vy / (b * b);
    const double gamma = wx * wx / (a * a) + wy * wy / (b * b) - 1;
    const double disc = beta * beta - alpha * gamma;
    if (disc < 0 || alpha <= 0) return -1;
    const double root = (-beta + std::sqrt(disc)) / alpha;
    return root > 0 ? root : -1;
}

// Whether `p` lies on the ellipse `e` (whose EllipseDistance is `distance`).
bool on_ellipse(const EllipseDistance& distance, const cv::RotatedRect& e, const cv::Point2f& p) {
    const double span = std::hypot(p.x - e.center.x, p.y - e.center.y);
    return distance(p) * span <= std::max(kInlierPx, kInlierShare * span);
}

}  // namespace

bool RimEdge::collect(const Frame& frame, const cv::RotatedRect& outline, double lo, double hi) {
    const double a = 0.5 * outline.size.width, b = 0.5 * outline.size.height;
    if (!(a > 1.0 && b > 1.0) || !std::isfinite(a) || !std::isfinite(b) || !std::isfinite(outline.center.x) ||
        !std::isfinite(outline.center.y) || !std::isfinite(outline.angle))
        return false;
    const double phi = outline.angle * kDeg, cp = std::cos(phi), sp = std::sin(phi);
    origin_ = cv::Point2d(outline.center.x, outline.center.y);
    usable_rays_ = 0;
    for (int k = 0; k < kRays; ++k) {
        positive_count_[k] = negative_count_[k] = 0;
        spans_[k] = 0;
        // Rays through points evenly spread in the ellipse's parameter: a steep outline's
        // ends are as well sampled as its sides.
        const double t = 2 * kPi * k / kRays;
        const double vx = a * std::cos(t) * cp - b * std::sin(t) * sp, vy = a * std::cos(t) * sp + b * std::sin(t) * cp;
        const double rho = std::hypot(vx, vy);
        const cv::Point2d u(vx / rho, vy / rho);
        directions_[k] = u;
        const double step = std::max(0.5, (hi - lo) * rho / kMaxSteps);
        const int n = static_cast<int>((hi - lo) * rho / step) + 1;
        if (n < 5) continue;
        const double x0 = origin_.x + u.x * lo * rho, y0 = origin_.y + u.y * lo * rho;
        const double dx = u.x * step, dy = u.y * step;
        if (frame.steps_inside(x0, y0, dx, dy) < n) continue;   // the rim leaves the frame here
        profile_.resize(static_cast<size_t>(n));
        derivative_.assign(static_cast<size_t>(n), 0.f);
        frame.luma_inside_steps(x0, y0, dx, dy, n, profile_.data());
        float strongest = 0;
        for (int j = 1; j + 1 < n; ++j) {
            derivative_[j] = profile_[j + 1] - profile_[j - 1];
            strongest = std::max(strongest, std::abs(derivative_[j]));
        }
        spans_[k] = static_cast<float>(rho);
        ++usable_rays_;
        const float floor = std::max(kEdgeFloor, kEdgeShare * strongest);
        for (int j = 2; j + 2 < n; ++j) {
            const float v = derivative_[j], m = std::abs(v);
            if (m < floor || m < std::abs(derivative_[j - 1]) || m <= std::abs(derivative_[j + 1])) continue;
            // Sub-sample peak of |derivative| (parabola through three samples).
            const double l = std::abs(derivative_[j - 1]), r = std::abs(derivative_[j + 1]);
            const double den = l - 2 * m + r;
            const double offset = den < 0 ? std::clamp(0.5 * (l - r) / den, -0.5, 0.5) : 0.0;
            const Edge edge{static_cast<float>(lo * rho + (j + offset) * step), m};
            auto& edges = v > 0 ? positive_[k] : negative_[k];
            int& count = v > 0 ? positive_count_[k] : negative_count_[k];
            if (count < kEdgesPerRay) {
                edges[count++] = edge;
            } else {
                // Full: the weakest gives way.
                auto weakest = std::min_element(edges.begin(), edges.end(),
                                                [](const Edge& x, const Edge& y) { return x.strength < y.strength; });
                if (weakest->strength < m) *weakest = edge;
            }
        }
    }
    return usable_rays_ >= kMinUsable * kRays;
}

cv::RotatedRect RimEdge::consensus_fit() {
    // The edges nearest a fit include other circles' where the rim shows none (a ring's
    // inner edge, an eighth of the radius in), enough to pull a least-squares fit off: the
    // ellipse through five edges spread round the rays that most edges lie on (a fixed
    // sequence of draws), refitted on those edges.
    const int n = static_cast<int>(points_.size());
    if (n < 10) return fit_ellipse(points_);
    uint32_t state = 0x9e3779b9u;
    auto next = [&state] { state = state * 1664525u + 1013904223u; return state >> 8; };
    int best_count = -1;
    cv::RotatedRect best;
    for (int draw = 0; draw < kDraws; ++draw) {
        sample_.clear();
        const int first = static_cast<int>(next() % static_cast<uint32_t>(n));
        for (int j = 0; j < 5; ++j) {
            const int spread = (n * j) / 5 + static_cast<int>(next() % static_cast<uint32_t>(std::max(1, n / 10)));
            sample_.push_back(points_[(first + spread) % n]);
        }
        const cv::RotatedRect e = fit_ellipse(sample_);
        if (!(e.size.width > 1.f && e.size.height > 1.f)) continue;
        const EllipseDistance distance(e);
        int count = 0;
        for (const cv::Point2f& p : points_) count += on_ellipse(distance, e, p) ? 1 : 0;
        if (count > best_count) best_count = count, best = e;
    }
    if (best_count < 5) return fit_ellipse(points_);
    const EllipseDistance distance(best);
    size_t kept = 0;
    for (size_t i = 0; i < points_.size(); ++i)
        if (on_ellipse(distance, best, points_[i])) points_[kept++] = points_[i];
    points_.resize(kept);
    return fit_ellipse(points_);
}

int RimEdge::follow(int sign, const cv::RotatedRect& start, cv::RotatedRect& fitted) {
    const auto& edges = sign > 0 ? positive_ : negative_;
    const auto& counts = sign > 0 ? positive_count_ : negative_count_;
    // Each ray's edge nearest `target(k)` within `tolerance(k)` pixels, as points.
    auto gather = [&](auto target, auto tolerance) {
        points_.clear();
        for (int k = 0; k < kRays; ++k) {
            if (spans_[k] <= 0) continue;
            const double want = target(k);
            if (want <= 0) continue;
            const double band = tolerance(k);
            int chosen = -1;
            for (int i = 0; i < counts[k]; ++i)
                if (std::abs(edges[k][i].position - want) <= band &&
                    (chosen < 0 || edges[k][i].position > edges[k][chosen].position))
                    chosen = i;
            if (chosen < 0) continue;
            const double s = edges[k][chosen].position;
            points_.emplace_back(static_cast<float>(origin_.x + directions_[k].x * s),
                                 static_cast<float>(origin_.y + directions_[k].y * s));
        }
        return static_cast<int>(points_.size());
    };
    const double min_points = kMinSupport * usable_rays_;
    if (gather([&](int k) { return ray_to_ellipse(start, origin_, directions_[k]); },
               [&](int k) { return 0.05 * spans_[k]; }) < min_points)
        return 0;
    cv::RotatedRect e = consensus_fit();
    // Twice: the edges nearest the fit, within a band that narrows.
    int support = 0;
    for (const double share : {0.04, 0.02}) {
        if (!(e.size.width > 1.f && e.size.height > 1.f)) return 0;
        support = gather([&](int k) { return ray_to_ellipse(e, origin_, directions_[k]); },
                         [&](int k) { return std::max(1.0, share * spans_[k]); });
        if (support < min_points) return 0;
        e = consensus_fit();
        support = static_cast<int>(points_.size());
        if (support < min_points) return 0;
    }
    if (!(e.size.width > 1.f && e.size.height > 1.f)) return 0;
    fitted = e;
    return support;
}

bool RimEdge::snap(const Frame& frame, const cv::RotatedRect& outline, cv::RotatedRect& snapped) {
    constexpr double kLo = 0.8, kHi = 1.2;
    if (!collect(frame, outline, kLo, kHi)) return false;
    const double major = std::max(outline.size.width, outline.size.height);
    // Starts: the outline itself, and the ellipse through each ray's outermost edge of the
    // sign most rays end on (the rim, where the ground beyond it is plain).
    std::array<float, kRays> far_positive{}, far_negative{};
    int outermost_positive = 0, outermost_negative = 0;
    for (int k = 0; k < kRays; ++k) {
        float& p = far_positive[k] = -1;
        float& n = far_negative[k] = -1;
        for (int i = 0; i < positive_count_[k]; ++i) p = std::max(p, positive_[k][i].position);
        for (int i = 0; i < negative_count_[k]; ++i) n = std::max(n, negative_[k][i].position);
        if (p >= 0 || n >= 0) (p > n ? outermost_positive : outermost_negative) += 1;
    }
    const std::array<float, kRays>& far = outermost_positive >= outermost_negative ? far_positive : far_negative;
    const int outer_sign = outermost_positive >= outermost_negative ? 1 : -1;
    points_.clear();
    for (int k = 0; k < kRays; ++k)
        if (far[k] > 0)
            points_.emplace_back(static_cast<float>(origin_.x + directions_[k].x * far[k]),
                                 static_cast<float>(origin_.y + directions_[k].y * far[k]));
    const cv::RotatedRect outermost = points_.size() >= 5 ? fit_ellipse(points_) : outline;
    int best_support = 0, best_sign = 0;
    cv::RotatedRect best;
    auto consider = [&](int sign, const cv::RotatedRect& start) {
        cv::RotatedRect e;
        const int support = follow(sign, start, e);
        if (support == 0) return;
        // The rim is near the outline given: a fit that wandered off is clutter's.
        const double e_major = std::max(e.size.width, e.size.height);
        if (std::hypot(e.center.x - outline.center.x, e.center.y - outline.center.y) > 0.25 * major ||
            e_major < 0.75 * major || e_major > 1.3 * major)
            return;
        if (support > best_support || (support == best_support && e_major > std::max(best.size.width, best.size.height)))
            best_support = support, best = e, best_sign = sign;
    };
    if (outermost.size.width > 1.f && outermost.size.height > 1.f) consider(outer_sign, outermost);
    consider(1, outline);
    consider(-1, outline);
    if (best_support == 0) return false;
    snapped = best;
    // Once more from the fit's centre, over a narrow band in finer steps.
    cv::RotatedRect fine;
    if (collect(frame, best, 0.94, 1.06) && follow(best_sign, best, fine) > 0) snapped = fine;
    return true;
}

}  // namespace appclip::vision
