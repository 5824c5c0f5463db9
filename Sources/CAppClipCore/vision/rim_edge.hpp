// Snapping a code's outline to its rim: the edge between the code's disc and what lies
// around it, found along rays across the outline and fitted as an ellipse.
#pragma once
#include <array>
#include <vector>

#include <opencv2/core.hpp>

#include "image_view.hpp"

namespace appclip::vision {

class RimEdge {
public:
    // The rim near `outline` (an ellipse a contour or a comb vote gave, a few pixels and
    // percent off), into `snapped`. The rays across the outline show many edges: the rings',
    // the rim's, the ground's. From two starts (the outline, and the ellipse through each
    // ray's outermost edge of the sign most rays end on), the ellipse most rays' edges of one
    // sign lie on is followed; the rim is the one on the most rays (the rings have gaps, the
    // ground's edges do not line up), then fitted again over a narrow band in finer steps.
    // False when no ellipse holds on half the rays near the outline given. A disc of the
    // ground's luma shows no rim: a ring's edge can then come out instead.
    bool snap(const Frame& frame, const cv::RotatedRect& outline, cv::RotatedRect& snapped);

    static constexpr int kRays = 96;

private:
    struct Edge {
        float position;   // pixels from the rays' origin
        float strength;
    };
    // Edges along each ray over [lo, hi] of the outline's radius; false when too few rays
    // lie in the frame.
    bool collect(const Frame& frame, const cv::RotatedRect& outline, double lo, double hi);
    // From the rays' edges of `sign` near `start`: the ellipse through the edges nearest it,
    // refitted on the edges nearest each fit. Returns the rays it holds on (0: none).
    int follow(int sign, const cv::RotatedRect& start, cv::RotatedRect& fitted);

    // The ellipse most of points_ lie on, fitted on those (points_ keeps them): a ring's
    // edges where the rim shows none would pull a plain least-squares fit off.
    cv::RotatedRect consensus_fit();

    cv::Point2d origin_;
    std::array<cv::Point2d, kRays> directions_{};
    std::array<float, kRays> spans_{};   // the outline's radius along each ray (0: ray not usable)
    static constexpr int kEdgesPerRay = 12;
    std::array<std::array<Edge, kEdgesPerRay>, kRays> positive_{}, negative_{};
    std::array<int, kRays> positive_count_{}, negative_count_{};
    int usable_rays_ = 0;
    std::vector<float> profile_, derivative_;
    std::vector<cv::Point2f> points_;
    std::vector<cv::Point2f> sample_;
};

}  // namespace appclip::vision
