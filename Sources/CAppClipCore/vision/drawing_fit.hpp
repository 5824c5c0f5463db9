// Reads ring positions by fitting the code's drawing, blurred, to the pixels.
//
// On a small or blurred code the strokes of neighbouring rings and the short gaps run
// into one another, and sampling along each ring's centre line sees a mixture. Here the
// drawing is split into pieces whose colour the bits decide — each position's stroke and
// the gap at its start — plus the background (with a gradient), the logo and what lies
// outside the disc. Each piece's footprint is rendered through the plane and a Gaussian
// blur; the pieces' colours are then the linear least-squares solution over the code's
// pixels, which undoes the mixing as far as the blur allows. The blur is chosen by the
// residual. Needs the rotation: the pieces sit at the positions of one hypothesis.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "image_view.hpp"
#include "palette.hpp"
#include "position_sampling.hpp"

namespace appclip::vision {

struct DrawingFitStats {
    double blur_px = 0;     // Gaussian sigma chosen
    double rms = 0;         // residual per pixel and channel
    int pixels = 0;
};

class DrawingFit {
public:
    // `oriented` maps centred code units (rotation and mirroring of one hypothesis applied)
    // to pixels. False when the code is too large for this reading (the profiles have the
    // pixels they need), partly outside the frame, or the system cannot be solved.
    bool measure(const Frame& frame, const cv::Matx33d& oriented, const CodePalette& palette,
                 PositionMeasures& out, DrawingFitStats& stats);

    // After `measure` on the same plane: the strokes' ink again with each arc one piece
    // (arcs from the hard gap decisions in `p_arc_start`), far better conditioned than a
    // piece per position. Fills `stroke_ink` only.
    bool measure_arcs(const Frame& frame, const cv::Matx33d& oriented, const float* p_arc_start,
                      PositionMeasures& out);

private:
    struct Cover {
        int pixel;   // index in the region of interest
        int piece;
        float weight;
    };
    // `remap` (or null) renames pieces before they are covered.
    bool cover(const Frame& frame, const cv::Matx33d& oriented, int samples_per_px, const int* remap);
    cv::Vec3f colour(int piece) const;
    bool solve_for_blur(double sigma, double& sse);

    cv::Rect roi_;
    std::vector<Cover> covers_, by_piece_, blurred_;
    std::vector<int> piece_start_;
    std::vector<int> observed_;            // ROI pixel → row index, or −1
    std::vector<cv::Vec3f> values_;        // per row: the pixel's colour
    std::vector<int> row_start_, row_fill_;  // counting sort of blurred_ by row
    std::vector<Cover> rows_;
    std::vector<cv::Rect> piece_box_;
    cv::Mat1f canvas_;
    cv::Mat1d normal_, rhs_, solution_, best_;
    double best_sse_ = 0;
    double blur_px_ = 1;
    int samples_per_px_ = 2;
    CodePalette fitted_;
    std::vector<float> sorted_;
};

}  // namespace appclip::vision
