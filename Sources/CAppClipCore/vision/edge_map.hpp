// Canny edges (3x3 Sobel, L1 magnitude, replicated border), the same pixels as cv::Canny,
// without the edge curves too small to matter. The outline search traces contours on them,
// and in textured frames most edge curves are short fragments: tracing them cost more than
// finding the edges (up to ~5 ms of a 720p frame's working level). Hysteresis here grows
// one 8-connected curve at a time, so a curve whose bounding box stays under `min_extent`
// on both sides is dropped whole; no contour of it could have passed the search's size test.
#pragma once
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

namespace appclip::vision {

// |dx| + |dy| of two CV_16S 3x3 Sobel derivatives, CV_16S (under 2044 on 8-bit images).
void l1_magnitude(const cv::Mat& dx, const cv::Mat& dy, cv::Mat& magnitude);

class EdgeMap {
public:
    // `edges` receives CV_8U 255 on edges, 0 elsewhere.
    void trace(const cv::Mat& image, int low, int high, int min_extent, cv::Mat& edges);
    // The same, given the image's derivatives and magnitude as the vote computes them (its
    // border reflected), whose border pixels are rewritten here (replicated border).
    void trace(const cv::Mat& image, cv::Mat& dx, cv::Mat& dy, cv::Mat& magnitude, int low, int high, int min_extent,
               cv::Mat& edges);

private:
    // Derivatives and magnitude at the image's first and last rows and columns with the
    // border replicated, as cv::spatialGradient computes them.
    static void replicate_border(const cv::Mat& image, cv::Mat& dx, cv::Mat& dy, cv::Mat& magnitude);
    // Thinning and hysteresis on the derivatives and magnitude.
    void trace_gradients(const cv::Mat& dx, const cv::Mat& dy, const cv::Mat& magnitude, int low, int high,
                         int min_extent, cv::Mat& edges);

    cv::Mat dx_, dy_, magnitude_;
    // Per pixel, with a one-pixel frame around the image: see the States in edge_map.cpp.
    std::vector<uint8_t> state_;
    std::vector<int> seeds_;   // pixels over `high` (a buffer: its first entries are this trace's)
    // Curve pixels whose neighbours are still to be visited, with their coordinates (in the
    // padded state grid), so that growing a curve divides nothing.
    struct Visit {
        int at, x, y;
    };
    std::vector<Visit> stack_;
    std::vector<int> curve_;   // the pixels of the curve being grown
};

}  // namespace appclip::vision
