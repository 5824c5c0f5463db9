// A caller's pixels seen through OpenCV headers (never copied), plus sub-pixel sampling.
#pragma once
#include <opencv2/core.hpp>

#include "../format/status.hpp"
#include "appclip_core.h"

namespace appclip::vision {

// Checks planes, sizes and strides; `max_pixels` <= 0 means no limit.
Failure validate_view(const acc_image_view* view, long long max_pixels);

class Frame {
public:
    // `luma_scratch` receives the converted luma for colour formats; gray and NV12/NV21
    // frames use their own plane 0 directly.
    void wrap(const acc_image_view& view, cv::Mat& luma_scratch);

    const cv::Mat& luma() const { return luma_; }
    int width() const { return luma_.cols; }
    int height() const { return luma_.rows; }
    bool is_gray() const { return format_ == ACC_PIXEL_GRAY8; }

    // Bilinear luma; -1 outside the frame.
    float luma_at(double x, double y) const {
        if (!(x >= 0 && y >= 0 && x < luma_.cols - 1 && y < luma_.rows - 1)) return -1.f;
        const int ix = static_cast<int>(x), iy = static_cast<int>(y);
        const float fx = static_cast<float>(x - ix), fy = static_cast<float>(y - iy);
        const uchar* r0 = luma_.ptr<uchar>(iy) + ix;
        const uchar* r1 = r0 + luma_.step[0];
        const float top = r0[0] + fx * (r0[1] - r0[0]);
        const float bottom = r1[0] + fx * (r1[1] - r1[0]);
        return top + fy * (bottom - top);
    }

    // Bilinear colour as (R, G, B); gray frames give (g, g, g). False outside the frame.
    bool rgb_at(double x, double y, cv::Vec3f& out) const;

private:
    cv::Mat luma_;
    cv::Mat color_;          // RGB/BGR/RGBA/BGRA view, else empty
    cv::Mat chroma_;         // NV12/NV21 interleaved chroma plane (CV_8UC2), else empty
    acc_pixel_format format_ = ACC_PIXEL_GRAY8;
    // Which of the two is set, kept beside them: rgb_at asks per sample.
    bool has_color_ = false, has_chroma_ = false;
};

}  // namespace appclip::vision
