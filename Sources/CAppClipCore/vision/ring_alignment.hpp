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
    // `search`: the code may have moved further than the fine template's reach (about half a
    // ring spacing) since the hint was made: shifts on a grid are tried first.
    // `polarity`: the sign of the contrast earlier frames of this code showed (0: unknown). A
    // plane half a ring spacing off fits the template about as well with the opposite sign,
    // so a tracked code's shifts and result are judged by the signed contrast.
    bool align(const Frame& frame, cv::Matx33d& h, AlignmentQuality& quality, bool search, double polarity = 0);

    // A plane for a code centred near `centre` with a diameter (major axis) in [d_lo, d_hi]
    // pixels: the scale whose ring template best matches the mean luma profile along
    // ellipses of `shape` (a circle of radius 1 → the code's outline at major radius 1;
    // identity: frontal), in which noise averages out over all directions. False when
    // nothing was sampled.
    bool initial_plane(const Frame& frame, cv::Point2d centre, double d_lo, double d_hi, const cv::Matx22d& shape,
                       cv::Matx33d& h);

private:
    static constexpr int kProfileAngles = 48;
    // radial_[i]: mean luma `i` steps from `centre` (steps[parity · kProfileAngles + a]);
    // false when too little of a radius lies in the frame.
    bool radial_profile(const Frame& frame, cv::Point2d centre, const cv::Vec2d* steps, int count);
    // The rim radii tried from r_lo to r_hi, with their fits' terms for radial_'s steps.
    void prepare_rims(double r_lo, double r_hi);
    // Of rims_[first, last), the one whose ring template fits radial_ best, and that fit's
    // |t| (0: none).
    double best_rim(size_t first, size_t last, size_t& best_index) const;
    // The template terms for blur `sigma` (code units, kept while it stays the same), and
    // the luma through `h` at every `stride`-th grid point.
    void sample(const Frame& frame, const cv::Matx33d& h, double sigma, int stride = 1);
    // Weighted squared residual of the best a + b·template + c·trend + d·zone on the last
    // sample (< 0: too few samples); keeps the residuals for `reweight`.
    double fit(AlignmentQuality& quality, int stride = 1);
    // Moves `h` by the image shift (on a grid within a few ring spacings) whose rings stand out most.
    void search_shift(const Frame& frame, cv::Matx33d& h, double sigma, double polarity);
    void reweight();
    // One Gauss-Newton step from the sampled `h`; false when no step lowers the cost
    // (converged, or singular).
    bool step(const Frame& frame, cv::Matx33d& h, double sigma, AlignmentQuality& quality);

    struct RadiusTerms {
        float value, slope, zone;   // ring template, its slope, the blurred ring band
        double trend;
    };
    static RadiusTerms terms_at(double rho, double sigma);
    std::vector<cv::Point2d> grid_;           // code-plane points (centred units), kGridAngles per radius
    std::vector<RadiusTerms> radius_terms_;   // per grid radius, for blur terms_sigma_
    double terms_sigma_ = -1;
    std::vector<float> values_;               // luma at the grid points (−1 outside the frame)
    std::vector<float> residuals_;
    std::vector<float> weights_;              // robust (Huber) weights from the last fit's residuals
    std::vector<float> radial_;               // mean luma per radius step (initial_plane)
    double profile_step_ = 0.5;               // pixels between radial_'s radii
    struct RimScale {
        double radius;            // rim, pixels
        int i0, i1, first_row;    // radial_[i0..i1] fitted with rim_rows_[first_row...]
        cv::Matx44d normal, inverse;
    };
    std::vector<RimScale> rims_;              // initial_plane's rim radii
    std::vector<cv::Vec4d> rim_rows_;         // their fits' rows (1, template, trend, zone)
};

}  // namespace appclip::vision
