#include "outline_rings.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "code_geometry.hpp"
#include "comb_table.hpp"
#include "image_view.hpp"

namespace appclip::vision {
namespace {

constexpr int kRays = 16;
// Samples per ray: ~8 per ring spacing whatever the outline's size (the rim case spans
// 0.65 rims with rings 0.059 apart, the logo case 2.6 logo radii with rings 0.22 apart).
constexpr int kSamples = 96;
// Each ray's comb may stretch by this much either way: an outline traced on a coarse level
// is a pixel or two off, and perspective moves the inner rings' centre a little.
constexpr double kStretch = 0.06;
constexpr int kStretches = 9;
// Grey levels of derivative that flat ground is taken to have (as the vote peaks' ring
// check does), so that a featureless patch does not score by dividing small by small.
constexpr double kFlatNoise = 4.0;

}  // namespace

float OutlineRingCheck::score(const cv::Mat& luma, const cv::RotatedRect& outline) {
    const CodeGeometry& g = CodeGeometry::get();
    static const CodeGeometry::StrokeEdges as_rim = g.stroke_edges(g.disc_radius);
    static const CodeGeometry::StrokeEdges as_logo = g.stroke_edges(kLogoDiscRadius);
    return std::max(score_as(luma, outline, as_rim), score_as(luma, outline, as_logo));
}

float OutlineRingCheck::score_as(const cv::Mat& luma, const cv::RotatedRect& outline, const CodeGeometry::StrokeEdges& edges) {
    constexpr int count = 2 * kRings;
    const double t0 = edges[0] * (1 - 2 * kStretch), t1 = edges[count - 1] * (1 + 2 * kStretch);
    const double dt = (t1 - t0) / (kSamples - 1);
    const double a = outline.angle * kDeg, ca = std::cos(a), sa = std::sin(a);
    const double hw = 0.5 * outline.size.width, hh = 0.5 * outline.size.height;
    profile_.resize(kSamples);
    derivative_.resize(kSamples);
    ray_sums_.assign(static_cast<size_t>(kRays) * kStretches, 0.0);
    // Where each stretch's taps fall in a ray's samples: the same for every ray.
    int tap_at[kStretches][count];
    double tap_fraction[kStretches][count];
    for (int s = 0; s < kStretches; ++s) {
        const double stretch = 1 + kStretch * (2.0 * s / (kStretches - 1) - 1);
        for (int e = 0; e < count; ++e) {
            const double u = (edges[e] * stretch - t0) / dt;
            tap_at[s][e] = std::min(static_cast<int>(u), kSamples - 2);
            tap_fraction[s][e] = u - tap_at[s][e];
        }
    }
    double energy = 0;
    for (int ray = 0; ray < kRays; ++ray) {
        const double phi = (ray + 0.5) * 2 * kPi / kRays, cp = std::cos(phi), sp = std::sin(phi);
        // Image step per unit of t: the outline's radius vector at this angle.
        const double vx = hw * cp * ca - hh * sp * sa, vy = hw * cp * sa + hh * sp * ca;
        const double x0 = outline.center.x + vx * t0, y0 = outline.center.y + vy * t0;
        const int valid = std::min(kSamples, steps_inside(x0, y0, vx * dt, vy * dt, luma.cols, luma.rows));
        bilinear_along(luma, x0, y0, vx * dt, vy * dt, valid, profile_.data());
        // A ray leaving the frame counts as flat past its end: it neither scores nor pays.
        std::fill(derivative_.begin(), derivative_.end(), 0.f);
        for (int j = 1; j + 1 < valid; ++j) derivative_[j] = profile_[j + 1] - profile_[j - 1];
        // Clipped to the ray's fourth strongest edge, as the rough fit's comb is: a cup's
        // or plate's two or three strong rims must not pass for ten stroke edges.
        const float clip = outline_clip(derivative_.data(), valid, edge_peaks_);
        for (int j = 1; j + 1 < valid; ++j) {
            derivative_[j] = std::clamp(derivative_[j], -clip, clip);
            energy += static_cast<double>(derivative_[j]) * derivative_[j] + kFlatNoise * kFlatNoise;
        }
        for (int s = 0; s < kStretches; ++s) {
            double sum = 0;
            for (int e = 0; e < count; ++e) {
                const int j = tap_at[s][e];
                const double f = tap_fraction[s][e];
                const double d = derivative_[j] + f * (derivative_[j + 1] - derivative_[j]);
                sum += (e % 2 == 0) ? d : -d;
            }
            ray_sums_[static_cast<size_t>(ray) * kStretches + s] = sum;
        }
    }
    // One stretch for the whole outline, each ray free to move a step from it: the rings
    // agree on their size, while a free choice per ray would let texture find its own combs.
    double best = 0;
    for (int polarity = -1; polarity <= 1; polarity += 2)
        for (int s = 0; s < kStretches; ++s) {
            double total = 0;
            for (int ray = 0; ray < kRays; ++ray) {
                const double* sums = ray_sums_.data() + static_cast<size_t>(ray) * kStretches;
                double ray_best = 0;
                for (int k = std::max(0, s - 1); k <= std::min(kStretches - 1, s + 1); ++k)
                    ray_best = std::max(ray_best, polarity * sums[k]);
                total += ray_best;
            }
            best = std::max(best, total);
        }
    // Cauchy-Schwarz bounds the comb's sum by the root of taps x energy: a ratio near 1 means
    // the rays' edges are the strokes' edges and little else.
    return static_cast<float>(best / std::sqrt(static_cast<double>(count) * kRays * std::max(energy, 1.0)));
}

}  // namespace appclip::vision
