// Candidate code centres: gradient-direction voting on a small pyramid of the working image.
// Every edge of a circle (disc rim, ring strokes, logo) votes along its gradient line, so
// concentric structures pile votes on their common centre whatever their colours.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

namespace appclip::vision {

struct Candidate {
    cv::Point2d center;      // full-resolution pixels
    double diameter_lo = 0;  // plausible code diameter range, full-resolution pixels
    double diameter_hi = 0;
    float score = 0;
};

class Locator {
public:
    // `work` is the decimated luma; `scale` = full-resolution pixels per working pixel.
    void locate(const cv::Mat& work, double scale, double min_diameter_full, int max_candidates,
                std::vector<Candidate>& out);

private:
    void vote_level(const cv::Mat& image, int level, double scale, std::vector<Candidate>& out);

    std::vector<cv::Mat> levels_;
    cv::Mat dx_, dy_, votes_, smooth_, dilated_;
    std::vector<int> edge_offsets_;
    std::vector<int> histogram_;
};

}  // namespace appclip::vision
