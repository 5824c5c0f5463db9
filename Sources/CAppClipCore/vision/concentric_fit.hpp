// Sub-pixel homography (up to an in-plane rotation) from the five ring strokes: every
// stroke centre found across a ring must map back onto its circle of known radius.
// Concentric circles of known radii fix the plane up to a rotation about their centre,
// so the fit has 7 parameters (a general homography less that rotation).
#pragma once
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>

#include "code_geometry.hpp"
#include "image_view.hpp"

namespace appclip::vision {

struct FitQuality {
    int points = 0;           // stroke centres used in the last solve
    double rms = 0;           // their RMS radial residual, code units
    double coverage[5] = {};  // per ring: fraction of rays where a stroke was found
    double contrast = 0;      // luma difference stroke − background (signed: >0 light strokes)
};

// Luma of the five ring centre lines minus that of the bands between them, scaled to a
// stroke's full contrast (strokes cover ~3/4 of a ring): > 0 light strokes, < 0 dark,
// near 0 when `h` does not put the rings on the code's rings. With a ring range (0-based,
// inclusive), only those rings and the bands between them count.
double ring_contrast(const Frame& frame, const cv::Matx33d& h, int first_ring = 0, int last_ring = kRings - 1);
// ring_contrast with the code's background outside ring 5 (up to the rim) counted among the
// bands: a plane grown past the rim then puts those samples on whatever lies around the code,
// and loses contrast where a surround darker than the code's background would add to it.
double ring_contrast_in_disc(const Frame& frame, const cv::Matx33d& h);
// The least ring contrast (grey levels between strokes and the bands between) a fit starts from.
constexpr double kMinRingContrast = 6.0;

class ConcentricFit {
public:
    // Refines `h` in place (centred code units → pixels). False when the rings are not there.
    // `polarity` (+1 light strokes, −1 dark, 0 unknown) comes from the rough fit, whose
    // ellipse may be any one of the five rings: the fit finds out which.
    bool refine(const Frame& frame, cv::Matx33d& h, double polarity, FitQuality& quality);

private:
    struct Observation {
        cv::Point2d image;
        double radius;
    };
    // Along the ray of direction (c, s) from the code's centre, across the ring of `radius`.
    bool stroke_on_ray(const Frame& frame, const cv::Matx33d& h, double radius, double c, double s, double polarity,
                       double magnitude, cv::Point2d& centre);
    // The likeliest ring shifts (two when they are close); returns how many.
    int identify_ring(const Frame& frame, const cv::Matx33d& h, double polarity, double magnitude, int shifts[2]);
    // Fits from `h`, whose ring `start_ring` (0-based) is taken to be on its stroke.
    bool refine_from(const Frame& frame, cv::Matx33d& h, double polarity, FitQuality& quality, int start_ring);
    bool ring_by_ring(const Frame& frame, cv::Matx33d& h, double contrast, int start_ring);
    void find_strokes(const Frame& frame, const cv::Matx33d& h, double contrast, FitQuality& quality);
    void solve(cv::Matx33d& h, FitQuality& quality);

    std::vector<Observation> observations_;
    std::vector<cv::Point2d> rectified_;
    std::vector<double> radial_scales_;   // solve: each point's radial pixels per code unit, over their mean
    std::vector<cv::Point2f> ring_points_, kept_;
};

}  // namespace appclip::vision
