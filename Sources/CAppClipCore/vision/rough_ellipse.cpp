#include "rough_ellipse.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <opencv2/imgproc.hpp>

#include "branchless_list.hpp"
#include "code_geometry.hpp"
#include "concentric_fit.hpp"
#include "coordinate_ascent.hpp"
#include "debug_log.hpp"
#include "ellipse_fit.hpp"
#include "homography.hpp"
#include "ray_directions.hpp"

namespace appclip::vision {
namespace {

// The first m in [lo, hi] with the largest sign · values[m] if that exceeds `best` (then
// updated to it), else -1. The sign is ±1: sign · values[m] is exact. The largest value
// comes first, as lane-wise maxima (a loop the compiler runs on vectors: a test per value
// mispredicts on noisy rows), then the first place it occurs.
int strongest(const float* values, int lo, int hi, float sign, float& best) {
    constexpr int kLanes = 8;
    constexpr float kNone = -std::numeric_limits<float>::infinity();
    float lanes[kLanes];
    std::fill(lanes, lanes + kLanes, kNone);
    int m = lo;
    for (; m + kLanes <= hi + 1; m += kLanes)
        for (int l = 0; l < kLanes; ++l) lanes[l] = std::max(lanes[l], sign * values[m + l]);
    float top = *std::max_element(lanes, lanes + kLanes);
    for (; m <= hi; ++m) top = std::max(top, sign * values[m]);
    if (!(top > best)) return -1;
    best = top;
    m = lo;
    while (sign * values[m] != top) ++m;
    return m;
}

constexpr int kRays = 72;   // directions table; passes use all or every other one

}  // namespace

EllipseDistance::EllipseDistance(const cv::RotatedRect& e) {
    const double a = 0.5 * e.size.width, b = 0.5 * e.size.height, t = e.angle * kDeg;
    cx_ = e.center.x;
    cy_ = e.center.y;
    c_ = std::cos(t);
    s_ = std::sin(t);
    ia_ = a > 1e-6 ? 1.0 / a : 0.0;
    ib_ = b > 1e-6 ? 1.0 / b : 0.0;
}

double EllipseDistance::operator()(const cv::Point2f& p) const {
    if (ia_ == 0.0 || ib_ == 0.0) return 1e9;
    const double dx = p.x - cx_, dy = p.y - cy_;
    const double u = (c_ * dx + s_ * dy) * ia_, v = (-s_ * dx + c_ * dy) * ib_;
    return std::abs(std::sqrt(u * u + v * v) - 1.0);
}

cv::Matx33d affine_from_ellipse(const cv::RotatedRect& e, double radius) {
    const double t = e.angle * kDeg, c = std::cos(t), s = std::sin(t);
    const double sa = 0.5 * e.size.width / radius, sb = 0.5 * e.size.height / radius;
    return {c * sa, -s * sb, e.center.x, s * sa, c * sb, e.center.y, 0, 0, 1};
}

cv::Matx33d plane_within_outline(const Frame& frame, const cv::RotatedRect& outline, double r, bool always_climb,
                                 double* plane_contrast) {
    // For the rim: centre shifts up to tanh(0.6) = 0.54 rim radii (views of ~75 degrees from
    // nearby), in steps of 0.05. For a smaller circle the steps shrink with it, so the grid of
    // perspective terms (sh / r) is the same as the rim's.
    constexpr int kBoostSteps = 12;
    constexpr int kClimbSweeps = 3;          // per step size
    constexpr double kMinClimbContrast = 3.0;   // some sign of rings, for the climb to start
    constexpr double kAxisStep = 0.02;       // of an axis, at the first step size
    constexpr double kAngleStepDeg = 2.0;
    const double boost_step = 0.05 * r / CodeGeometry::get().disc_radius;
    const bool along_y = outline.size.height < outline.size.width;  // the minor axis, in the affine's frame
    // A hyperbolic rotation by `rapidity`. It keeps x² + y² = r²:
    // (x, y, 1) → (x, y ch + r sh, y sh / r + ch) along y (or x).
    auto boost = [&](double rapidity) {
        const double ch = std::cosh(rapidity), sh = std::sinh(rapidity);
        return along_y ? cv::Matx33d(1, 0, 0, 0, ch, r * sh, 0, sh / r, ch)
                       : cv::Matx33d(ch, 0, r * sh, 0, 1, 0, sh / r, 0, ch);
    };
    const cv::Matx33d affine = affine_from_ellipse(outline, r);
    const double flat_contrast = std::abs(ring_contrast(frame, affine * boost(0)));
    double grid_rapidity = 0, grid_contrast = flat_contrast;
    for (int i = -kBoostSteps; i <= kBoostSteps; ++i) {
        if (i == 0) continue;
        const double contrast = std::abs(ring_contrast(frame, affine * boost(i * boost_step)));
        if (contrast > grid_contrast) grid_contrast = contrast, grid_rapidity = i * boost_step;
    }
    // An outline ellipse, a perspective along its minor axis, and the ring contrast of the two.
    struct OutlinePlane {
        cv::RotatedRect e;
        double rapidity, contrast;
    };
    // A contour's ellipse is a pixel or two and a few degrees off on a small, blurred code,
    // whose rings lie 3 pixels apart along its minor axis: no perspective then shows the
    // rings, and on a faint code the grid's best is a chance maximum far off (std
    // `camera_00351`: a steep boost at ring contrast 4.8, none at 11.6 once the ellipse is
    // right). When the grid shows too little contrast for the fit to start, the ring
    // contrast is climbed over the ellipse and the perspective together (coordinate ascent,
    // steps halved) from no perspective. A plane the fit can start from is left as it is:
    // climbing it can slide the rings onto their neighbours'. `always_climb` (a rim voted from
    // comb peaks, its ratio and angle a grid step off) climbs from the grid's best in any case.
    auto climb = [&](OutlinePlane s) {
        const double pixel = std::max(0.25, 0.01 * std::max(s.e.size.width, s.e.size.height));
        auto nudge = [&](OutlinePlane t, int param, double d) {
            switch (param) {
                case 0: t.e.center.x += static_cast<float>(d * pixel); break;
                case 1: t.e.center.y += static_cast<float>(d * pixel); break;
                case 2: t.e.size.width *= static_cast<float>(1 + kAxisStep * d); break;
                case 3: t.e.size.height *= static_cast<float>(1 + kAxisStep * d); break;
                case 4: t.e.angle += static_cast<float>(kAngleStepDeg * d); break;
                default: t.rapidity += d * boost_step; break;
            }
            return t;
        };
        auto contrast = [&](const OutlinePlane& t) {
            return std::abs(ring_contrast(frame, affine_from_ellipse(t.e, r) * boost(t.rapidity)));
        };
        double reached = s.contrast;
        s = coordinate_ascent(s, reached, 6, kClimbSweeps, 0.5, nudge, contrast);
        s.contrast = reached;
        return s;
    };
    OutlinePlane best{outline, grid_rapidity, grid_contrast};
    if (always_climb) {
        best = climb(best);
    } else if (grid_contrast < kMinRingContrast && grid_contrast >= kMinClimbContrast) {
        const OutlinePlane flat = climb({outline, 0.0, flat_contrast});
        if (flat.contrast >= kMinRingContrast) best = flat;
    }
    if (plane_contrast != nullptr) *plane_contrast = best.contrast;
    const cv::Matx33d h = affine_from_ellipse(best.e, r) * boost(best.rapidity);
    return h * (1.0 / h(2, 2));
}

cv::Matx33d plane_within_rim(const Frame& frame, RimEdge& rim_edge, const cv::RotatedRect& outline,
                             bool always_climb) {
    const double rim = CodeGeometry::get().disc_radius;
    double contrast = 0;
    const cv::Matx33d given = plane_within_outline(frame, outline, rim, always_climb, &contrast);
    cv::RotatedRect snapped;
    if (!rim_edge.snap(frame, outline, snapped)) return given;
    double snapped_contrast = 0;
    const cv::Matx33d on_edge = plane_within_outline(frame, snapped, rim, always_climb, &snapped_contrast);
    ACC_TRACE("  rim snapped: %.1f,%.1f %.1f x %.1f at %.1f, ring contrast %.1f (as given %.1f)\n", snapped.center.x,
              snapped.center.y, snapped.size.width, snapped.size.height, snapped.angle, snapped_contrast, contrast);
    return snapped_contrast > contrast ? on_edge : given;
}

cv::Matx33d plane_within_ring_outline(const Frame& frame, const cv::RotatedRect& outline) {
    const CodeGeometry& g = CodeGeometry::get();
    cv::Matx33d best;
    double best_contrast = -1;
    for (const Ring& ring : g.rings) {
        double contrast = 0;
        const cv::Matx33d h = plane_within_outline(frame, outline, ring.radius, false, &contrast);
        if (contrast > best_contrast) best_contrast = contrast, best = h;
    }
    return best;
}

int RoughEllipse::comb_scan(const Frame& frame, cv::Point2d center, const double* comb, double step, double r_lo,
                            double r_hi, bool score_combs) {
    const int samples = static_cast<int>(r_hi) + 3;
    scan_->samples = samples;
    scan_->derivative.assign(static_cast<size_t>(rays_) * samples, 0.f);
    scan_->valid.assign(rays_, 0);
    // Comb score of every ray at every rim distance R (in samples, 0.5 apart): the signed
    // edges of all strokes must agree, so a comb sliding onto the rim or clutter cancels out.
    const int r_count = std::max(1, static_cast<int>((r_hi - r_lo) / r_grid_) + 1);
    scan_->scores.assign(static_cast<size_t>(rays_) * r_count, 0.f);
    scan_->profiles.assign(static_cast<size_t>(rays_) * samples, 0.f);
    // Every tap stays within `samples` (r_end below keeps the last one inside the valid profile).
    if (score_combs) {
        comb_table_.build(comb, 2 * kRings, r_lo, r_grid_, r_count, samples);
        interleaved_.assign(static_cast<size_t>((rays_ + kLanes - 1) / kLanes) * samples * kLanes, 0.f);
        scored_.assign(rays_, 0);
    }
    const RayDirections<kRays>& dirs = ray_directions<kRays>();
    for (int i = 0; i < rays_; ++i) {
        const int dir = i * (kRays / rays_);
        const double ux = dirs.c[dir] * step, uy = dirs.s[dir] * step;
        int valid = samples;
        float* profile = scan_->profiles.data() + static_cast<size_t>(i) * samples;
        const int inside = std::min(samples, frame.steps_inside(center.x, center.y, ux, uy));
        frame.luma_inside_steps(center.x, center.y, ux, uy, inside, profile);
        for (int j = inside; j < samples; ++j) {
            const float v = frame.luma_at(center.x + ux * j, center.y + uy * j);
            if (v < 0) {
                valid = j;
                break;
            }
            profile[j] = v;
        }
        scan_->valid[i] = valid;
        if (valid < r_lo + 3) continue;
        float* deriv = scan_->derivative.data() + static_cast<size_t>(i) * samples;
        for (int j = 1; j + 1 < valid; ++j) deriv[j] = profile[j + 1] - profile[j - 1];
        if (!score_combs) continue;
        // The comb is scored on the derivative with its outline edges clipped (over the
        // computed part, 1 .. valid - 2); the stroke tracing keeps every edge's own height.
        const float clip = outline_clip(deriv + 1, valid - 2, edge_peaks_);
        const double r_end = std::min(r_hi, (valid - 2) / comb[2 * kRings - 1]);
        int& scored = scored_[i];
        while (scored < r_count && r_lo + r_grid_ * scored <= r_end) ++scored;
        float* lanes = interleaved_.data() + static_cast<size_t>(i / kLanes) * samples * kLanes + i % kLanes;
        // (Three stretches rather than a test per sample.)
        const int clipped_end = std::max(1, valid - 1);
        lanes[0] = deriv[0];
        for (int j = 1; j < clipped_end; ++j) lanes[static_cast<size_t>(j) * kLanes] = std::clamp(deriv[j], -clip, clip);
        for (int j = clipped_end; j < samples; ++j) lanes[static_cast<size_t>(j) * kLanes] = deriv[j];
    }
    scan_->r_count = r_count;
    if (!score_combs) return r_count;
    // The combs of kLanes rays at a time (see CombTable::sums); each ray keeps the scales
    // its profile reaches.
    for (int first = 0; first < rays_; first += kLanes) {
        const float* block = interleaved_.data() + static_cast<size_t>(first / kLanes) * samples * kLanes;
        const int lanes = std::min(kLanes, rays_ - first);
        int reach = 0;
        for (int l = 0; l < lanes; ++l) reach = std::max(reach, scored_[first + l]);
        for (int m = 0; m < reach; ++m) {
            double sums[kLanes];
            comb_table_.sums<kLanes>(block, m, sums);
            for (int l = 0; l < lanes; ++l)
                if (m < scored_[first + l]) scan_->scores[static_cast<size_t>(first + l) * r_count + m] = static_cast<float>(sums[l]);
        }
    }
    return r_count;
}

// Stroke contrast of the rays (polarity-corrected) against the wide background band inside
// ring 1, -1e9 when no ray counts. Two readings, the larger counts: all rays at one
// `scale` (samples), right for a code seen nearly frontally from its centre; and each ray
// at the scale its neighbours chose (`ray_scale`; 0 where none): under tilt a fixed
// distance runs across strokes and gaps from ray to ray and washes the rings out, while a
// code's scale changes smoothly from ray to ray. (A ray's own best scale would favour
// whatever it happened to cross, texture too; its neighbours' does not.)
double RoughEllipse::ray_contrast(double scale, const double* ray_scale, double polarity) const {
    const CodeGeometry& g = CodeGeometry::get();
    const double band = 0.5 * (110.0 + g.rings[0].radius - g.half_stroke) / g.disc_radius;
    double sum[2] = {0, 0};
    int n[2] = {0, 0};
    for (int i = 0; i < rays_; ++i) {
        double near[4];
        int count = 0;
        for (int d : {-2, -1, 1, 2}) {
            const double s = ray_scale[(i + d + rays_) % rays_];
            if (s > 0) near[count++] = s;
        }
        std::sort(near, near + count);
        const double own = count >= 2 ? 0.5 * (near[(count - 1) / 2] + near[count / 2]) : 0.0;
        const float* p = scan_->profiles.data() + static_cast<size_t>(i) * scan_->samples;
        auto at = [p](double t) {
            const int j = static_cast<int>(t);
            return p[j] + (t - j) * (p[j + 1] - p[j]);
        };
        for (int reading = 0; reading < 2; ++reading) {
            const double s = reading == 0 ? scale : own;
            if (s <= 0 || static_cast<int>(s) + 1 >= scan_->valid[i]) continue;   // the rim is beyond the profile
            double strokes = 0;
            for (int k = 0; k < kRings; ++k) strokes += at(s * g.rings[k].radius / g.disc_radius) / kRings;
            sum[reading] += strokes - at(s * band);
            ++n[reading];
        }
    }
    double best = -1e9;
    for (int reading = 0; reading < 2; ++reading)
        if (n[reading] > 0) best = std::max(best, polarity * sum[reading] / n[reading]);
    return best;
}

// The scale all rays agree on best (in samples), 0 when nothing scored. Strokes and the
// background bands between them are equally wide, so a comb fits both: each polarity
// gets its best scale, and the one whose "strokes" differ from the wide background band
// inside ring 1 (in the expected direction) is the real one. With `alternative`, the other.
double RoughEllipse::best_scale(bool alternative) {
    // Both readings come from one choice, made with the first-pass scan (the other-polarity
    // attempt on a candidate reuses the scan, and so the choice).
    const ScaleChoice& c = scale_choice_;
    if (alternative) {
        // Blur can make the gaps between strokes look like the strokes: the other reading.
        const int other = c.side == 0 ? 1 : 0;
        if (c.side < 0 || c.scale_for[other] <= 0) return 0;
        polarity_ = other == 0 ? 1.0 : -1.0;
        return c.scale_for[other];
    }
    if (c.side < 0) return 0;
    polarity_ = c.side == 0 ? 1.0 : -1.0;
    return c.scale_for[c.side];
}

RoughEllipse::ScaleChoice RoughEllipse::choose_scale(int r_count, double r_lo) {
    ScaleChoice choice;
    ray_scale_.assign(2 * static_cast<size_t>(rays_), 0.0);
    // A tilted code shows each ray its own scale (down to half of the largest): take the
    // median of the rays' own best scales for each polarity.
    for (int side = 0; side < 2; ++side) {
        const double polarity = side == 0 ? 1.0 : -1.0;
        ray_best_.clear();
        double* own = ray_scale_.data() + static_cast<size_t>(side) * rays_;
        for (int i = 0; i < rays_; ++i) {
            const float* row = scan_->scores.data() + static_cast<size_t>(i) * r_count;
            float best = 0;
            const int best_m = strongest(row, 0, r_count - 1, static_cast<float>(polarity), best);
            own[i] = best_m >= 0 ? r_lo + r_grid_ * best_m : 0.0;
            if (best_m >= 0) ray_best_.push_back(own[i]);
        }
        if (ray_best_.size() < static_cast<size_t>(rays_ / 3)) continue;
        auto mid = ray_best_.begin() + ray_best_.size() / 2;
        std::nth_element(ray_best_.begin(), mid, ray_best_.end());
        choice.scale_for[side] = *mid;
    }
    // Strokes at least ~8 grey levels off the background, or there is nothing to read.
    double best_contrast = 6.0;
    for (int side = 0; side < 2; ++side) {
        const double scale = choice.scale_for[side];
        if (scale <= 0) continue;
        const double polarity = side == 0 ? 1.0 : -1.0;
        const double contrast = ray_contrast(scale, ray_scale_.data() + static_cast<size_t>(side) * rays_, polarity);
        ACC_TRACE("  rough: side %d scale %.1f contrast %.1f\n", side, scale, contrast);
        if (contrast > best_contrast) best_contrast = contrast, choice.side = side;
    }
    return choice;
}

namespace {

// strokes_on_ray's search with the polarity (`Sign`, ±1) fixed: every value compared is a
// derivative sample, negated or not, so float comparisons decide as the double ones would.
template <int Sign>
void strokes_with_polarity(const float* deriv, int lo, int hi, float threshold, double period, std::vector<int>& rises,
                           std::vector<float>& out) {
    auto up = [deriv](int j) { return Sign > 0 ? deriv[j] : -deriv[j]; };
    // The rising edges, local maxima over the threshold (list_where: which samples they are is
    // noise to the branch predictor).
    rises.resize(static_cast<size_t>(std::max(0, hi - lo)) + 1);
    const int count = list_where(lo + 1, hi, [&](int j) {
        const float rise = up(j), before = up(j - 1), after = up(j + 1);
        return (rise >= threshold) & (rise >= before) & (rise >= after);
    }, rises.data());
    for (int k = 0; k < count; ++k) {
        const int j = rises[k];
        // The strongest falling edge within a plausible stroke width after it.
        const int end = std::min(hi, j + static_cast<int>(0.9 * period) + 1);
        int down = -1;
        float down_v = threshold;
        for (int q = j + 1; q <= end; ++q)
            if (-up(q) > down_v) down_v = -up(q), down = q;
        if (down < 0 || down - j < 0.15 * period) continue;
        out.push_back(static_cast<float>(0.5 * (j + down)));
    }
}

}  // namespace

// Every stroke (rising then falling edge, polarity-corrected) along a ray: its centre in samples.
void RoughEllipse::strokes_on_ray(int ray, double t_lo, double t_hi, double period, std::vector<float>& out) {
    out.clear();
    const float* deriv = scan_->derivative.data() + static_cast<size_t>(ray) * scan_->samples;
    const int lo = std::max(1, static_cast<int>(t_lo)), hi = std::min(scan_->valid[ray] - 2, static_cast<int>(t_hi));
    if (hi - lo < 3) return;
    float peak = 0;
    for (int j = lo; j <= hi; ++j) peak = std::max(peak, static_cast<float>(std::abs(deriv[j])));
    const float threshold = 0.2f * peak;
    // (best_scale sets the polarity to +1 or -1.)
    if (polarity_ > 0)
        strokes_with_polarity<1>(deriv, lo, hi, threshold, period, rises_, out);
    else
        strokes_with_polarity<-1>(deriv, lo, hi, threshold, period, rises_, out);
}

bool RoughEllipse::ellipse_from_rays(cv::Point2d center, double step, double r0, cv::RotatedRect& out) {
    const CodeGeometry& g = CodeGeometry::get();
    const double period = r0 * g.ring_spacing / g.disc_radius;
    // All stroke centres on every ray; one ring traced around the rays is an ellipse.
    ray_strokes_.resize(rays_);
    for (int i = 0; i < rays_; ++i) strokes_on_ray(i, 0.3 * r0, 1.7 * r0, period, ray_strokes_[i]);
    const RayDirections<kRays>& dirs = ray_directions<kRays>();
    auto point = [&](int ray, float t) {
        const int dir = ray * (kRays / rays_);
        return cv::Point2f(static_cast<float>(center.x + dirs.c[dir] * t * step),
                           static_cast<float>(center.y + dirs.s[dir] * t * step));
    };
    int best_support = 0;
    cv::RotatedRect best;
    for (int start : {0, rays_ / 4, rays_ / 2}) {
        for (float seed : ray_strokes_[start]) {
            rim_.clear();
            // Follow the ring with a linear prediction from the last two rays it was seen on.
            float prev = seed, slope = 0;
            int prev_ray = start, misses = 0;
            for (int n = 0; n < rays_; ++n) {
                const int i = (start + n) % rays_;
                const float predicted = prev + slope * static_cast<float>(n - ((prev_ray - start + rays_) % rays_));
                float nearest = -1, gap = 1e9f;
                for (float t : ray_strokes_[i])
                    if (std::abs(t - predicted) < gap) gap = std::abs(t - predicted), nearest = t;
                if (nearest < 0 || gap > 0.05 * predicted + 1.0) {
                    if (++misses > 8) break;
                    continue;
                }
                const int steps = n - ((prev_ray - start + rays_) % rays_);
                if (n > 0 && steps > 0 && misses == 0) slope = 0.5f * slope + 0.5f * (nearest - prev) / steps;
                misses = 0;
                prev = nearest;
                prev_ray = i;
                rim_.push_back(point(i, nearest));
            }
            if (rim_.size() < 12) continue;
            const cv::RotatedRect e = fit_ellipse(rim_);
            if (!(e.size.width > 4 && e.size.height > 4)) continue;
            int support = 0;
            const EllipseDistance distance(e);
            for (int i = 0; i < rays_; ++i)
                for (float t : ray_strokes_[i])
                    if (distance(point(i, t)) < 0.02) {
                        ++support;
                        break;
                    }
            if (support > best_support) best_support = support, best = e;
        }
    }
    ACC_TRACE("  rough: best support %d/%d\n", best_support, rays_);
    if (best_support < rays_ / 3) return false;
    inliers_.clear();
    const EllipseDistance distance(best);
    for (int i = 0; i < rays_; ++i)
        for (float t : ray_strokes_[i])
            if (distance(point(i, t)) < 0.025) inliers_.push_back(point(i, t));
    for (const auto& p : inliers_) ACC_TRACE("P a %.1f %.1f\n", p.x, p.y);
    out = fit_ellipse(inliers_);
    ACC_TRACE("  rough: ring traced on %d/%d rays, ellipse %.1f,%.1f %.1fx%.1f @%.1f\n", best_support, rays_,
              out.center.x, out.center.y, out.size.width, out.size.height, out.angle);
    return out.size.width > 2 && out.size.height > 2;
}

bool RoughEllipse::ellipse_from_combs(cv::Point2d center, double step, double r_lo, double r0, cv::RotatedRect& out) {
    const RayDirections<kRays>& dirs = ray_directions<kRays>();
    rim_.clear();
    // A ray sees the rim between cos(65 deg) and ~1.6 times the median scale (off-centre start).
    const int m_lo = std::max(0, static_cast<int>(std::ceil((0.4 * r0 - r_lo) / r_grid_)));
    const int m_hi = std::min(scan_->r_count - 1, static_cast<int>((1.7 * r0 - r_lo) / r_grid_));
    if (m_hi - m_lo < 2) return false;
    ray_best_.clear();
    for (int i = 0; i < rays_; ++i) {
        const float* row = scan_->scores.data() + static_cast<size_t>(i) * scan_->r_count;
        int best_m = -1;
        float best = 0;
        best_m = strongest(row, m_lo, m_hi, static_cast<float>(polarity_), best);
        if (best_m < 0) continue;
        double offset = 0;
        if (best_m > 0 && best_m + 1 < scan_->r_count) {
            const double l = polarity_ * row[best_m - 1], r = polarity_ * row[best_m + 1];
            const double den = l - 2.0 * best + r;
            if (den < -1e-6) offset = std::clamp(0.5 * (l - r) / den, -0.5, 0.5);
        }
        const double t = (r_lo + r_grid_ * (best_m + offset)) * step;
        const int dir = i * (kRays / rays_);
        rim_.emplace_back(static_cast<float>(center.x + dirs.c[dir] * t), static_cast<float>(center.y + dirs.s[dir] * t));
        ray_best_.push_back(best);   // beside rim_, same order
    }
    if (rim_.size() < static_cast<size_t>(rays_ / 2)) return false;
    // Rays whose best comb is weak crossed no strokes (occluder, glare, image edge).
    sorted_best_.assign(ray_best_.begin(), ray_best_.end());
    auto mid = sorted_best_.begin() + sorted_best_.size() / 2;
    std::nth_element(sorted_best_.begin(), mid, sorted_best_.end());
    const double weak = 0.3 * *mid;
    size_t kept = 0;
    for (size_t k = 0; k < rim_.size(); ++k)
        if (ray_best_[k] >= weak) rim_[kept++] = rim_[k];
    rim_.resize(kept);
    if (rim_.size() < static_cast<size_t>(rays_ / 2)) return false;
    // Two trimming rounds: rays whose comb locked one ring off, or onto clutter, sit off the ellipse.
    cv::RotatedRect e = fit_ellipse(rim_);
    for (int round = 0; round < 2; ++round) {
        if (!(e.size.width > 4 && e.size.height > 4)) return false;
        const EllipseDistance distance(e);
        inliers_.clear();
        const double tolerance = round == 0 ? 0.12 : 0.06;
        for (const auto& p : rim_)
            if (distance(p) < tolerance) inliers_.push_back(p);
        if (inliers_.size() < static_cast<size_t>(rays_ / 2)) return false;
        e = fit_ellipse(inliers_);
    }
    if (!(e.size.width > 4 && e.size.height > 4)) return false;
    ACC_TRACE("  rough: comb ellipse on %d/%d rays, %.1f,%.1f %.1fx%.1f @%.1f\n", static_cast<int>(inliers_.size()),
              rays_, e.center.x, e.center.y, e.size.width, e.size.height, e.angle);
    out = e;
    return true;
}

// The rays' comb peaks (local maxima over a quarter of the strongest, polarity applied):
// where each ray may cross the rim. SteepRimVote finds the ellipse most of them lie on.
bool RoughEllipse::steep_rim(cv::Point2d center, double step, double r_lo, cv::RotatedRect& out) {
    const int r_count = scan_->r_count;
    const float sign = static_cast<float>(polarity_);
    float top = 0;
    for (int i = 0; i < rays_; ++i) strongest(scan_->scores.data() + static_cast<size_t>(i) * r_count, 0, r_count - 1, sign, top);
    const float floor = 0.25f * top;
    const RayDirections<kRays>& dirs = ray_directions<kRays>();
    steep_rim_vote_.clear_peaks();
    for (int i = 0; i < rays_; ++i) {
        const float* row = scan_->scores.data() + static_cast<size_t>(i) * r_count;
        const int dir = i * (kRays / rays_);
        for (int m = 0; m < r_count; ++m) {
            const float v = sign * row[m];
            if (v < floor || (m > 0 && sign * row[m - 1] > v) || (m + 1 < r_count && sign * row[m + 1] >= v)) continue;
            const double t = r_lo + r_grid_ * m;
            steep_rim_vote_.add_peak(t * dirs.c[dir], t * dirs.s[dir], v);
        }
    }
    SteepRim rim;
    if (!steep_rim_vote_.find(r_lo, r_grid_, r_count, rim)) return false;
    ACC_TRACE("  rough: steep rim %.1f px, ratio %.2f, angle %.1f from %d comb peaks\n", rim.semi_major * step,
              rim.ratio, rim.angle / kDeg, steep_rim_vote_.peak_count());
    out = cv::RotatedRect(cv::Point2f(static_cast<float>(center.x), static_cast<float>(center.y)),
                          cv::Size2f(static_cast<float>(2 * rim.semi_major * step),
                                     static_cast<float>(2 * rim.semi_major * rim.ratio * step)),
                          static_cast<float>(rim.angle / kDeg));
    return true;
}

bool RoughEllipse::take_steep_vote(const Candidate& candidate) {
    // Fits within a twentieth of the smallest diameter of the last ones are the same place.
    if (std::hypot(candidate.center.x - steep_centre_.x, candidate.center.y - steep_centre_.y) >
        0.05 * candidate.diameter_lo) {
        steep_centre_ = candidate.center;
        steep_votes_here_ = 0;
    }
    if (steep_votes_left_ <= 0 || steep_votes_here_ >= kSteepVotesPerPlace) return false;
    --steep_votes_left_;
    ++steep_votes_here_;
    return true;
}

bool RoughEllipse::fit(const Frame& frame, const Candidate& cand, bool alternative, cv::Matx33d& h, double& polarity) {
    const CodeGeometry& g = CodeGeometry::get();
    // Stroke edges relative to the rim radius: the comb every ray should show.
    static const CodeGeometry::StrokeEdges edges = g.stroke_edges(g.disc_radius);
    const double* comb = edges.data();
    // Pass 1: coarse, over the whole size range, from the voted centre. Pass 2: fine,
    // around the scale found, from the centre of the ring pass 1 traced (votes of a
    // tilted code miss its centre).
    double step = std::max(0.5, cand.diameter_hi / 200.0);
    double r_lo = 0.25 * cand.diameter_lo / step, r_hi = 0.55 * cand.diameter_hi / step;
    r_grid_ = 2.0;   // the scale only needs to be roughly right here
    rays_ = kRays;
    scan_ = &first_pass_;
    if (!(cached_ && cached_center_ == cand.center && cached_lo_ == cand.diameter_lo && cached_hi_ == cand.diameter_hi)) {
        comb_scan(frame, cand.center, comb, step, r_lo, r_hi, true);
        scale_choice_ = choose_scale(scan_->r_count, r_lo);
        cached_ = true;
        cached_center_ = cand.center;
        cached_lo_ = cand.diameter_lo;
        cached_hi_ = cand.diameter_hi;
    }
    steep_outline_valid_ = false;
    double r0 = best_scale(alternative) * step;
    ACC_TRACE("  rough: range [%.0f,%.0f] step %.2f scale %.1f polarity %.0f\n", cand.diameter_lo, cand.diameter_hi, step, r0,
              polarity_);
    if (r0 <= 0) return false;
    cv::RotatedRect e;
    const CodeGeometry& geo = CodeGeometry::get();
    const double rim_to_ring = geo.rings[2].radius / geo.disc_radius;
    bool traced = ellipse_from_rays(cand.center, step, r0 / step, e);
    cv::RotatedRect comb_rim;   // the rim, when the plane comes from the rays' comb scales
    bool from_combs = false;
    if (!traced) {
        if (!ellipse_from_combs(cand.center, step, r_lo, r0 / step, e)) {
            // A steep code: the voted rim, its perspective and axes then climbed on the rings
            // (the vote's ratio and angle are a grid step off; the fit needs them closer).
            if (!take_steep_vote(cand) || !steep_rim(cand.center, step, r_lo, e)) return false;
            h = plane_within_rim(frame, rim_edge_, e, true);
            polarity = polarity_;
            return true;
        }
        comb_rim = e, from_combs = true;
        // Rim ellipse to the middle ring's, as the ring tracer reports.
        e.size.width *= static_cast<float>(rim_to_ring);
        e.size.height *= static_cast<float>(rim_to_ring);
    }
    const cv::Point2d centre(e.center.x, e.center.y);
    step = std::max(0.5, 2.0 * r0 / 300.0);
    r_lo = 0.45 * r0 / step;
    r_hi = 1.8 * r0 / step;
    rays_ = kRays;
    scan_ = &later_pass_;
    // Only the profiles are needed now: pass 1 settled scale and polarity.
    comb_scan(frame, centre, comb, step, r_lo, r_hi, false);
    const double r1 = r0;
    ACC_TRACE("  rough: step %.2f global rim %.1f px\n", step, r1);
    if (r1 <= 0) return false;
    const cv::RotatedRect first = e;
    if (!ellipse_from_rays(centre, step, r1 / step, e)) {
        // From the better centre, each ray's comb at its own scale.
        r_grid_ = 1.0;
        comb_scan(frame, centre, comb, step, r_lo, r_hi, true);
        if (ellipse_from_combs(centre, step, r_lo, r1 / step, e)) {
            comb_rim = e, from_combs = true;
            e.size.width *= static_cast<float>(rim_to_ring);
            e.size.height *= static_cast<float>(rim_to_ring);
        } else {
            // Pass 1's ellipse already held on half the rays: a refinement that finds
            // nothing better (blur, a few pixels per ring) does not undo it.
            e = first;
            ACC_TRACE("  rough: pass 2 failed, pass 1 ellipse kept\n");
        }
    } else {
        from_combs = false;   // a ring traced from the better centre
    }
    const double major = std::max(e.size.width, e.size.height), minor = std::min(e.size.width, e.size.height);
    // The traced ring may be any of the five (0.44..0.91 of the diameter).
    if (!(minor > 0.3 * major) || major < 0.15 * cand.diameter_lo || major > 1.5 * cand.diameter_hi) return false;
    // Which ring was traced is settled by the concentric fit; call it the middle one.
    h = affine_from_ellipse(e, g.rings[2].radius);
    polarity = polarity_;
    steep_outline_ = from_combs ? comb_rim : e;
    steep_outline_is_rim_ = from_combs;
    steep_outline_valid_ = std::min(steep_outline_.size.width, steep_outline_.size.height) <
                           kSteepOutlineRatio * std::max(steep_outline_.size.width, steep_outline_.size.height);
    return true;
}

}  // namespace appclip::vision
