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

void even_out_lighting(RingProfiles& out) {
    // Uneven light scales a code's colours smoothly across it. The brightest thing in
    // each sector (background, or the strokes for a dark background) is one reflectance
    // everywhere, so its level per sector gives a gain that flattens the light.
    constexpr int kPerSector = RingProfiles::kBins / RingProfiles::kSectors;
    // The background is everywhere and one colour, so it is the reference unless it is
    // too dark to carry the light (then the brightest strokes are).
    float from_background[RingProfiles::kSectors], from_strokes[RingProfiles::kSectors];
    double sum_background = 0, sum_strokes = 0;
    int n_background = 0, n_strokes = 0;
    std::vector<float>& luma = out.scratch;
    for (int i = 0; i < RingProfiles::kSectors; ++i) {
        const cv::Vec3f& b = out.sector_background[i];
        from_background[i] = b[0] >= 0 ? b[0] + b[1] + b[2] : 0.f;
        if (from_background[i] > 0) sum_background += from_background[i], ++n_background;
        luma.clear();
        for (int k = 0; k < kRings; ++k)
            for (int j = 0; j < kPerSector; ++j) {
                const int idx = k * RingProfiles::kBins + i * kPerSector + j;
                if (out.valid[idx]) luma.push_back(out.color[idx][0] + out.color[idx][1] + out.color[idx][2]);
            }
        from_strokes[i] = 0;
        if (!luma.empty()) {
            auto q = luma.begin() + (luma.size() * 9) / 10;
            std::nth_element(luma.begin(), q, luma.end());
            from_strokes[i] = *q;
            sum_strokes += *q, ++n_strokes;
        }
    }
    if (n_background < RingProfiles::kSectors / 2 || n_strokes < RingProfiles::kSectors / 2) return;
    const bool use_background = sum_background / n_background >= 0.2 * sum_strokes / n_strokes;
    const float* level = use_background ? from_background : from_strokes;
    float mean = static_cast<float>(use_background ? sum_background / n_background : sum_strokes / n_strokes);
    if (mean < 30.f) return;  // too dark to estimate anything
    float smooth[RingProfiles::kSectors];
    for (int i = 0; i < RingProfiles::kSectors; ++i) {
        float sum = 0;
        int n = 0;
        for (int d = -3; d <= 3; ++d) {
            const float v = level[(i + d + RingProfiles::kSectors) % RingProfiles::kSectors];
            if (v > 0) sum += v, ++n;
        }
        smooth[i] = n > 0 ? sum / n : mean;
    }
    for (int k = 0; k < kRings; ++k)
        for (int b = 0; b < RingProfiles::kBins; ++b) {
            const float gain = mean / std::max(1.f, smooth[b / kPerSector]);
            out.color[k * RingProfiles::kBins + b] *= gain;
        }
    for (int i = 0; i < RingProfiles::kSectors; ++i)
        if (out.sector_background[i][0] >= 0) out.sector_background[i] *= mean / std::max(1.f, smooth[i]);
    out.background.clear();
    for (int i = 0; i < RingProfiles::kSectors; ++i)
        if (out.sector_background[i][0] >= 0) out.background.push_back(out.sector_background[i]);
}

}  // namespace appclip::vision
