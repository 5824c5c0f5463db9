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
    // Converges from guesses within about half a ring spacing. False when the rings are
    // not there (no significant contrast) or the plane runs away.
    bool align(const Frame& frame, cv::Matx33d& h, AlignmentQuality& quality);

private:
    // Weighted squared residual of the best a + b·template through `h` (< 0: too few samples).
    double cost(const Frame& frame, const cv::Matx33d& h, double sigma, AlignmentQuality& quality);
    void reweight();
    // One Gauss-Newton step with template blur `sigma` (code units); false when no step
    // lowers the cost (converged, or singular).
    bool step(const Frame& frame, cv::Matx33d& h, double sigma, AlignmentQuality& quality);

    std::vector<cv::Point2d> grid_;   // radius-major: kGridAngles points per radius
    std::vector<cv::Vec3f> radius_template_;   // per grid radius: template, slope, ring band   // code-plane sample points (centred units)
    std::vector<float> values_;       // their luma
    std::vector<float> templates_, slopes_, zones_;   // per grid point: template, slope, ring band
    std::vector<float> residuals_;
    std::vector<float> weights_;      // robust (Huber) weights from the last step's residuals
};

}  // namespace appclip::vision
