// Colour profiles around the five rings (and background samples between them), taken
// in the rectified plane of a fitted homography whose in-plane rotation is not yet known.
#pragma once
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>

#include "code_geometry.hpp"
#include "image_view.hpp"

namespace appclip::vision {

struct RingProfiles {
    static constexpr int kBins = 720;            // 0.5 degree per bin
    static constexpr double kBinDeg = 360.0 / kBins;
    std::vector<cv::Vec3f> color;                // [ring * kBins + bin], mean RGB over the stroke
    std::vector<unsigned char> valid;            // sample inside the frame
    std::vector<cv::Vec3f> background;           // between rings and inside ring 1, every 5 degrees
    std::vector<float> ink;                      // [ring * kBins + bin]: 0 background, 1 foreground
    // The background bands themselves, every degree: band 0 lies inside ring 1, band k
    // between rings k and k+1. Glare over a stretch of the code shows there as background
    // brighter than the rest of it. Empty when not sampled (profiles fused over frames).
    static constexpr int kBands = 5;
    static constexpr int kBandAngles = 360;
    std::vector<cv::Vec3f> band;                 // [band * kBandAngles + degree]
    std::vector<unsigned char> band_valid;
    bool has_bands() const { return band.size() == static_cast<size_t>(kBands * kBandAngles); }
    // Per ring bin: sampled, and not under disturbed light (set by cluster_palette).
    std::vector<unsigned char> reliable;
};

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

// The ring bins' centres and the band degrees' centres.
const Directions<RingProfiles::kBins>& bin_directions();
const Directions<RingProfiles::kBandAngles>& band_directions();

// Band j's radius in code units (band 0 between the logo and ring 1, band k between rings k
// and k + 1).
double band_radius(int j);

// profiles.background from the bands: every fifth degree's sample.
void collect_background(RingProfiles& profiles);

// `h` maps centred code units to pixels. Returns false when too much falls outside the frame.
bool sample_rings(const Frame& frame, const cv::Matx33d& h, RingProfiles& profiles);

}  // namespace appclip::vision
