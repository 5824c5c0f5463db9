#include "position_sampling.hpp"

#include <algorithm>
#include <cmath>

#include "added_light.hpp"
#include "code_geometry.hpp"
#include "homography.hpp"
#include "local_colours.hpp"
#include "debug_log.hpp"
#include "small_solve.hpp"

namespace appclip::vision {
namespace {

// Every ring position's middle, as a code-plane angle (radians) with its cosine and sine,
// computed once.
struct PositionDirections {
    double angle[ACC_RING_POSITIONS], c[ACC_RING_POSITIONS], s[ACC_RING_POSITIONS];
    PositionDirections() {
        for (const Ring& ring : CodeGeometry::get().rings)
            for (int p = 0; p < ring.positions; ++p) {
                const int i = ring.first_bit + p;
                angle[i] = (ring.rotation_deg + (p + 0.5) * 360.0 / ring.positions) * kDeg;
                c[i] = std::cos(angle[i]), s[i] = std::sin(angle[i]);
            }
    }
};

const PositionDirections& position_directions() {
    static const PositionDirections table;
    return table;
}

// The two profile bins around ring angle `beta_deg` and the weight of the second.
struct BinPair {
    int i0, i1;
    float f;
};

// std::floor without the library call (a call per tap otherwise), for |x| < 2^63.
double floor_of(double x) {
    const double t = static_cast<double>(static_cast<long long>(x));
    return t > x ? t - 1.0 : t;
}

BinPair bins_at(double beta_deg) {
    double x = beta_deg / RingProfiles::kBinDeg - 0.5;
    x -= floor_of(x / RingProfiles::kBins) * RingProfiles::kBins;
    const int i0 = static_cast<int>(x) % RingProfiles::kBins;
    return {i0, (i0 + 1) % RingProfiles::kBins, static_cast<float>(x - floor_of(x))};
}

float ink_at(const RingProfiles& p, int ring, double beta_deg) {
    const BinPair b = bins_at(beta_deg);
    const float* ink = p.ink.data() + ring * RingProfiles::kBins;
    return ink[b.i0] + b.f * (ink[b.i1] - ink[b.i0]);
}

// Ring angle of tap t (−2..2) of the window [alpha - half, alpha + half] (code-plane
// degrees) under a hypothesis.
double tap(const RotationHypothesis& h, double alpha, double half, int t) {
    const double a = alpha + half * t / 2.0;
    return h.mirrored ? h.theta_deg - a : h.theta_deg + a;
}

// Mean ink over the window.
float window_ink(const RingProfiles& p, int ring, const RotationHypothesis& h, double alpha, double half) {
    float sum = 0;
    for (int t = -2; t <= 2; ++t) sum += ink_at(p, ring, tap(h, alpha, half, t));
    return sum / 5.f;
}

// Whether every bin the window's taps read is reliable.
bool window_reliable(const RingProfiles& p, int ring, const RotationHypothesis& h, double alpha, double half) {
    const unsigned char* ok = p.reliable.data() + ring * RingProfiles::kBins;
    for (int t = -2; t <= 2; ++t) {
        const BinPair b = bins_at(tap(h, alpha, half, t));
        if (!ok[b.i0] || !ok[b.i1]) return false;
    }
    return true;
}

// Highest ink over the same window: blur dilutes a short arc's colour least at its peak.
float window_peak(const RingProfiles& p, int ring, const RotationHypothesis& h, double alpha, double half) {
    float best = -1e9f;
    for (int t = -2; t <= 2; ++t) best = std::max(best, ink_at(p, ring, tap(h, alpha, half, t)));
    return best;
}

// Two-means split of 1-D values; returns the two class means and the pooled spread, and
// the smaller class's size. Values with `use[i]` false (when given) are left out.
int split(const float* v, int n, float lo_init, float hi_init, double& lo, double& hi, double& spread,
          const bool* use = nullptr) {
    lo = lo_init;
    hi = hi_init;
    for (int iter = 0; iter < 10; ++iter) {
        const double t = 0.5 * (lo + hi);
        double sl = 0, sh = 0;
        int nl = 0, nh = 0;
        for (int i = 0; i < n; ++i)
            if (use == nullptr || use[i]) (v[i] < t ? (sl += v[i], ++nl) : (sh += v[i], ++nh));
        const double lo_was = lo, hi_was = hi;
        if (nl > 0) lo = sl / nl;
        if (nh > 0) hi = sh / nh;
        // Means that stay put give the same split again: the rest would repeat it.
        if (lo == lo_was && hi == hi_was) break;
    }
    const double t = 0.5 * (lo + hi);
    double ss = 0;
    int used = 0, below = 0;
    for (int i = 0; i < n; ++i) {
        if (use != nullptr && !use[i]) continue;
        const double d = v[i] - (v[i] < t ? lo : hi);
        ss += d * d;
        ++used;
        below += v[i] < t ? 1 : 0;
    }
    spread = std::sqrt(ss / std::max(1, used));
    return std::min(below, used - below);
}

// The two colour classes of arc values (`use[i]` false left out): of two-means splits
// started from the palette's third level and from a ladder of others, the one that
// separates best (class distance over pooled spread), with a few arcs in each class.
// The palette's third colour alone is a poor start: its cluster takes in blur's mixtures
// of stroke and background, so it can sit well below the arcs' own third class, and a
// split from there settles on a tail of faded arcs (a highlight's fringe, a small code's
// short arcs) with the true classes lumped together. The starts are scaled to the arcs'
// upper values: before a gain fit the ink may sit on another scale (the drawing fit's).
// False when no split has both colours.
bool split_colours(const float* v, int n, const bool* use, double level, double& lo, double& hi, double& spread) {
    constexpr int kMinClass = 4;               // arcs of each colour
    constexpr double kMinSpread = 0.02;        // of the upper class, as separations go
    constexpr double kStarts[] = {0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    float upper[ACC_RING_POSITIONS];
    int m = 0;
    for (int i = 0; i < n && m < ACC_RING_POSITIONS; ++i)
        if (use[i]) upper[m++] = v[i];
    if (m < 2 * kMinClass) return false;
    const int at = m * 9 / 10;   // the scale: the 90th percentile, which foreground arcs reach
    std::nth_element(upper, upper + at, upper + m);
    const double scale = upper[at];
    if (scale <= 1e-3) return false;
    double best = -1;
    auto consider = [&](double start) {
        double l, h, sp;
        if (split(v, n, static_cast<float>(start * scale), static_cast<float>(scale), l, h, sp, use) < kMinClass) return;
        const double separation = (h - l) / std::max(sp, kMinSpread * std::abs(h));
        if (separation > best) best = separation, lo = l, hi = h, spread = sp;
    };
    consider(level);
    for (const double start : kStarts) consider(start);
    return best >= 0;
}

// The gap line g(level) = a + b · level through the positions judged gaps (weighted by the
// square of their level when `trust_level`, else alike), with the plain ratio's line (0, 0)
// counted as kPriorWeight positions at each of the levels third and 1: the line stays put
// where there are few gaps or they all sit at one level.
cv::Vec2d gap_line(const float* at, const float* level, const bool* known, const bool* gap, float third_level,
                   bool trust_level) {
    constexpr double kPriorWeight = 2;
    cv::Matx22d normal = cv::Matx22d::zeros();
    cv::Vec2d rhs(0, 0);
    auto add = [&](double l, double v, double w) {
        normal(0, 0) += w, normal(0, 1) += w * l, normal(1, 1) += w * l * l;
        rhs[0] += w * v, rhs[1] += w * l * v;
    };
    for (const double l : {static_cast<double>(third_level), 1.0}) add(l, 0.0, kPriorWeight);
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
        if (!known[i] || !gap[i]) continue;
        const double l = std::max(0.f, level[i]);
        add(level[i], at[i], trust_level ? l * l : 1.0);
    }
    normal(1, 0) = normal(0, 1);
    cv::Vec2d line;
    return cv::solve(normal, rhs, line, cv::DECOMP_CHOLESKY) ? line : cv::Vec2d(0, 0);
}

// Where each position's start ink lies between a gap's (0) and a running arc's (1, the
// level of the strokes either side), for classify_positions. On a small code a gap is not
// at the palette's background: blur spills the strokes either side into it (more of a
// bright stroke than of a dim one), and the background colour comes from the bands between
// rings, which the rings either side light up, so a gap between dim third-colour arcs
// reads darker than "background" while the arcs themselves barely rise above it. The
// gap's ink is taken as a line in the level, fitted to this code's gaps: first those the
// plain ratio (gap ink 0) finds, trusted as the square of their level (a ratio to a dim
// level is mostly noise), then those the line itself finds.
void gap_ratios(const float* at, const float* level, const bool* known, float third_level, float* ratio) {
    constexpr int kRounds = 3;
    const double floor_level = 0.5 * third_level;
    cv::Vec2d line(0, 0);
    bool gap[ACC_RING_POSITIONS];
    for (int round = 0; round <= kRounds; ++round) {
        // A dim level's separation is floored at half the third colour's, as the plain
        // ratio's level is: a position whose neighbours show no ink says little.
        const double floor_gap = floor_level * (1 - line[1]) - line[0];
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
            const double g = line[0] + line[1] * level[i];
            ratio[i] = static_cast<float>((at[i] - g) / std::max({level[i] - g, floor_gap, 1e-3}));
        }
        if (round == kRounds) break;
        double lo, hi, spread;
        split(ratio, ACC_RING_POSITIONS, 0.2f, 0.95f, lo, hi, spread, known);
        const double threshold = 0.5 * (lo + hi);
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) gap[i] = ratio[i] < threshold;
        line = gap_line(at, level, known, gap, third_level, round == 0);
        ACC_TRACE("  gap line %.3f %+.3f L\n", line[0], line[1]);
    }
}

float sigmoid(double x) { return static_cast<float>(1.0 / (1.0 + std::exp(-x))); }

// Blur dims a one-position arc, and the ends of longer arcs, whatever their colour; on a
// small code a one-position foreground arc drops to about the third colour's level. Started
// with no fade, the first colour classes put those arcs among the third ones, and the fade fit,
// which learns from the classes, never leaves that. So each group of positions next to one or
// two arc ends starts from its own fade: the brighter of its own two classes against the
// brighter class of arc middles, when the group splits into two classes about as far apart
// as the foreground and third colours are (a group of one colour keeps no fade).
void start_fades(const float* peak, const bool* known, const int* arc_of, const int* ends, double level,
                 double* fade) {
    constexpr int kMinGroup = 6;
    constexpr double kLevelTolerance = 0.15;
    // Ink well beyond the foreground's is no code colour (a finger, tape or shadow over it):
    // two classes of it would pass for foreground and third.
    constexpr float kBeyondForeground = 1.25f;
    float values[ACC_RING_POSITIONS];
    double hi_by_ends[3] = {0, 0, 0};
    for (int e = 0; e <= 2; ++e) {
        int n = 0;
        for (int i = 0; i < ACC_RING_POSITIONS; ++i)
            if (arc_of[i] >= 0 && known[i] && ends[i] == e && peak[i] < kBeyondForeground) values[n++] = peak[i];
        if (n < kMinGroup) continue;
        const float top = *std::max_element(values, values + n);
        double lo, hi, spread;
        split(values, n, static_cast<float>(level) * top, top, lo, hi, spread);
        if (hi <= 1e-3 || std::abs(lo / hi - level) > kLevelTolerance) continue;
        hi_by_ends[e] = hi;
    }
    if (hi_by_ends[0] <= 0) return;
    for (int e = 1; e <= 2; ++e)
        if (hi_by_ends[e] > 0) fade[e] = std::clamp(hi_by_ends[e] / hi_by_ends[0], 0.2, 1.0);
}

// Arc colours fade across a code with the light (glare, vignetting, a gradient) and with
// blur on a tilted code's foreshortened side, so one foreground/third threshold for the
// whole code misreads the faded side. A smooth gain over the code-plane angle (Fourier
// terms up to 2θ), fitted together with the arc classes it explains (a few rounds of
// alternating), divides that out of `peak`. Blur also fades the ends of arcs (a
// one-position arc most, both its ends are in the window): positions next to one or two
// arc ends get a fade factor of their own, fitted the same way. On small codes, short
// foreground arcs otherwise fall among long third-colour ones. Arcs come from the hard
// gap decisions.
// On success `lo`, `hi`, `spread` describe the two colour classes over arcs (each arc
// counted once, however long), which is how the codec reads them.
// Positions whose ink is not known (`m.ink_known`) take no part. With `light` other than
// none, light over a part of the code is first estimated from the placed positions of `m`
// and taken off the ink (false when none is found); `washed` marks the positions where it
// left too little ink to read.
bool even_out_arc_gain(const PositionMeasures& m, const float* p_arc_start, float third_level, LightOver light,
                       float* peak, bool* washed, double& lo, double& hi, double& spread) {
    const bool* known = m.ink_known;
    // Where light over the code takes off more than this share of the arcs' ink, what is
    // left is too little to tell the colours by: an erasure.
    constexpr double kWashed = 0.6;
    constexpr int kTerms = 5;
    constexpr int kRounds = 6;
    constexpr int kMinArcs = 24;
    constexpr int kMinFadePositions = 3;
    const CodeGeometry& g = CodeGeometry::get();
    // 1, cos θ, sin θ, cos 2θ, sin 2θ at every position's middle, computed once.
    struct Basis {
        double at[ACC_RING_POSITIONS][kTerms];
        Basis() {
            const PositionDirections& d = position_directions();
            for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
                double* b = at[i];
                b[0] = 1, b[1] = d.c[i], b[2] = d.s[i], b[3] = std::cos(2 * d.angle[i]), b[4] = std::sin(2 * d.angle[i]);
            }
        }
    };
    static const Basis table;
    const auto& basis = table.at;
    int arc_of[ACC_RING_POSITIONS];
    int ends[ACC_RING_POSITIONS];  // arc ends next to the position: 0, 1 or 2
    int arcs = 0;
    for (int k = 0; k < kRings; ++k) {
        const Ring& ring = g.rings[k];
        int start = -1;
        for (int p = 0; p < ring.positions && start < 0; ++p)
            if (p_arc_start[ring.first_bit + p] > 0.5f) start = p;
        for (int p = 0; p < ring.positions; ++p) arc_of[ring.first_bit + p] = -1, ends[ring.first_bit + p] = 0;
        if (start < 0) continue;
        for (int j = 0; j < ring.positions; ++j) {
            const int p = (start + j) % ring.positions, next = (p + 1) % ring.positions;
            if (p_arc_start[ring.first_bit + p] > 0.5f) ++arcs;
            arc_of[ring.first_bit + p] = arcs - 1;
            ends[ring.first_bit + p] = (p_arc_start[ring.first_bit + p] > 0.5f ? 1 : 0) +
                                       (p_arc_start[ring.first_bit + next] > 0.5f ? 1 : 0);
        }
    }
    if (arcs < kMinArcs) return false;
    float gain[ACC_RING_POSITIONS];
    std::fill(gain, gain + ACC_RING_POSITIONS, 1.f);
    double fade[3] = {1.0, 1.0, 1.0};  // by arc ends next to the position
    float arc_value[ACC_RING_POSITIONS];
    int arc_count[ACC_RING_POSITIONS];
    bool arc_known[ACC_RING_POSITIONS];
    double level = third_level;  // third relative to foreground
    // Light over a part of the code, taken off the ink before anything is learned from it.
    float added[ACC_RING_POSITIONS] = {};   // the ink it took off
    if (light != LightOver::none) {
        float top = 0;
        bool use[ACC_RING_POSITIONS];
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) use[i] = arc_of[i] >= 0 && known[i];
        if (!estimate_added_light(m.x, m.y, m.radius_px, peak, use, added, top)) return false;
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
            const float lost = added[i] / top;   // the share of the foreground's ink taken off
            peak[i] = light == LightOver::added ? peak[i] + added[i]
                                                : peak[i] / std::max(1.f - lost, static_cast<float>(1 - kWashed));
            if (light == LightOver::veiled) washed[i] = lost > kWashed;
        }
    }
    start_fades(peak, known, arc_of, ends, level, fade);
    // Each arc's mean of `value(i)` over its known positions, then the two colour classes
    // over the arcs that have one.
    auto split_arcs = [&](auto value) {
        std::fill(arc_value, arc_value + arcs, 0.f);
        std::fill(arc_count, arc_count + arcs, 0);
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
            if (arc_of[i] < 0 || !known[i]) continue;
            arc_value[arc_of[i]] += value(i);
            ++arc_count[arc_of[i]];
        }
        for (int a = 0; a < arcs; ++a) {
            arc_value[a] /= std::max(1, arc_count[a]);
            arc_known[a] = arc_count[a] > 0;
        }
        return split_colours(arc_value, arcs, arc_known, level, lo, hi, spread);
    };
    for (int round = 0; round < kRounds; ++round) {
        if (!split_arcs([&](int i) { return peak[i] / (gain[i] * static_cast<float>(fade[ends[i]])); }) || hi <= 1e-3)
            return false;
        const double threshold = 0.5 * (lo + hi);
        level = std::clamp(lo / hi, 0.05, 0.95);
        // Least squares for peak ≈ gain(θ) · fade(ends) · (1 for foreground arcs, `level` for third).
        cv::Matx<double, kTerms, kTerms> normal = cv::Matx<double, kTerms, kTerms>::zeros();
        cv::Matx<double, kTerms, 1> rhs = cv::Matx<double, kTerms, 1>::zeros();
        double target[ACC_RING_POSITIONS];
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
            if (arc_of[i] < 0 || !known[i]) continue;
            target[i] = arc_value[arc_of[i]] < threshold ? level : 1.0;
            const double t = target[i] * fade[ends[i]];
            for (int r = 0; r < kTerms; ++r) {
                rhs(r) += basis[i][r] * t * peak[i];
                for (int c = r; c < kTerms; ++c) normal(r, c) += basis[i][r] * basis[i][c] * t * t;
            }
        }
        // The lower triangle's terms are the upper one's (the same products, in the same order).
        for (int r = 1; r < kTerms; ++r)
            for (int c = 0; c < r; ++c) normal(r, c) = normal(c, r);
        cv::Matx<double, kTerms, 1> coef;
        if (!solve_cholesky(normal, rhs, coef)) return false;
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
            double v = 0;
            for (int r = 0; r < kTerms; ++r) v += coef(r) * basis[i][r];
            // A gain near zero means the fit has lost its footing: keep the light as it is.
            if (arc_of[i] >= 0 && v < 0.05) return false;
            gain[i] = static_cast<float>(std::max(v, 0.05));
        }
        // Fade at arc ends, relative to the middle of arcs, from the same residuals.
        for (int e = 1; e <= 2; ++e) {
            double num = 0, den = 0;
            int n = 0;
            for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
                if (arc_of[i] < 0 || !known[i] || ends[i] != e) continue;
                const double q = gain[i] * target[i];
                num += peak[i] * q, den += q * q, ++n;
            }
            if (n >= kMinFadePositions && den > 1e-9) fade[e] = std::clamp(num / den, 0.2, 1.5);
        }
    }
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
        const float scale = gain[i] * static_cast<float>(fade[ends[i]]);
        if (light == LightOver::added) washed[i] = added[i] > kWashed * scale;
        peak[i] /= scale;
    }
    return split_arcs([&](int i) { return peak[i]; }) && hi > lo;
}

}  // namespace

bool classify_positions(const PositionMeasures& m, float third_level, acc_ring_observation& obs,
                        SamplingStats& stats, LightOver light, double local_width) {
    if (light != LightOver::none && !m.placed) return false;
    double lo, hi, spread;
    split(m.gap_ratio, ACC_RING_POSITIONS, 0.2f, 0.95f, lo, hi, spread, m.gap_known);
    const double threshold = 0.5 * (lo + hi);
    // Log-likelihood ratio of two equal-spread Gaussians: (hi - lo)(t - x) / spread².
    const double spread_floor = std::max({0.03, spread, (hi - lo) / 10.0});
    const double slope = (hi - lo) / (spread_floor * spread_floor);
    stats.gap_separation = (hi - lo) / std::max(1e-3, spread);
    stats.visible = 0;
    stats.uncertain = 0;
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
        const float p = m.gap_known[i] ? std::clamp(sigmoid((threshold - m.gap_ratio[i]) * slope), 0.005f, 0.995f) : 0.5f;
        obs.p_arc_start[i] = p;
        stats.visible += p > 0.5f ? 1 : 0;
        stats.uncertain += (p > 0.2f && p < 0.8f) ? 1 : 0;
    }
    float peak[ACC_RING_POSITIONS];
    std::copy(m.stroke_ink, m.stroke_ink + ACC_RING_POSITIONS, peak);
    double clo, chi, cspread;
    bool washed[ACC_RING_POSITIONS] = {};
    // Local thresholds start from the plain reading's evened-out ink and classes.
    const LightOver taken_off = light == LightOver::local ? LightOver::none : light;
    if (!even_out_arc_gain(m, obs.p_arc_start, third_level, taken_off, peak, washed, clo, chi, cspread)) {
        // Asked to allow for light over the code: without any found, the reading is the plain one.
        if (light != LightOver::none) return false;
        split(peak, ACC_RING_POSITIONS, third_level, 1.0f, clo, chi, cspread, m.ink_known);
    }
    const double cthreshold = 0.5 * (clo + chi);
    const double cspread_floor = std::max({0.03, cspread, (chi - clo) / 10.0});
    const double cslope = (chi - clo) / (cspread_floor * cspread_floor);
    stats.color_separation = (chi - clo) / std::max(1e-3, cspread);
    float colour_threshold[ACC_RING_POSITIONS], share[ACC_RING_POSITIONS];
    if (light == LightOver::local) {
        local_colour_thresholds(m.x, m.y, m.ink_known, peak, m.radius_px, local_width, clo, chi, colour_threshold, share);
    } else {
        std::fill(colour_threshold, colour_threshold + ACC_RING_POSITIONS, static_cast<float>(cthreshold));
        std::fill(share, share + ACC_RING_POSITIONS, 1.f);
    }
    for (int i = 0; i < ACC_RING_POSITIONS; ++i)
        obs.p_third[i] = m.ink_known[i] && !washed[i]
                             ? std::clamp(sigmoid((colour_threshold[i] - peak[i]) * cslope * share[i]), 0.005f, 0.995f)
                             : 0.5f;
    return true;
}

void measure_positions(const RingProfiles& profiles, const CodePalette& palette, const RotationHypothesis& hyp,
                       PositionMeasures& m) {
    const CodeGeometry& g = CodeGeometry::get();
    m.placed = false;
    float mid[ACC_RING_POSITIONS], at_start[ACC_RING_POSITIONS], beside[ACC_RING_POSITIONS];
    for (int k = 0; k < kRings; ++k) {
        const Ring& ring = g.rings[k];
        const double pitch = 360.0 / ring.positions;
        const double mid_half = 0.5 * (0.5 * pitch - ring.half_gap_deg) + 0.5 * ring.cap_deg;
        for (int p = 0; p < ring.positions; ++p) {
            const double start = ring.rotation_deg + p * pitch;
            mid[ring.first_bit + p] = window_ink(profiles, k, hyp, start + 0.5 * pitch, mid_half);
            m.stroke_ink[ring.first_bit + p] = window_peak(profiles, k, hyp, start + 0.5 * pitch, mid_half);
            m.ink_known[ring.first_bit + p] = window_reliable(profiles, k, hyp, start + 0.5 * pitch, mid_half);
        }
        const double gap_half = 0.6 * (ring.half_gap_deg - ring.cap_deg);
        for (int p = 0; p < ring.positions; ++p) {
            const double start = ring.rotation_deg + p * pitch;
            const int i = ring.first_bit + p;
            const int prev = ring.first_bit + (p + ring.positions - 1) % ring.positions;
            at_start[i] = window_ink(profiles, k, hyp, start, gap_half);
            // A gap is judged against the strokes either side: all three must be seen.
            m.gap_known[i] = window_reliable(profiles, k, hyp, start, gap_half) && m.ink_known[prev] && m.ink_known[i];
            beside[i] = 0.5f * (mid[prev] + mid[i]);
        }
    }
    gap_ratios(at_start, beside, m.gap_known, palette.ring_third_level, m.gap_ratio);
#ifdef ACC_VISION_DEBUG
    ACC_TRACE("  ratio");
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) ACC_TRACE(" %.2f", m.gap_ratio[i]);
    ACC_TRACE("\n  peak");
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) ACC_TRACE(" %.2f", m.stroke_ink[i]);
    ACC_TRACE("\n");
#endif
}

void place_positions(const cv::Matx33d& plane, PositionMeasures& m) {
    const CodeGeometry& g = CodeGeometry::get();
    const PositionDirections& d = position_directions();
    for (const Ring& ring : g.rings)
        for (int i = ring.first_bit; i < ring.first_bit + ring.positions; ++i) {
            const cv::Point2d at = apply(plane, ring.radius * d.c[i], ring.radius * d.s[i]);
            m.x[i] = static_cast<float>(at.x), m.y[i] = static_cast<float>(at.y);
        }
    // The code's radius in the image: the rim's mean distance from the centre.
    const cv::Point2d centre = apply(plane, 0, 0);
    double sum = 0;
    for (int q = 0; q < 8; ++q) {
        const cv::Point2d r = apply(plane, g.disc_radius * std::cos(q * kPi / 4), g.disc_radius * std::sin(q * kPi / 4));
        sum += std::hypot(r.x - centre.x, r.y - centre.y);
    }
    m.radius_px = sum / 8;
    m.placed = true;
}

void sample_positions(const RingProfiles& profiles, const CodePalette& palette, const RotationHypothesis& hyp,
                      acc_ring_observation& obs, SamplingStats& stats) {
    PositionMeasures m;
    measure_positions(profiles, palette, hyp, m);
    classify_positions(m, palette.ring_third_level, obs, stats);
}

}  // namespace appclip::vision
