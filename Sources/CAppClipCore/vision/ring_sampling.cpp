#include "ring_sampling.hpp"

#include <algorithm>
#include <cmath>

#include "code_geometry.hpp"
#include "homography.hpp"

namespace appclip::vision {

const Directions<RingProfiles::kBins>& bin_directions() {
    static const Directions<RingProfiles::kBins> table(RingProfiles::kBinDeg);
    return table;
}

const Directions<RingProfiles::kBandAngles>& band_directions() {
    static const Directions<RingProfiles::kBandAngles> table(1.0);
    return table;
}

double band_radius(int j) {
    const CodeGeometry& g = CodeGeometry::get();
    return j == 0 ? 0.5 * (g.rings[0].radius - g.half_stroke + 110.0) : g.rings[j - 1].radius + 0.5 * g.ring_spacing;
}

void collect_background(RingProfiles& profiles) {
    profiles.background.clear();
    for (int j = 0; j < RingProfiles::kBands; ++j)
        for (int a = 2; a < RingProfiles::kBandAngles; a += 5)
            if (profiles.band_valid[j * RingProfiles::kBandAngles + a])
                profiles.background.push_back(profiles.band[j * RingProfiles::kBandAngles + a]);
}

bool sample_rings(const Frame& frame, const cv::Matx33d& h, RingProfiles& out) {
    const CodeGeometry& g = CodeGeometry::get();
    const auto& directions = bin_directions();
    const auto& bands = band_directions();
    out.color.assign(kRings * RingProfiles::kBins, cv::Vec3f());
    out.valid.assign(kRings * RingProfiles::kBins, 0);
    // Three radial taps across the stroke (inside its flat part) average out noise.
    const double offsets[3] = {-0.45 * g.half_stroke, 0.0, 0.45 * g.half_stroke};
    int missing = 0;
    out.band.assign(RingProfiles::kBands * RingProfiles::kBandAngles, cv::Vec3f());
    out.band_valid.assign(RingProfiles::kBands * RingProfiles::kBandAngles, 0);
    // The points are read in batches (see Frame::rgb_at): a third of a ring's bins with their
    // taps, or one band.
    constexpr int kBatch = RingProfiles::kBandAngles;
    constexpr int kBinsPerBatch = kBatch / 3;
    static_assert(RingProfiles::kBins % kBinsPerBatch == 0, "a ring is read in whole batches");
    double x[kBatch], y[kBatch];
    float red[kBatch], green[kBatch], blue[kBatch];
    unsigned char inside[kBatch];
    for (int k = 0; k < kRings; ++k) {
        const double r = g.rings[k].radius;
        for (int first = 0; first < RingProfiles::kBins; first += kBinsPerBatch) {
            // Tap t of bin first + i at t * kBinsPerBatch + i: each tap's loop runs several bins at once.
            for (int t = 0; t < 3; ++t)
                for (int i = 0; i < kBinsPerBatch; ++i) {
                    const double c = directions.c[first + i], s = directions.s[first + i];
                    const cv::Point2d p = apply(h, (r + offsets[t]) * c, (r + offsets[t]) * s);
                    x[t * kBinsPerBatch + i] = p.x, y[t * kBinsPerBatch + i] = p.y;
                }
            frame.rgb_at(x, y, kBatch, red, green, blue, inside);
            for (int i = 0; i < kBinsPerBatch; ++i) {
                const int b = k * RingProfiles::kBins + first + i;
                const int taps[3] = {i, kBinsPerBatch + i, 2 * kBinsPerBatch + i};
                if (!(inside[taps[0]] && inside[taps[1]] && inside[taps[2]])) {
                    ++missing;
                    continue;
                }
                cv::Vec3f sum(0, 0, 0);
                for (int j : taps) sum += cv::Vec3f(red[j], green[j], blue[j]);
                out.color[b] = sum * (1.f / 3.f);
                out.valid[b] = 1;
            }
        }
    }
    // The background bands: between rings and between the logo and ring 1, every degree;
    // every fifth sample also feeds the code's background colour.
    for (int j = 0; j < RingProfiles::kBands; ++j) {
        const double r = band_radius(j);
        // Degree a's centre is bin 2a+1's start, i.e. the shared edge of bins 2a and 2a+1.
        for (int a = 0; a < RingProfiles::kBandAngles; ++a) {
            const cv::Point2d p = apply(h, r * bands.c[a], r * bands.s[a]);
            x[a] = p.x, y[a] = p.y;
        }
        frame.rgb_at(x, y, kBatch, red, green, blue, inside);
        for (int a = 0; a < RingProfiles::kBandAngles; ++a) {
            if (!inside[a]) continue;
            const cv::Vec3f v(red[a], green[a], blue[a]);
            out.band[j * RingProfiles::kBandAngles + a] = v;
            out.band_valid[j * RingProfiles::kBandAngles + a] = 1;
        }
    }
    collect_background(out);
    return missing < kRings * RingProfiles::kBins / 4 && out.background.size() > 100;
}

}  // namespace appclip::vision
