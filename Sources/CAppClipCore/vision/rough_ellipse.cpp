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

// Normalised distance of `p` from an ellipse outline (0 on it).
double ellipse_distance(const cv::RotatedRect& e, const cv::Point2f& p) {
    const double a = 0.5 * e.size.width, b = 0.5 * e.size.height;
    if (a < 1e-6 || b < 1e-6) return 1e9;
    const double t = e.angle * kDeg, c = std::cos(t), s = std::sin(t);
    const double dx = p.x - e.center.x, dy = p.y - e.center.y;
    const double u = (c * dx + s * dy) / a, v = (-s * dx + c * dy) / b;
    return std::abs(std::sqrt(u * u + v * v) - 1.0);
}

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
    profile_.resize(samples);
    derivative_.resize(samples);
    // Comb score of every ray at every rim distance R (in samples, 0.5 apart): the signed
    // edges of all strokes must agree, so a comb sliding onto the rim or clutter cancels out.
    const int r_count = std::max(1, static_cast<int>((r_hi - r_lo) / 0.5) + 1);
    scores_.assign(static_cast<size_t>(kRays) * r_count, 0.f);
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
        if (valid < r_lo + 3) continue;
        derivative_[0] = 0;
        for (int j = 1; j + 1 < valid; ++j) derivative_[j] = profile_[j + 1] - profile_[j - 1];
        derivative_[valid - 1] = 0;
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
                const double d = derivative_[j] + f * (derivative_[j + 1] - derivative_[j]);
                score += (e % 2 == 0) ? d : -d;
            }
            row[m] = static_cast<float>(std::abs(score));
        }
    }
    r_count_ = r_count;
    return r_count;
}

// The scale all rays agree on best (in samples), 0 when nothing scored.
double RoughEllipse::best_scale(int r_count, double r_lo) const {
    int global_m = -1;
    double global_best = 0;
    for (int m = 0; m < r_count; ++m) {
        double sum = 0;
        for (int i = 0; i < kRays; ++i) sum += scores_[static_cast<size_t>(i) * r_count + m];
        if (sum > global_best) global_best = sum, global_m = m;
    }
    return global_m < 0 ? 0.0 : r_lo + 0.5 * global_m;
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
    r0 /= step;
    rim_.clear();
    for (int i = 0; i < kRays; ++i) {
        const float* row = scores_.data() + static_cast<size_t>(i) * r_count;
        // Each ray picks its own distance within what a 60 degree tilt allows around r0.
        const int m_lo = std::max(0, static_cast<int>((0.6 * r0 - r_lo) / 0.5));
        const int m_hi = std::min(r_count - 1, static_cast<int>((1.4 * r0 - r_lo) / 0.5));
        int best_m = -1;
        float best = 0;
        for (int m = m_lo; m <= m_hi; ++m)
            if (row[m] > best) best = row[m], best_m = m;
        if (best_m < 0) continue;
        const double a = (i + 0.5) * 2 * kPi / kRays;
        const double r = (r_lo + 0.5 * best_m) * step;
        rim_.emplace_back(static_cast<float>(cand.center.x + std::cos(a) * r),
                          static_cast<float>(cand.center.y + std::sin(a) * r));
    }
    if (rim_.size() < kRays / 3) return false;

    // RANSAC: the comb picks the wrong scale on rays through gaps or clutter.
    Lcg rng{0x9e3779b9u};
    cv::RotatedRect best_ellipse;
    int best_inliers = 0;
    const int n = static_cast<int>(rim_.size());
    for (int iter = 0; iter < 120; ++iter) {
        sample_.clear();
        int picks[5];
        for (int m = 0; m < 5; ++m) {
            // Spread the five picks around the outline: one per fifth of the rays.
            picks[m] = (m * n) / 5 + static_cast<int>(rng.next() % static_cast<std::uint32_t>(std::max(1, n / 5)));
            sample_.push_back(rim_[std::min(picks[m], n - 1)]);
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
    const cv::RotatedRect e = cv::fitEllipseDirect(inliers_);
    const double major = std::max(e.size.width, e.size.height), minor = std::min(e.size.width, e.size.height);
    if (!(minor > 0.3 * major) || major < 0.6 * cand.diameter_lo || major > 1.6 * cand.diameter_hi) return false;
    ACC_TRACE("  rough: %d/%d inliers, ellipse %.1f,%.1f %.1fx%.1f @%.1f\n", best_inliers, n, e.center.x, e.center.y,
              e.size.width, e.size.height, e.angle);
    h = affine_from_ellipse(e, g.disc_radius);
    return true;
}

}  // namespace appclip::vision
