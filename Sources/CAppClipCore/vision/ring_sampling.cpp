#include "ring_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "code_geometry.hpp"
#include "homography.hpp"

namespace appclip::vision {

namespace {

// cos/sin of the N angles (i + 0.5) · step_deg, computed once per table.
template <int N>
struct Directions {
    double c[N], s[N];
    explicit Directions(double step_deg) {
        for (int i = 0; i < N; ++i) {
            const double a = (i + 0.5) * step_deg * kDeg;
            c[i] = std::cos(a);
            s[i] = std::sin(a);
        }
    }
};

}  // namespace

bool sample_rings(const Frame& frame, const cv::Matx33d& h, RingProfiles& out) {
    const CodeGeometry& g = CodeGeometry::get();
    static const Directions<RingProfiles::kBins> directions(RingProfiles::kBinDeg);   // bin centres
    static const Directions<RingProfiles::kBandAngles> bands(1.0);                    // degree centres
    out.color.assign(kRings * RingProfiles::kBins, cv::Vec3f());
    out.valid.assign(kRings * RingProfiles::kBins, 0);
    // Three radial taps across the stroke (inside its flat part) average out noise.
    const double offsets[3] = {-0.45 * g.half_stroke, 0.0, 0.45 * g.half_stroke};
    int missing = 0;
    out.background.clear();
    out.band.assign(RingProfiles::kBands * RingProfiles::kBandAngles, cv::Vec3f());
    out.band_valid.assign(RingProfiles::kBands * RingProfiles::kBandAngles, 0);
    // `inside`: every tap is known to be inside the frame, read without a test per sample.
    auto sample = [&](auto inside) {
        auto rgb = [&](const cv::Point2d& p, cv::Vec3f& v) {
            if constexpr (decltype(inside)::value) return frame.rgb_inside(p.x, p.y, v), true;
            else return frame.rgb_at(p.x, p.y, v);
        };
        for (int k = 0; k < kRings; ++k) {
            const double r = g.rings[k].radius;
            for (int b = 0; b < RingProfiles::kBins; ++b) {
                const double c = directions.c[b], s = directions.s[b];
                cv::Vec3f sum(0, 0, 0), v;
                int n = 0;
                for (double o : offsets)
                    if (rgb(apply(h, (r + o) * c, (r + o) * s), v)) sum += v, ++n;
                if (n == 3) {
                    out.color[k * RingProfiles::kBins + b] = sum * (1.f / 3.f);
                    out.valid[k * RingProfiles::kBins + b] = 1;
                } else {
                    ++missing;
                }
            }
        }
        // The background bands: between rings and between the logo and ring 1, every degree;
        // every fifth sample also feeds the code's background colour.
        for (int j = 0; j < RingProfiles::kBands; ++j) {
            const double r = j == 0 ? 0.5 * (g.rings[0].radius - g.half_stroke + 110.0)
                                    : g.rings[j - 1].radius + 0.5 * g.ring_spacing;
            for (int a = 0; a < RingProfiles::kBandAngles; ++a) {
                // Degree a's centre is bin 2a+1's start, i.e. the shared edge of bins 2a and 2a+1.
                cv::Vec3f v;
                if (!rgb(apply(h, r * bands.c[a], r * bands.s[a]), v)) continue;
                out.band[j * RingProfiles::kBandAngles + a] = v;
                out.band_valid[j * RingProfiles::kBandAngles + a] = 1;
                if (a % 5 == 2) out.background.push_back(v);
            }
        }
    };
    // Ring 5's outer tap is the farthest any sample reaches.
    if (frame.square_inside(h, g.rings[kRings - 1].radius + offsets[2])) sample(std::true_type{});
    else sample(std::false_type{});
    return missing < kRings * RingProfiles::kBins / 4 && out.background.size() > 100;
}

}  // namespace appclip::vision
