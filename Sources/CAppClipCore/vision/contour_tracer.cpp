#include "contour_tracer.hpp"

#include <algorithm>
#include <cstring>

namespace appclip::vision {

namespace {
// Direction k's step: 0 right, then anticlockwise on screen (y grows downwards).
constexpr int kStepX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kStepY[8] = {0, -1, -1, -1, 0, 1, 1, 1};
constexpr int kLeft = 4, kRight = 0;
}  // namespace

void ContourTracer::trace(const cv::Mat& binary) {
    CV_Assert(binary.type() == CV_8UC1);
    points_.clear();
    spans_.clear();
    const int w = binary.cols, h = binary.rows;
    stride_ = w + 2;
    // Every pixel is written below but the frame's: only its rows and columns are cleared.
    labels_.resize(static_cast<size_t>(stride_) * (h + 2));
    std::fill(labels_.begin(), labels_.begin() + stride_, 0);
    std::fill(labels_.end() - stride_, labels_.end(), 0);
    for (int k = 0; k < 8; ++k) offsets_[k] = kStepY[k] * stride_ + kStepX[k];
    for (int y = 0; y < h; ++y) {
        const uint8_t* in = binary.ptr<uint8_t>(y);
        int8_t* out = labels_.data() + static_cast<size_t>(y + 1) * stride_;
        out[0] = out[w + 1] = 0;
        for (int x = 0; x < w; ++x) out[x + 1] = in[x] != 0 ? 1 : 0;
    }
    // Row by row, one past the image's last column so that a region touching the right edge
    // meets the frame's background there. Edge maps are mostly background: eight background
    // pixels after a background pixel hold no border start and are passed over at once.
    for (int y = 1; y <= h; ++y) {
        const int row = y * stride_;
        for (int x = 1; x <= w + 1; ++x) {
            const int here = row + x;
            const int8_t left = labels_[here - 1];
            if (left == 0 && x + 8 <= w + 2) {
                uint64_t eight;
                std::memcpy(&eight, labels_.data() + here, sizeof eight);
                if (eight == 0) {
                    x += 7;
                    continue;
                }
            }
            if (labels_[here] == 1 && left == 0) {
                follow(here, kLeft);   // an outer border: background before the region
            } else if (labels_[here] == 0 && left >= 1) {
                follow(here - 1, kRight);   // a hole border: background after the region
            }
        }
    }
    // findContours lists the border found last first.
    std::reverse(spans_.begin(), spans_.end());
}

void ContourTracer::follow(int start, int from) {
    const size_t begin = points_.size();
    int x = start % stride_ - 1, y = start / stride_ - 1;
    // The border's last pixel before it returns to `start`: the first region pixel clockwise
    // from the background neighbour.
    int d = from;
    do {
        d = (d + 7) & 7;
    } while (labels_[start + offsets_[d]] == 0 && d != from);
    if (labels_[start + offsets_[d]] == 0) {
        labels_[start] = -2;   // a lone pixel: its right neighbour is background
        points_.emplace_back(x, y);
        spans_.push_back({begin, 1});
        return;
    }
    const int last = start + offsets_[d];
    int here = start;
    int back = d;   // direction from `here` to the border's previous pixel
    for (;;) {
        // The next region pixel anticlockwise from the previous one; the pixel to the right
        // is background seen on this border when the search passes over it.
        bool right_is_background = false;
        int e = back;
        for (;;) {
            e = (e + 1) & 7;
            if (labels_[here + offsets_[e]] != 0) break;
            if (e == kRight) right_is_background = true;
        }
        if (right_is_background) {
            labels_[here] = -2;
        } else if (labels_[here] == 1) {
            labels_[here] = 2;
        }
        points_.emplace_back(x, y);
        const int next = here + offsets_[e];
        if (next == start && here == last) break;
        here = next;
        x += kStepX[e];
        y += kStepY[e];
        back = (e + 4) & 7;
    }
    spans_.push_back({begin, points_.size() - begin});
}

}  // namespace appclip::vision
