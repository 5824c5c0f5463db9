#include "logo.hpp"

#include "homography.hpp"

namespace appclip::vision {
namespace {

// Mean ink over a small cross of taps around a centred code point.
float ink_near(const Frame& frame, const cv::Matx33d& h, const CodePalette& palette, double x, double y) {
    static const double taps[5][2] = {{0, 0}, {4, 0}, {-4, 0}, {0, 4}, {0, -4}};
    float sum = 0;
    int n = 0;
    for (const auto& t : taps) {
        const cv::Point2d p = apply(h, x + t[0], y + t[1]);
        cv::Vec3f v;
        if (frame.rgb_at(p.x, p.y, v)) sum += ink_level(palette, v), ++n;
    }
    return n > 0 ? sum / n : 0.f;
}

}  // namespace

acc_logo classify_logo(const Frame& frame, const cv::Matx33d& h, const CodePalette& palette) {
    // Both glyphs are discs of radius ~107 filled with the foreground outside their cut-outs.
    const float rim = (ink_near(frame, h, palette, 0, -88) + ink_near(frame, h, palette, -88, 0) +
                       ink_near(frame, h, palette, 88, 0)) / 3.f;
    if (rim < 0.6f) return ACC_LOGO_NONE;
    // Camera: background lens hole at the centre and background body beside it.
    // NFC: the phone screen (third colour) covers the same places.
    const float centre = (ink_near(frame, h, palette, 0, 0) + ink_near(frame, h, palette, -42, -18) +
                          ink_near(frame, h, palette, 42, 22)) / 3.f;
    const float lens = (ink_near(frame, h, palette, 25, 0) + ink_near(frame, h, palette, -25, 0)) / 2.f;
    if (centre > 0.5f * palette.third_level && lens < 0.75f) return ACC_LOGO_NFC;
    return ACC_LOGO_CAMERA;
}

}  // namespace appclip::vision
