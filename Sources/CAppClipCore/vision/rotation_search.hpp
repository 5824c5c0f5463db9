// The in-plane rotation from the data: each ring's gaps sit on a comb of period 360/N
// shifted by the ring's rotation, so the N-th Fourier coefficient of its "gapness"
// gives the code rotation modulo 360/N. Summing the five rings' responses over θ
// (N = 17, 23, 26, 29, 33) leaves one dominant peak; the next peaks are kept as
// alternatives for the decoder to accept or refuse. Mirror images conjugate the phases.
#pragma once
#include <vector>

#include "homography.hpp"
#include "palette.hpp"
#include "ring_sampling.hpp"

namespace appclip::vision {

struct RotationHypothesis {
    double theta_deg = 0;   // code angle α appears at rectified angle θ + α (θ − α when mirrored)
    bool mirrored = false;
    double score = 0;       // 0..1: mean phase agreement of the five rings
};

// The plane with the hypothesis's rotation and mirroring applied: centred code units (the
// code's own angles) to pixels, from `fitted` (the rectified plane the rings were read on).
inline cv::Matx33d oriented(const cv::Matx33d& fitted, const RotationHypothesis& hyp) {
    const cv::Matx33d h = fitted * rotation(hyp.theta_deg * kDeg);
    return hyp.mirrored ? h * mirror_y() : h;
}

// Returns the strongest hypotheses first (at most `max_count`).
void search_rotation(const RingProfiles& profiles, const CodePalette& palette, bool try_mirrored,
                     int max_count, std::vector<RotationHypothesis>& out);

}  // namespace appclip::vision
