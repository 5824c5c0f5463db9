#include "light_field.hpp"

#include <algorithm>
#include <cmath>

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
// The bands must be this much brighter than the rings (linear light: the bands' mean, the
// median of every fourth ring bin) for the background to be the code's lightest colour.
constexpr float kLightBackground = 1.1f;
// Tukey's biweight: residuals past this many robust spreads take no part in the fit.
constexpr double kTukey = 4.685;
constexpr int kReweightings = 4;

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

}  // namespace

bool even_out_light(RingProfiles& profiles, LightFieldScratch& s) {
    if (!profiles.has_bands()) return false;
    const CodeGeometry& g = CodeGeometry::get();
    const LinearLight& linear = linear_light();
    const auto& bands = band_directions();
    const int na = RingProfiles::kBandAngles;
    s.x.clear(), s.y.clear(), s.luma.clear();
    for (int j = 0; j < RingProfiles::kBands; ++j) {
        const double r = band_radius(j) / g.disc_radius;
        for (int a = 0; a < na; ++a) {
            if (!profiles.band_valid[j * na + a]) continue;
            s.x.push_back(static_cast<float>(r * bands.c[a]));
            s.y.push_back(static_cast<float>(r * bands.s[a]));
            s.luma.push_back(linear_luma(linear(profiles.band[j * na + a])));
        }
    }
    if (s.luma.size() < static_cast<size_t>(RingProfiles::kBands * na / 2)) return false;
    // Reweighted least squares with Tukey's biweight, the spread from the residuals' median
    // absolute deviation: stroke ink blurred into a band, a finger or a highlight over a few
    // of them weigh little or nothing.
    double c[3];
    s.weight.assign(s.luma.size(), 1.f);
    for (int iteration = 0;; ++iteration) {
        if (!fit_plane(s, c)) return false;
        if (iteration == 0) {
            // Most codes lie in even light: the plain fit shows it, and nothing more is needed.
            if (std::hypot(c[1], c[2]) < 0.5 * kMinSlope * c[0]) {
                ACC_TRACE("  light field: even (slope %.3f)\n", std::hypot(c[1], c[2]) / c[0]);
                return false;
            }
            // Is the background the lightest colour? Its bands then outshine the rings.
            s.residual.clear();
            for (size_t i = 0; i < profiles.color.size(); i += 4)
                if (profiles.valid[i]) s.residual.push_back(linear_luma(linear(profiles.color[i])));
            if (!(c[0] > kLightBackground * median_of(s.residual))) {
                ACC_TRACE("  light field: background not the lightest (bands %.3f, rings %.3f)\n", c[0], median_of(s.residual));
                return false;
            }
        }
        if (iteration == kReweightings) break;
        s.residual.resize(s.luma.size());
        for (size_t i = 0; i < s.luma.size(); ++i)
            s.residual[i] = std::abs(s.luma[i] - static_cast<float>(c[0] + c[1] * s.x[i] + c[2] * s.y[i]));
        const double scale = std::max(1e-3 * c[0], 1.4826 * median_of(s.residual)) * kTukey;
        for (size_t i = 0; i < s.luma.size(); ++i) {
            const double u = (s.luma[i] - (c[0] + c[1] * s.x[i] + c[2] * s.y[i])) / scale;
            s.weight[i] = std::abs(u) < 1 ? static_cast<float>((1 - u * u) * (1 - u * u)) : 0.f;
        }
    }
    // A plane explains light falling off: what it leaves is noise and blur, far below the
    // field's own rise across the disc. A highlight's bump or an object's shadow is no plane
    // and leaves much more (std hard and held3 glare frames: a quarter to a third of the rise).
    s.residual.resize(s.luma.size());
    for (size_t i = 0; i < s.luma.size(); ++i)
        s.residual[i] = std::abs(s.luma[i] - static_cast<float>(c[0] + c[1] * s.x[i] + c[2] * s.y[i]));
    const double slope = std::hypot(c[1], c[2]) / c[0], left = median_of(s.residual) / c[0];
    ACC_TRACE("  light field: slope %.3f at the rim (towards %.0f deg), residual %.4f\n", slope,
              std::atan2(c[2], c[1]) / kDeg, left);
    if (slope < kMinSlope || slope > kMaxSlope || left * kMinExplained > slope) return false;
    // Each sample's colour as under the field's mean light (1 + slope terms = 1 at the centre).
    const double gx = c[1] / c[0], gy = c[2] / c[0];
    auto even = [&](cv::Vec3f& colour, double x, double y) {
        const float gain = static_cast<float>(1.0 / (1.0 + gx * x + gy * y));
        const cv::Vec3f lin = linear(colour);
        for (int ch = 0; ch < 3; ++ch) colour[ch] = srgb_from_linear(lin[ch] * gain);
    };
    const auto& bins = bin_directions();
    for (int k = 0; k < kRings; ++k) {
        const double r = g.rings[k].radius / g.disc_radius;
        for (int b = 0; b < RingProfiles::kBins; ++b)
            if (profiles.valid[k * RingProfiles::kBins + b])
                even(profiles.color[k * RingProfiles::kBins + b], r * bins.c[b], r * bins.s[b]);
    }
    for (int j = 0; j < RingProfiles::kBands; ++j) {
        const double r = band_radius(j) / g.disc_radius;
        for (int a = 0; a < na; ++a)
            if (profiles.band_valid[j * na + a]) even(profiles.band[j * na + a], r * bands.c[a], r * bands.s[a]);
    }
    collect_background(profiles);
    return true;
}

}  // namespace appclip::vision
