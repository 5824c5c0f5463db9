#include "light_field.hpp"

#include <algorithm>
#include <cmath>

#include "circular_quantile.hpp"
#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "linear_light.hpp"

namespace appclip::vision {
namespace {

// The field's slope at the rim, relative to its mean, under which the light counts as even:
// 6 % either way is less than blur or a slightly wrong plane changes the colours.
constexpr double kMinSlope = 0.06;
// Past this the fitted "field" nearly vanishes on one side: not light but something else
// (a plane off by half a ring, a dark object across the bands).
constexpr double kMaxSlope = 0.95;
// The field's slope must be this many times the median residual the plane leaves.
constexpr double kMinExplained = 8;
// The bands must be this much brighter than the rings (linear light: the bands' median, the
// median of every fourth ring bin) for the background to be the code's lightest colour.
constexpr float kLightBackground = 1.1f;
// Tukey's biweight: residuals past this many robust spreads take no part in the fit.
constexpr double kTukey = 4.685;
constexpr int kReweightings = 4;
// Shadows: each band's level along it is the upper quartile of its degrees within this many
// either side (blur mixes the strokes beside a band into it, darker where they are); its
// usual light the median of those levels. Stretches darker or lighter than usual by more
// than the deadband, and not so dark that an object rather than a shadow must lie there
// (left to the palette's covered stretches), are divided out when their rings show ink.
constexpr int kShadowWindow = 5;
constexpr float kShadowDeadband = 0.25f;
constexpr float kMinShadowLight = 0.1f;
// ... and the rings there must show ink (see add_ring_ratios): a ratio nearer the usual
// stretches' than 1, where that is clearly under 1. Dim stretches narrower than a shadow's
// edge makes are blur and noise on small codes; lighter stretches must be wider than a
// highlight's (which, not washing the strokes out wholly, can show ink): they are the lit
// side of a shadow over most of the code.
constexpr float kMaxUsualRatio = 0.75f;
constexpr int kMinDimStretch = 15, kMinLitStretch = 100;

float linear_luma(const cv::Vec3f& linear) { return 0.2126f * linear[0] + 0.7152f * linear[1] + 0.0722f * linear[2]; }

float median_of(std::vector<float>& values) {
    if (values.empty()) return 0.f;
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

// Weighted least squares of luma ≈ c0 + c1 x + c2 y.
bool fit_plane(const LightFieldScratch& s, double c[3]) {
    cv::Matx33d a = cv::Matx33d::zeros();
    cv::Vec3d b(0, 0, 0);
    for (size_t i = 0; i < s.luma.size(); ++i) {
        const double w = s.weight[i];
        if (w <= 0) continue;
        const cv::Vec3d row(1.0, s.x[i], s.y[i]);
        for (int r = 0; r < 3; ++r) {
            b[r] += w * row[r] * s.luma[i];
            for (int q = 0; q < 3; ++q) a(r, q) += w * row[r] * row[q];
        }
    }
    cv::Vec3d solution;
    if (!cv::solve(a, b, solution, cv::DECOMP_CHOLESKY)) return false;
    for (int r = 0; r < 3; ++r) c[r] = solution[r];
    return c[0] > 0;
}

// |luma − plane| at every sample into s.residual.
void absolute_residuals(LightFieldScratch& s, const double c[3]) {
    s.residual.resize(s.luma.size());
    for (size_t i = 0; i < s.luma.size(); ++i)
        s.residual[i] = std::abs(s.luma[i] - static_cast<float>(c[0] + c[1] * s.x[i] + c[2] * s.y[i]));
}

// Whether the code's background is its lightest colour: its bands then outshine the rings.
// Fills s.band_luma.
bool light_background(const RingProfiles& profiles, LightFieldScratch& s) {
    const LinearLight& linear = linear_light();
    const int n = RingProfiles::kBands * RingProfiles::kBandAngles;
    s.band_luma.assign(n, -1.f);
    s.work.clear();
    for (int i = 0; i < n; ++i)
        if (profiles.band_valid[i]) s.work.push_back(s.band_luma[i] = linear_luma(linear(profiles.band[i])));
    if (s.work.size() < static_cast<size_t>(n / 2)) return false;
    const float bands = median_of(s.work);
    s.work.clear();
    for (size_t i = 0; i < profiles.color.size(); i += 4)
        if (profiles.valid[i]) s.work.push_back(linear_luma(linear(profiles.color[i])));
    const float rings = median_of(s.work);
    ACC_TRACE("  light field: bands %.3f, rings %.3f\n", bands, rings);
    return bands > kLightBackground * rings;
}

// Divides `gain(x, y, ring_or_band)`'s inverse out of every ring and band sample (linear light).
template <typename Gain>
void divide_out(RingProfiles& profiles, Gain gain) {
    const CodeGeometry& g = CodeGeometry::get();
    const LinearLight& linear = linear_light();
    auto even = [&](cv::Vec3f& colour, float light) {
        const cv::Vec3f lin = linear(colour);
        for (int ch = 0; ch < 3; ++ch) colour[ch] = srgb_from_linear(lin[ch] / light);
    };
    const auto& bins = bin_directions();
    for (int k = 0; k < kRings; ++k) {
        const double r = g.rings[k].radius / g.disc_radius;
        for (int b = 0; b < RingProfiles::kBins; ++b)
            if (profiles.valid[k * RingProfiles::kBins + b])
                even(profiles.color[k * RingProfiles::kBins + b], gain(r * bins.c[b], r * bins.s[b], b / 2, k, true));
    }
    const auto& bands = band_directions();
    const int na = RingProfiles::kBandAngles;
    for (int j = 0; j < RingProfiles::kBands; ++j) {
        const double r = band_radius(j) / g.disc_radius;
        for (int a = 0; a < na; ++a)
            if (profiles.band_valid[j * na + a])
                even(profiles.band[j * na + a], gain(r * bands.c[a], r * bands.s[a], a, j, false));
    }
}

// The affine field (see even_out_light).
bool even_out_ramp(RingProfiles& profiles, LightFieldScratch& s) {
    const CodeGeometry& g = CodeGeometry::get();
    const auto& bands = band_directions();
    const int na = RingProfiles::kBandAngles;
    s.x.clear(), s.y.clear(), s.luma.clear();
    for (int j = 0; j < RingProfiles::kBands; ++j) {
        const double r = band_radius(j) / g.disc_radius;
        for (int a = 0; a < na; ++a) {
            if (s.band_luma[j * na + a] < 0) continue;
            s.x.push_back(static_cast<float>(r * bands.c[a]));
            s.y.push_back(static_cast<float>(r * bands.s[a]));
            s.luma.push_back(s.band_luma[j * na + a]);
        }
    }
    // Reweighted least squares with Tukey's biweight, the spread from the residuals' median
    // absolute deviation: stroke ink blurred into a band, a finger or a highlight over a few
    // of them weigh little or nothing.
    double c[3];
    s.weight.assign(s.luma.size(), 1.f);
    for (int iteration = 0;; ++iteration) {
        if (!fit_plane(s, c)) return false;
        // Most codes lie in even light: the plain fit shows it, and nothing more is needed.
        if (iteration == 0 && std::hypot(c[1], c[2]) < 0.5 * kMinSlope * c[0]) return false;
        if (iteration == kReweightings) break;
        absolute_residuals(s, c);
        s.work.assign(s.residual.begin(), s.residual.end());
        const double scale = std::max(1e-3 * c[0], 1.4826 * median_of(s.work)) * kTukey;
        for (size_t i = 0; i < s.luma.size(); ++i) {
            const double u = s.residual[i] / scale;
            s.weight[i] = u < 1 ? static_cast<float>((1 - u * u) * (1 - u * u)) : 0.f;
        }
    }
    // A plane explains light falling off: what it leaves is noise and blur, far below the
    // field's own rise across the disc. A highlight's bump or an object's shadow is no plane
    // and leaves much more (held3 hard_00037's highlight: 0.29 of the rise).
    absolute_residuals(s, c);
    const double slope = std::hypot(c[1], c[2]) / c[0], left = median_of(s.residual) / c[0];
    ACC_TRACE("  light field: slope %.3f at the rim (towards %.0f deg), residual %.4f\n", slope,
              std::atan2(c[2], c[1]) / kDeg, left);
    if (slope < kMinSlope || slope > kMaxSlope || left * kMinExplained > slope) return false;
    // Each sample's colour as under the field's mean light (1 + slope terms = 1 at the centre).
    const double gx = c[1] / c[0], gy = c[2] / c[0];
    divide_out(profiles, [&](double x, double y, int, int, bool) { return static_cast<float>(1.0 + gx * x + gy * y); });
    for (int i = 0; i < RingProfiles::kBands * na; ++i)
        if (profiles.band_valid[i]) s.band_luma[i] = linear_luma(linear_light()(profiles.band[i]));
    return true;
}

// Appends the rings beside band j against the band's level at degree a (both rings beside
// it). Under a shadow the strokes dim with the background and their ratio to the band stays
// what it is in full light; under an object over the code (tape, a finger, as dark as a
// shadow may be) rings and band read alike, near 1.
void add_ring_ratios(const RingProfiles& profiles, const float* level, int j, int a, std::vector<float>& out) {
    if (level[a] <= 0) return;
    const LinearLight& linear = linear_light();
    for (int k = std::max(0, j - 1); k <= std::min(j, kRings - 1); ++k) {
        const int b = k * RingProfiles::kBins + 2 * a;
        if (profiles.valid[b]) out.push_back(linear_luma(linear(profiles.color[b])) / level[a]);
    }
}

// Shadows with an edge (a hand, the phone): darker stretches of the bands, each band's
// level along it against its usual light.
bool even_out_shadows(RingProfiles& profiles, LightFieldScratch& s) {
    const int na = RingProfiles::kBandAngles, nb = RingProfiles::kBands;
    s.level.resize(nb * na);   // (every band's levels are written below)
    s.field.assign(nb * na, 1.f);
    bool any = false;
    static_assert(2 * kShadowWindow + 1 <= RingProfiles::kBandAngles, "the window fits round the band");
    for (int j = 0; j < nb; ++j) {
        const float* luma = s.band_luma.data() + j * na;
        float* level = s.level.data() + j * na;
        circular_quantiles<kShadowWindow>(luma, na, 3, 4, kShadowWindow, level);
        s.work.clear();
        for (int a = 0; a < na; ++a)
            if (level[a] >= 0) s.work.push_back(level[a]);
        if (s.work.size() < static_cast<size_t>(na / 2)) continue;
        const float usual = median_of(s.work);
        if (!(usual > 0)) continue;
        // Where the light is usual, and the stretches darker or lighter than that: each divided
        // out whole when its rings show ink as the usual ones do (see add_ring_ratios), else
        // left alone (an object over the code; a highlight, which washes the strokes out).
        signed char side[RingProfiles::kBandAngles];
        int start = -1;
        for (int a = 0; a < na; ++a) {
            const float f = level[a] >= 0 ? level[a] / usual : 1.f;
            side[a] = f < kMinShadowLight ? 0 : f < 1.f - kShadowDeadband ? -1 : f > 1.f + kShadowDeadband ? 1 : 0;
            if (side[a] == 0) start = a;
        }
        if (start < 0) continue;
        // The usual degrees' ratio, from every fourth of them.
        s.ratios.clear();
        for (int a = 0; a < na; a += 4)
            if (side[a] == 0) add_ring_ratios(profiles, level, j, a, s.ratios);
        const float usual_ratio = s.ratios.size() < 8 ? 1.f : median_of(s.ratios);
        if (usual_ratio > kMaxUsualRatio) continue;   // strokes too faint to tell a shadow from an object
        // The other stretches, round the circle from a usual degree.
        float* field = s.field.data() + j * na;
        for (int i = 1; i <= na;) {
            const int a = (start + i) % na;
            if (side[a] == 0) {
                ++i;
                continue;
            }
            int length = 0;
            while (length < na && side[(a + length) % na] == side[a]) ++length;
            s.ratios.clear();
            for (int d = 0; d < length; ++d) add_ring_ratios(profiles, level, j, (a + d) % na, s.ratios);
            const float r = s.ratios.size() < 4 ? 1.f : median_of(s.ratios);
            const bool light = length >= (side[a] < 0 ? kMinDimStretch : kMinLitStretch) && r < 0.5f * (1.f + usual_ratio);
            ACC_TRACE("  light band %d: %d degrees from %d at %.2f, rings %.2f of the band (usual %.2f): %s\n", j, length, a,
                      level[(a + length / 2) % na] / usual, r, usual_ratio, light ? "divided out" : "left");
            if (light)
                for (int d = 0; d < length; ++d) field[(a + d) % na] = level[(a + d) % na] / usual;
            any = any || light;
            i += length;
        }
    }
    if (!any) return false;
    // A ring between two bands takes their mean; ring 1 its outer band alone (blur spreads the
    // logo into band 0 on small codes), ring 5 its inner one.
    divide_out(profiles, [&](double, double, int a, int k, bool ring) {
        if (!ring) return s.field[k * na + a];
        return k == 0 ? s.field[na + a] : k + 1 < nb ? 0.5f * (s.field[k * na + a] + s.field[(k + 1) * na + a]) : s.field[k * na + a];
    });
    return true;
}

}  // namespace

bool even_out_light(RingProfiles& profiles, LightFieldScratch& s) {
    if (!profiles.has_bands() || !light_background(profiles, s)) return false;
    const bool ramp = even_out_ramp(profiles, s);
    const bool shadows = even_out_shadows(profiles, s);
    if (ramp || shadows) collect_background(profiles);
    return ramp || shadows;
}

}  // namespace appclip::vision
