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
    // every 5 degrees.
    out.background.clear();
    constexpr int kBackgroundAngles = 72;
    for (int i = 0; i < kBackgroundAngles; ++i) {
        const double a = (i + 0.5) * (360.0 / kBackgroundAngles) * kDeg;
        for (int k = -1; k + 1 < kRings; ++k) {
            const double r = k < 0 ? 0.5 * (g.rings[0].radius - g.half_stroke + 110.0)
                                   : g.rings[k].radius + 0.5 * g.ring_spacing;
            const cv::Point2d p = apply(h, r * std::cos(a), r * std::sin(a));
            cv::Vec3f v;
            if (frame.rgb_at(p.x, p.y, v)) out.background.push_back(v);
        }
    }
    return missing < kRings * RingProfiles::kBins / 4 && out.background.size() > 100;
}

}  // namespace appclip::vision
