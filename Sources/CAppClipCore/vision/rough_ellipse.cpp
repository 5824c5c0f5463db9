#include "rough_ellipse.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "homography.hpp"

namespace appclip::vision {
namespace {

constexpr int kRays = 72;

}  // namespace

double ellipse_distance(const cv::RotatedRect& e, const cv::Point2f& p) {
    const double a = 0.5 * e.size.width, b = 0.5 * e.size.height;
    if (a < 1e-6 || b < 1e-6) return 1e9;
    const double t = e.angle * kDeg, c = std::cos(t), s = std::sin(t);
    const double dx = p.x - e.center.x, dy = p.y - e.center.y;
    const double u = (c * dx + s * dy) / a, v = (-s * dx + c * dy) / b;
    return std::abs(std::sqrt(u * u + v * v) - 1.0);
}

namespace {

// Deterministic generator for RANSAC draws (no shared RNG state).
struct Lcg {
    std::uint32_t state;
    std::uint32_t next() {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    }
};

}  // namespace

cv::Matx33d affine_from_ellipse(const cv::RotatedRect& e, double radius) {
    const double t = e.angle * kDeg, c = std::cos(t), s = std::sin(t);
    const double sa = 0.5 * e.size.width / radius, sb = 0.5 * e.size.height / radius;
    return {c * sa, -s * sb, e.center.x, s * sa, c * sb, e.center.y, 0, 0, 1};
}

int RoughEllipse::comb_scan(const Frame& frame, cv::Point2d center, const double* comb, double step, double r_lo,
                            double r_hi) {
    const int samples = static_cast<int>(r_hi) + 3;
    samples_ = samples;
    profile_.resize(samples);
    derivative_.assign(static_cast<size_t>(kRays) * samples, 0.f);
    valid_.assign(kRays, 0);
    // Comb score of every ray at every rim distance R (in samples, 0.5 apart): the signed
    // edges of all strokes must agree, so a comb sliding onto the rim or clutter cancels out.
    const int r_count = std::max(1, static_cast<int>((r_hi - r_lo) / 0.5) + 1);
    scores_.assign(static_cast<size_t>(kRays) * r_count, 0.f);
    profiles_.assign(static_cast<size_t>(kRays) * samples, 0.f);
    for (int i = 0; i < kRays; ++i) {
        const double a = (i + 0.5) * 2 * kPi / kRays;
        const double ux = std::cos(a) * step, uy = std::sin(a) * step;
        int valid = samples;
        for (int j = 0; j < samples; ++j) {
            const float v = frame.luma_at(center.x + ux * j, center.y + uy * j);
            if (v < 0) {
                valid = j;
                break;
            }
            profile_[j] = v;
        }
        valid_[i] = valid;
        std::copy(profile_.begin(), profile_.begin() + valid, profiles_.begin() + static_cast<size_t>(i) * samples);
        if (valid < r_lo + 3) continue;
        float* deriv = derivative_.data() + static_cast<size_t>(i) * samples;
        for (int j = 1; j + 1 < valid; ++j) deriv[j] = profile_[j + 1] - profile_[j - 1];
        const double r_end = std::min(r_hi, (valid - 2) / comb[2 * kRings - 1]);
        float* row = scores_.data() + static_cast<size_t>(i) * r_count;
        for (int m = 0; m < r_count; ++m) {
            const double r = r_lo + 0.5 * m;
            if (r > r_end) break;
            double score = 0;
            for (int e = 0; e < 2 * kRings; ++e) {
                const double x = r * comb[e];
                const int j = static_cast<int>(x);
                const double f = x - j;
                const double d = deriv[j] + f * (deriv[j + 1] - deriv[j]);
                score += (e % 2 == 0) ? d : -d;
            }
            row[m] = static_cast<float>(score);
        }
    }
    r_count_ = r_count;
    return r_count;
}

// Mean luma over all rays at distance `t` (samples).
double RoughEllipse::mean_at(double t) const {
    double sum = 0;
    int n = 0;
    for (int i = 0; i < kRays; ++i) {
        const int j = static_cast<int>(t);
        if (j + 1 >= valid_[i]) continue;
        const float* p = profiles_.data() + static_cast<size_t>(i) * samples_;
        sum += p[j] + (t - j) * (p[j + 1] - p[j]);
        ++n;
    }
    return n > 0 ? sum / n : -1.0;
}

// The scale all rays agree on best (in samples), 0 when nothing scored. Strokes and the
// background bands between them are equally wide, so a comb fits both: each polarity
// gets its best scale, and the one whose "strokes" differ from the wide background band
// inside ring 1 (in the expected direction) is the real one.
double RoughEllipse::best_scale(int r_count, double r_lo) {
    const CodeGeometry& g = CodeGeometry::get();
    double best_scale_for[2] = {0, 0};
    double best_sum[2] = {0, 0};
    for (int m = 0; m < r_count; ++m) {
        double sum = 0;
        for (int i = 0; i < kRays; ++i) sum += scores_[static_cast<size_t>(i) * r_count + m];
        const int side = sum > 0 ? 0 : 1;
        if (std::abs(sum) > best_sum[side]) best_sum[side] = std::abs(sum), best_scale_for[side] = r_lo + 0.5 * m;
    }
    double best_contrast = 0, chosen = 0;
    const double band = 0.5 * (110.0 + g.rings[0].radius - g.half_stroke) / g.disc_radius;
    for (int side = 0; side < 2; ++side) {
        const double scale = best_scale_for[side];
        if (scale <= 0) continue;
        const double polarity = side == 0 ? 1.0 : -1.0;
        const double background = mean_at(scale * band);
        double strokes = 0;
        for (int k = 0; k < kRings; ++k) strokes += mean_at(scale * g.rings[k].radius / g.disc_radius) / kRings;
        const double contrast = polarity * (strokes - background);
        if (background >= 0 && contrast > best_contrast) best_contrast = contrast, chosen = scale, polarity_ = polarity;
    }
    return chosen;
}

// The middle ring's stroke centre near `t` (samples) on a ray, from its two edges; -1 if none.
double RoughEllipse::snap_stroke(int ray, double t, double period, double polarity) const {
    const float* deriv = derivative_.data() + static_cast<size_t>(ray) * samples_;
    const int valid = valid_[ray];
    const int lo = std::max(1, static_cast<int>(t - 0.5 * period)), hi = std::min(valid - 2, static_cast<int>(t + 0.5 * period));
    if (hi - lo < 3) return -1;
    // Rising edge (polarity-corrected) in the inner half window, falling edge after it.
    int up = -1;
    float up_v = 0;
    for (int j = lo; j <= static_cast<int>(t); ++j)
        if (polarity * deriv[j] > up_v) up_v = static_cast<float>(polarity * deriv[j]), up = j;
    if (up < 0) return -1;
    int down = -1;
    float down_v = 0;
    for (int j = up + 1; j <= hi; ++j)
        if (-polarity * deriv[j] > down_v) down_v = static_cast<float>(-polarity * deriv[j]), down = j;
    if (down < 0 || down_v < 0.3f * up_v || up_v < 0.3f * down_v) return -1;
    const double width = down - up;
    if (width < 0.2 * period || width > 0.8 * period) return -1;
    return 0.5 * (up + down);
}

bool RoughEllipse::ellipse_from_rays(cv::Point2d center, double step, double r_lo, int r_count, double r0,
                                     cv::RotatedRect& out) {
    const CodeGeometry& g = CodeGeometry::get();
    rim_.clear();
    for (int i = 0; i < kRays; ++i) {
        const float* row = scores_.data() + static_cast<size_t>(i) * r_count;
        // Each ray picks its own distance within what a 60 degree tilt allows around r0.
        const int m_lo = std::max(0, static_cast<int>((0.6 * r0 - r_lo) / 0.5));
        const int m_hi = std::min(r_count - 1, static_cast<int>((1.4 * r0 - r_lo) / 0.5));
        int best_m = -1;
        float best = 0;
        for (int m = m_lo; m <= m_hi; ++m)
            if (polarity_ * row[m] > best) best = static_cast<float>(polarity_ * row[m]), best_m = m;
        if (best_m < 0) continue;
        const double a = (i + 0.5) * 2 * kPi / kRays;
        // The comb only says which stroke is the middle ring; its centre comes from the
        // stroke's own edges (the comb is biased when the ray misses the true centre).
        const double scale = r_lo + 0.5 * best_m;
        const double period = scale * g.ring_spacing / g.disc_radius;
        const double t = snap_stroke(i, scale * g.rings[2].radius / g.disc_radius, period, polarity_);
        if (t < 0) continue;
        const double r = t * step;
        rim_.emplace_back(static_cast<float>(center.x + std::cos(a) * r), static_cast<float>(center.y + std::sin(a) * r));
    }
    for (const auto& p : rim_) ACC_TRACE("P a %.1f %.1f\n", p.x, p.y);
    if (rim_.size() < kRays / 3) return false;

    // RANSAC: the comb picks the wrong scale on rays through gaps or clutter.
    Lcg rng{0x9e3779b9u};
    cv::RotatedRect best_ellipse;
    int best_inliers = 0;
    const int n = static_cast<int>(rim_.size());
    for (int iter = 0; iter < 80; ++iter) {
        sample_.clear();
        for (int m = 0; m < 5; ++m) {
            // Spread the five picks around the outline: one per fifth of the rays.
            const int pick = (m * n) / 5 + static_cast<int>(rng.next() % static_cast<std::uint32_t>(std::max(1, n / 5)));
            sample_.push_back(rim_[std::min(pick, n - 1)]);
        }
        const cv::RotatedRect e = cv::fitEllipseDirect(sample_);
        if (!(e.size.width > 2 && e.size.height > 2)) continue;
        const double ratio = std::min(e.size.width, e.size.height) / std::max(e.size.width, e.size.height);
        if (ratio < 0.3) continue;
        int inliers = 0;
        for (const auto& p : rim_) inliers += ellipse_distance(e, p) < 0.04 ? 1 : 0;
        if (inliers > best_inliers) {
            best_inliers = inliers;
            best_ellipse = e;
        }
    }
    if (best_inliers < std::max(12, n / 3)) return false;
    inliers_.clear();
    for (const auto& p : rim_)
        if (ellipse_distance(best_ellipse, p) < 0.05) inliers_.push_back(p);
    out = cv::fitEllipseDirect(inliers_);
    ACC_TRACE("  rough: %d/%d inliers, ellipse %.1f,%.1f %.1fx%.1f @%.1f\n", best_inliers, n, out.center.x,
              out.center.y, out.size.width, out.size.height, out.angle);
    return out.size.width > 2 && out.size.height > 2;
}

bool RoughEllipse::fit(const Frame& frame, const Candidate& cand, cv::Matx33d& h) {
    const CodeGeometry& g = CodeGeometry::get();
    // Stroke edges relative to the rim radius: the comb every ray should show.
    double comb[2 * kRings];
    for (int k = 0; k < kRings; ++k) {
        comb[2 * k] = (g.rings[k].radius - g.half_stroke) / g.disc_radius;
        comb[2 * k + 1] = (g.rings[k].radius + g.half_stroke) / g.disc_radius;
    }
    // Pass 1 over the whole size range; pass 2 at a finer step around the scale found.
    double step = std::max(0.5, cand.diameter_hi / 300.0);
    double r_lo = 0.25 * cand.diameter_lo / step, r_hi = 0.55 * cand.diameter_hi / step;
    int r_count = comb_scan(frame, cand.center, comb, step, r_lo, r_hi);
    double r0 = best_scale(r_count, r_lo) * step;
    if (r0 <= 0) return false;
    const double fine = std::max(0.5, 2.0 * r0 / 300.0);
    if (step > 1.5 * fine) {
        step = fine;
        r_lo = 0.45 * r0 / step;
        r_hi = 1.5 * r0 / step;
        r_count = comb_scan(frame, cand.center, comb, step, r_lo, r_hi);
        r0 = best_scale(r_count, r_lo) * step;
        if (r0 <= 0) return false;
    }
    ACC_TRACE("  rough: step %.2f global rim %.1f px\n", step, r0);
    cv::RotatedRect e;
    if (!ellipse_from_rays(cand.center, step, r_lo, r_count, r0 / step, e)) return false;
    // The voted centre can be a few pixels off; rays from the ellipse's centre see a
    // cleaner comb, so measure once more from there.
    const cv::Point2d centre(e.center.x, e.center.y);
    if (cv::norm(centre - cand.center) > 0.01 * r0) {
        r_count = comb_scan(frame, centre, comb, step, r_lo, r_hi);
        const double r1 = best_scale(r_count, r_lo) * step;
        cv::RotatedRect e2;
        if (r1 > 0 && ellipse_from_rays(centre, step, r_lo, r_count, r1 / step, e2)) e = e2;
    }
    const double major = std::max(e.size.width, e.size.height) * g.disc_radius / g.rings[2].radius;
    const double minor = std::min(e.size.width, e.size.height) * g.disc_radius / g.rings[2].radius;
    if (!(minor > 0.3 * major) || major < 0.4 * cand.diameter_lo || major > 1.1 * cand.diameter_hi) return false;
    h = affine_from_ellipse(e, g.rings[2].radius);
    return true;
}

}  // namespace appclip::vision
