#include "position_sampling.hpp"

#include <algorithm>
#include <cmath>

#include "code_geometry.hpp"
#include "debug_log.hpp"

namespace appclip::vision {
namespace {

float ink_at(const RingProfiles& p, int ring, double beta_deg) {
    double x = beta_deg / RingProfiles::kBinDeg - 0.5;
    x -= std::floor(x / RingProfiles::kBins) * RingProfiles::kBins;
    const int i0 = static_cast<int>(x) % RingProfiles::kBins, i1 = (i0 + 1) % RingProfiles::kBins;
    const float f = static_cast<float>(x - std::floor(x));
    const float* ink = p.ink.data() + ring * RingProfiles::kBins;
    return ink[i0] + f * (ink[i1] - ink[i0]);
}

// Mean ink over [alpha - half, alpha + half] (code-plane degrees) under a hypothesis.
float window_ink(const RingProfiles& p, int ring, const RotationHypothesis& h, double alpha, double half) {
    float sum = 0;
    for (int t = -2; t <= 2; ++t) {
        const double a = alpha + half * t / 2.0;
        sum += ink_at(p, ring, h.mirrored ? h.theta_deg - a : h.theta_deg + a);
    }
    return sum / 5.f;
}

// Highest ink over the same window: blur dilutes a short arc's colour least at its peak.
float window_peak(const RingProfiles& p, int ring, const RotationHypothesis& h, double alpha, double half) {
    float best = -1e9f;
    for (int t = -2; t <= 2; ++t) {
        const double a = alpha + half * t / 2.0;
        best = std::max(best, ink_at(p, ring, h.mirrored ? h.theta_deg - a : h.theta_deg + a));
    }
    return best;
}

// Two-means split of 1-D values; returns the two class means and the pooled spread.
void split(const float* v, int n, float lo_init, float hi_init, double& lo, double& hi, double& spread) {
    lo = lo_init;
    hi = hi_init;
    for (int iter = 0; iter < 10; ++iter) {
        const double t = 0.5 * (lo + hi);
        double sl = 0, sh = 0;
        int nl = 0, nh = 0;
        for (int i = 0; i < n; ++i) (v[i] < t ? (sl += v[i], ++nl) : (sh += v[i], ++nh));
        if (nl > 0) lo = sl / nl;
        if (nh > 0) hi = sh / nh;
    }
    const double t = 0.5 * (lo + hi);
    double ss = 0;
    for (int i = 0; i < n; ++i) {
        const double d = v[i] - (v[i] < t ? lo : hi);
        ss += d * d;
    }
    spread = std::sqrt(ss / std::max(1, n));
}

float sigmoid(double x) { return static_cast<float>(1.0 / (1.0 + std::exp(-x))); }

}  // namespace

void sample_positions(const RingProfiles& profiles, const CodePalette& palette, const RotationHypothesis& hyp,
                      acc_ring_observation& obs, SamplingStats& stats) {
    const CodeGeometry& g = CodeGeometry::get();
    float mid[ACC_RING_POSITIONS];
    float peak[ACC_RING_POSITIONS];
    float ratio[ACC_RING_POSITIONS];
    for (int k = 0; k < kRings; ++k) {
        const Ring& ring = g.rings[k];
        const double pitch = 360.0 / ring.positions;
        const double mid_half = 0.5 * (0.5 * pitch - ring.half_gap_deg) + 0.5 * ring.cap_deg;
        for (int p = 0; p < ring.positions; ++p) {
            const double start = ring.rotation_deg + p * pitch;
            mid[ring.first_bit + p] = window_ink(profiles, k, hyp, start + 0.5 * pitch, mid_half);
            peak[ring.first_bit + p] = window_peak(profiles, k, hyp, start + 0.5 * pitch, mid_half);
        }
        const double gap_half = 0.6 * (ring.half_gap_deg - ring.cap_deg);
        for (int p = 0; p < ring.positions; ++p) {
            const double start = ring.rotation_deg + p * pitch;
            const float at_start = window_ink(profiles, k, hyp, start, gap_half);
            const int prev = ring.first_bit + (p + ring.positions - 1) % ring.positions;
            const float neighbours = 0.5f * (mid[prev] + mid[ring.first_bit + p]);
            ratio[ring.first_bit + p] = at_start / std::max(neighbours, 0.5f * palette.third_level);
        }
    }
#ifdef ACC_VISION_DEBUG
    ACC_TRACE("  ratio");
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) ACC_TRACE(" %.2f", ratio[i]);
    ACC_TRACE("\n  peak");
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) ACC_TRACE(" %.2f", peak[i]);
    ACC_TRACE("\n");
#endif
    double lo, hi, spread;
    split(ratio, ACC_RING_POSITIONS, 0.2f, 0.95f, lo, hi, spread);
    const double threshold = 0.5 * (lo + hi);
    // Log-likelihood ratio of two equal-spread Gaussians: (hi - lo)(t - x) / spread².
    const double spread_floor = std::max({0.03, spread, (hi - lo) / 10.0});
    const double slope = (hi - lo) / (spread_floor * spread_floor);
    stats.gap_separation = (hi - lo) / std::max(1e-3, spread);
    stats.visible = 0;
    stats.uncertain = 0;
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
        const float p = std::clamp(sigmoid((threshold - ratio[i]) * slope), 0.005f, 0.995f);
        obs.p_arc_start[i] = p;
        stats.visible += p > 0.5f ? 1 : 0;
        stats.uncertain += (p > 0.2f && p < 0.8f) ? 1 : 0;
    }
    double clo, chi, cspread;
    split(peak, ACC_RING_POSITIONS, palette.third_level, 1.0f, clo, chi, cspread);
    const double cthreshold = 0.5 * (clo + chi);
    const double cspread_floor = std::max({0.03, cspread, (chi - clo) / 10.0});
    const double cslope = (chi - clo) / (cspread_floor * cspread_floor);
    stats.color_separation = (chi - clo) / std::max(1e-3, cspread);
    for (int i = 0; i < ACC_RING_POSITIONS; ++i)
        obs.p_third[i] = std::clamp(sigmoid((cthreshold - peak[i]) * cslope), 0.005f, 0.995f);
}

}  // namespace appclip::vision
