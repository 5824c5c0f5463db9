// Direct alignment of the ring pattern to the image, for codes whose stroke edges drown in
// noise or blur (small, dim or noisy frames). Edge-based fitting locates each stroke from
// a few pixels; this compares the whole annulus with a radial template — bright (or dark)
// strokes at the five ring radii, plain bands inside ring 1 and outside ring 5 — so every
// pixel of the code votes. The arcs' gaps are not modelled: they only lower the contrast.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "image_view.hpp"

namespace appclip::vision {

struct AlignmentQuality {
    double contrast = 0;   // fitted stroke − background luma (signed: >0 light strokes)
    double t_stat = 0;     // contrast over its standard error: how surely the rings are there
    int samples = 0;       // grid points inside the frame
};

class RingAlignment {
public:
    // Refines `h` (centred code units → pixels) in place, keeping its in-plane rotation.
    // Starts from a nearby plane (a hint predicted from the last frame). False when the
    // rings are not there (no significant contrast) or the plane runs away.
    bool align(const Frame& frame, cv::Matx33d& h, AlignmentQuality& quality);

private:
    // The template terms for blur `sigma` (code units), and the grid's luma through `h`.
    void sample(const Frame& frame, const cv::Matx33d& h, double sigma);
    // Weighted squared residual of the best a + b·template + c·trend + d·zone on the last
    // sample (< 0: too few samples); keeps the residuals for `reweight`.
    double fit(AlignmentQuality& quality);
    void reweight();
    // One Gauss-Newton step from the sampled `h`; false when no step lowers the cost
    // (converged, or singular).
    bool step(const Frame& frame, cv::Matx33d& h, double sigma, AlignmentQuality& quality);

    struct RadiusTerms {
        float value, slope, zone;   // ring template, its slope, the blurred ring band
        double trend;
    };
    std::vector<cv::Point2d> grid_;           // code-plane points (centred units), kGridAngles per radius
    std::vector<RadiusTerms> radius_terms_;   // per grid radius
    std::vector<float> values_;               // luma at the grid points (−1 outside the frame)
    std::vector<float> residuals_;
    std::vector<float> weights_;              // robust (Huber) weights from the last fit's residuals
};

}  // namespace appclip::vision
