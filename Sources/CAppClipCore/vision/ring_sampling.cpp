#include "ring_sampling.hpp"

#include <algorithm>
#include <cmath>

#include "code_geometry.hpp"
#include "homography.hpp"

namespace appclip::vision {

namespace {

// cos/sin of every bin centre, computed once.
struct BinDirections {
    double c[RingProfiles::kBins], s[RingProfiles::kBins];
    BinDirections() {
        for (int b = 0; b < RingProfiles::kBins; ++b) {
            const double a = (b + 0.5) * RingProfiles::kBinDeg * kDeg;
            c[b] = std::cos(a);
            s[b] = std::sin(a);
        }
    }
};

}  // namespace

bool sample_rings(const Frame& frame, const cv::Matx33d& h, RingProfiles& out) {
    const CodeGeometry& g = CodeGeometry::get();
    static const BinDirections directions;
    out.color.assign(kRings * RingProfiles::kBins, cv::Vec3f());
    out.valid.assign(kRings * RingProfiles::kBins, 0);
    out.background.clear();
    // Three radial taps across the stroke (inside its flat part) average out noise.
    const double offsets[3] = {-0.45 * g.half_stroke, 0.0, 0.45 * g.half_stroke};
    int missing = 0;
    for (int k = 0; k < kRings; ++k) {
        const double r = g.rings[k].radius;
        for (int b = 0; b < RingProfiles::kBins; ++b) {
            const double c = directions.c[b], s = directions.s[b];
            cv::Vec3f sum(0, 0, 0), v;
            int n = 0;
            for (double o : offsets) {
                const cv::Point2d p = apply(h, (r + o) * c, (r + o) * s);
                if (frame.rgb_at(p.x, p.y, v)) sum += v, ++n;
            }
            if (n == 3) {
                out.color[k * RingProfiles::kBins + b] = sum * (1.f / 3.f);
                out.valid[k * RingProfiles::kBins + b] = 1;
            } else {
                ++missing;
            }
        }
    }
    // Background: the bands between rings and the band between the logo and ring 1,
    // kept per 5-degree sector for the lighting estimate below.
    out.background.clear();
    for (auto& sector : out.sector_background) sector = cv::Vec3f(-1, -1, -1);
    float band[kRings];
    for (int i = 0; i < RingProfiles::kSectors; ++i) {
        const double a = (i + 0.5) * (360.0 / RingProfiles::kSectors) * kDeg;
        int n = 0;
        cv::Vec3f values[kRings];
        for (int k = -1; k + 1 < kRings; ++k) {
            const double r = k < 0 ? 0.5 * (g.rings[0].radius - g.half_stroke + 110.0)
                                   : g.rings[k].radius + 0.5 * g.ring_spacing;
            const cv::Point2d p = apply(h, r * std::cos(a), r * std::sin(a));
            cv::Vec3f v;
            if (!frame.rgb_at(p.x, p.y, v)) continue;
            out.background.push_back(v);
            values[n] = v;
            band[n++] = v[0] + v[1] + v[2];
        }
        if (n >= 3) {
            // Median of the bands (a stroke's cap can reach into one of them).
            int order[kRings];
            for (int j = 0; j < n; ++j) order[j] = j;
            std::sort(order, order + n, [&](int x, int y) { return band[x] < band[y]; });
            out.sector_background[i] = values[order[n / 2]];
        }
    }
    return missing < kRings * RingProfiles::kBins / 4 && out.background.size() > 100;
}

namespace {

// Least-squares plane L = a + b X + c Y through (X, Y, L) samples.
bool fit_plane(const std::vector<cv::Vec3f>& samples, double plane[3]) {
    cv::Matx33d ata = cv::Matx33d::zeros();
    cv::Vec3d atb(0, 0, 0);
    for (const auto& s : samples) {
        const cv::Vec3d row(1.0, s[0], s[1]);
        ata += row * row.t();
        atb += row * static_cast<double>(s[2]);
    }
    cv::Vec3d x;
    if (samples.size() < 12 || !cv::solve(ata, atb, x, cv::DECOMP_CHOLESKY)) return false;
    plane[0] = x[0];
    plane[1] = x[1];
    plane[2] = x[2];
    return true;
}

}  // namespace

void even_out_lighting(RingProfiles& out) {
    // Uneven light scales a code's colours smoothly across it: a plane through the
    // levels of one reflectance (the background, or the foreground strokes when the
    // background is too dark to carry the light) gives the gain that flattens it.
    const CodeGeometry& g = CodeGeometry::get();
    static const BinDirections directions;
    std::vector<cv::Vec3f>& samples = out.plane_samples;
    samples.clear();
    double background_sum = 0;
    int background_n = 0;
    for (int i = 0; i < RingProfiles::kSectors; ++i) {
        const cv::Vec3f& b = out.sector_background[i];
        if (b[0] < 0) continue;
        background_sum += b[0] + b[1] + b[2];
        ++background_n;
    }
    double stroke_peak = 0;
    for (size_t i = 0; i < out.color.size(); ++i)
        if (out.valid[i]) stroke_peak = std::max<double>(stroke_peak, out.color[i][0] + out.color[i][1] + out.color[i][2]);
    if (background_n < RingProfiles::kSectors / 2 || stroke_peak < 90) return;
    const bool use_background = background_sum / background_n >= 0.2 * stroke_peak;
    const double mid_radius = 0.5 * (g.rings[0].radius + g.rings[4].radius);
    if (use_background) {
        for (int i = 0; i < RingProfiles::kSectors; ++i) {
            const cv::Vec3f& b = out.sector_background[i];
            if (b[0] < 0) continue;
            const int bin = i * (RingProfiles::kBins / RingProfiles::kSectors);
            samples.emplace_back(static_cast<float>(mid_radius * directions.c[bin]),
                                 static_cast<float>(mid_radius * directions.s[bin]), b[0] + b[1] + b[2]);
        }
    } else {
        // The brightest strokes are foreground; third-colour arcs stay well below them.
        for (int k = 0; k < kRings; ++k)
            for (int b = 0; b < RingProfiles::kBins; b += 2) {
                const int idx = k * RingProfiles::kBins + b;
                const float l = out.color[idx][0] + out.color[idx][1] + out.color[idx][2];
                if (!out.valid[idx] || l < 0.7 * stroke_peak) continue;
                samples.emplace_back(static_cast<float>(g.rings[k].radius * directions.c[b]),
                                     static_cast<float>(g.rings[k].radius * directions.s[b]), l);
            }
    }
    double plane[3];
    if (!fit_plane(samples, plane) || plane[0] <= 1.0) return;
    auto gain_at = [&](double x, double y) {
        const double level = plane[0] + plane[1] * x + plane[2] * y;
        return static_cast<float>(std::clamp(plane[0] / std::max(1.0, level), 0.5, 2.0));
    };
    for (int k = 0; k < kRings; ++k)
        for (int b = 0; b < RingProfiles::kBins; ++b)
            out.color[k * RingProfiles::kBins + b] *=
                gain_at(g.rings[k].radius * directions.c[b], g.rings[k].radius * directions.s[b]);
    out.background.clear();
    for (int i = 0; i < RingProfiles::kSectors; ++i) {
        if (out.sector_background[i][0] < 0) continue;
        const int bin = i * (RingProfiles::kBins / RingProfiles::kSectors);
        out.sector_background[i] *= gain_at(mid_radius * directions.c[bin], mid_radius * directions.s[bin]);
        out.background.push_back(out.sector_background[i]);
    }
}

}  // namespace appclip::vision
