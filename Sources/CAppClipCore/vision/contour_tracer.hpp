// The borders of a binary image's regions, as cv::findContours(RETR_LIST, CHAIN_APPROX_NONE)
// gives them (same contours, points and order), into buffers kept across frames:
// findContours allocates one vector per contour, about 1,200 heap allocations a frame on busy
// texture (valgrind). Suzuki and Abe's border following (1985), 8-connected: a raster scan
// starts an outer border where a region begins after background on a row and a hole border
// where background follows a region, and follows each border once. Checked against
// findContours by tools/contour_check.sh.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

namespace appclip::vision {

class ContourTracer {
public:
    // Traces `binary` (CV_8UC1; nonzero is foreground). Pixels on the image's edge are
    // foreground like any other (the image is framed by background).
    void trace(const cv::Mat& binary);

    // Contours in findContours' order (the border found last first).
    size_t count() const { return spans_.size(); }
    size_t size(size_t i) const { return spans_[i].size; }
    // Contour i's points in border order, image coordinates.
    const cv::Point* points(size_t i) const { return points_.data() + spans_[i].begin; }

private:
    struct Span {
        size_t begin, size;
    };
    // Follows the border that starts at `start` (an index into labels_), whose background
    // neighbour lies in direction `from` (0 right, counting anticlockwise on screen), and
    // appends it as the next contour.
    void follow(int start, int from);

    // The image framed by one background pixel: 0 background, 1 region not yet on a followed
    // border, 2 on one, -2 on one where the pixel to its right was found to be background.
    std::vector<int8_t> labels_;
    int stride_ = 0;
    int offsets_[8] = {};   // index steps of the eight directions
    std::vector<cv::Point> points_;
    std::vector<Span> spans_;
};

}  // namespace appclip::vision
