#include "lit_ink.hpp"

#include <algorithm>
#include <cmath>

namespace appclip::vision {
namespace {

cv::Vec3f lit(const cv::Vec3f& c, float light) {
    return cv::Vec3f(std::min(1.f, c[0] + light), std::min(1.f, c[1] + light), std::min(1.f, c[2] + light));
}

}  // namespace

LitInk::LitInk(const cv::Vec3f& background, const cv::Vec3f& foreground, const cv::Vec3f& third)
    : background_(background), foreground_(foreground), third_(third), ink_(background, foreground),
      third_ink_(ink_(third)) {}

float LitInk::light_over_background(float departure) const {
    // The ink moves further the more light there is, until every channel clips: bisection on
    // the size of the move.
    const float base = ink_(background_), wanted = std::abs(departure);
    if (wanted >= std::abs(ink_(lit(background_, 1.f)) - base)) return 1.f;
    float lo = 0.f, hi = 1.f;
    for (int step = 0; step < 20; ++step) {
        const float mid = 0.5f * (lo + hi);
        (std::abs(ink_(lit(background_, mid)) - base) < wanted ? lo : hi) = mid;
    }
    return 0.5f * (lo + hi);
}

bool LitInk::unlit(float light, float& ink) const {
    const float fg = ink_(lit(foreground_, light)), third = ink_(lit(third_, light));
    const float unlit_gap = 1.f - third_ink_;
    // A third colour as far from the background as the foreground leaves nothing to map onto
    // (and the test below then keeps the division off zero).
    if (!(unlit_gap > 0.f) || fg - third < kMinSeparation * unlit_gap) return false;
    ink = third_ink_ + (ink - third) * unlit_gap / (fg - third);
    return true;
}

}  // namespace appclip::vision
