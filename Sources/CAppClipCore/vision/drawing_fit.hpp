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

#include "envelope_cholesky.hpp"
#include "image_view.hpp"
#include "palette.hpp"
#include "position_sampling.hpp"
#include "zero_border_blur.hpp"

namespace appclip::vision {

class DrawingFit {
public:
    static constexpr int kBlurSteps = 6;   // blurs tried (drawing_fit.cpp)
    static constexpr int kMaxBins = 4;     // pixels per side of a bin, at most (larger codes: no fit)

    // `oriented` maps centred code units (rotation and mirroring of one hypothesis applied)
    // to pixels. False when the code is too large for this reading (more than kMaxBins bins
    // of ~280 px across), a piece the bits decide lies wholly outside the frame, or the
    // system cannot be solved.
    bool measure(const Frame& frame, const cv::Matx33d& oriented, const CodePalette& palette,
                 PositionMeasures& out);
    // The bins' size (pixels per side) `measure` fits this plane's code on: 1 up to about
    // 280 px across, then as many as keep the fit's bins that few.
    static int bin_size(const cv::Matx33d& oriented);

    // After `measure`: the strokes' ink again with each arc one unknown (arcs from the hard
    // gap decisions in `p_arc_start`), far better conditioned than one per position. Fills
    // `stroke_ink` only.
    bool measure_arcs(const float* p_arc_start, PositionMeasures& out);

private:
    struct Cover {
        int pixel;   // index in the region of interest (after blurring: the observed row)
        int piece;
        float weight;
    };
    // The box around the disc's rim through `h`.
    static cv::Rect2d disc_box(const cv::Matx33d& h);
    // The mean colour of bin (x, y) (pixels bin_·x .. bin_·x + bin_ − 1 across); false when
    // some of them lie outside the frame.
    bool binned_colour(const Frame& frame, int x, int y, cv::Vec3f& out) const;
    // Renders every piece's coverage of the bins around the code, `samples_per_px`² per bin,
    // `oriented` mapping code units to bins.
    bool cover(const Frame& frame, const cv::Matx33d& oriented, int samples_per_px);
    // A pixel corner mapped to the code plane, with the homography's w there.
    struct Corner {
        cv::Point2d point;
        double w;
    };
    // Corners (x0 - 0.5 + i, y - 0.5), i = 0..width, through `inv` into `out`.
    static void corner_row(const cv::Matx33d& inv, int x0, int y, int width, std::vector<Corner>& out);
    // The piece every sample of ROI column `rx` in the current row lies in, when its corners
    // prove there is one the cheap way (wholly outside the disc or inside the logo), else -1.
    // `c` and `r`: the pixel centre in the code plane and its radius.
    int sole_piece(const cv::Point2d& c, double r, int rx) const;
    // A piece's box in the region: its cover and the blur's reach around it.
    cv::Rect blur_box(int piece, int reach) const;
    // Adds a piece's cover to `canvas` (the piece's box), and collects the blurred box's
    // values at observed pixels into blurred_.
    void render(int piece, const cv::Rect& box, cv::Mat1f& canvas) const;
    void collect(int piece, const cv::Rect& box, const cv::Mat1f& blurred);
    // Every piece's blurred cover into blurred_ (pieces in order): each on a canvas of its
    // own, or all at once on one canvas (see normal_equations).
    void blur_one_by_one(int reach, const cv::Mat& kernel);
    void blur_in_atlas(int reach, const cv::Mat& kernel);
    // Normal equations (normal_, rhs_, energy_) for blur step `step`, and their solution_.
    bool normal_equations(int step);
    static cv::Vec3f colour(const cv::Mat1d& solution, int row);

    cv::Rect roi_;
    std::vector<Cover> covers_, by_piece_, blurred_, rows_;
    std::vector<int> piece_start_, row_start_, fill_;
    std::vector<float> seen_;              // per piece: its coverage of observed pixels
    std::vector<int> observed_;            // ROI pixel → row index, or −1
    std::vector<Corner> corners_above_, corners_below_;   // the current ROI row's pixel corners
    std::vector<double> column_terms_;     // per ROI column and sample: the plane's x products
    std::vector<cv::Vec3f> values_;        // per row: the pixel's colour
    std::vector<cv::Rect> piece_box_;
    std::vector<float> canvas_storage_;   // one piece's blurred footprint at a time
    std::vector<float> atlas_storage_;    // or all of them, each at its spot
    std::vector<cv::Rect> spots_;
    int bin_ = 1;                          // this fit's bin size (pixels per side)
    cv::Mat kernels_[kMaxBins][kBlurSteps];   // per bin size and blur step, built on first use
    BlurScratch blur_scratch_;
    cv::Mat1d normal_, rhs_, solution_;
    // The pieces in angular order (see normal_equations), and the solver that uses it.
    std::vector<int> order_;
    std::vector<int> arc_order_;   // the arc system's unknowns in their own order
    EnvelopeCholesky cholesky_;
    double energy_ = 0;                    // |b|² over the rows
    cv::Mat1d best_normal_, best_rhs_, best_;   // the chosen blur's
    cv::Mat1d arc_normal_, arc_rhs_, arc_solution_;
    CodePalette fitted_;                   // the palette with the fit's own background
};

}  // namespace appclip::vision
